//go:build unix

package transport

import (
	"os"
	"syscall"
	"time"
)

// groupPoll is how often endGroup checks whether the process group is empty.
const groupPoll = 20 * time.Millisecond

// signalGroup sends sig to the process group p leads. Errors are ignored: the group may
// already be gone.
func signalGroup(p *os.Process, sig syscall.Signal) {
	if err := syscall.Kill(-p.Pid, sig); err != nil {
		// Not a group leader after all (or already gone): signal the process alone.
		p.Signal(sig)
	}
}

// endGroup sends SIGTERM to what is left of the process group pgid after its leader was
// reaped, then SIGKILL once grace has passed with members still there, or when hurry is
// closed. The group's id cannot be reused while it has members.
func endGroup(pgid int, grace time.Duration, hurry <-chan struct{}) {
	if syscall.Kill(-pgid, syscall.SIGTERM) != nil {
		return // empty
	}
	deadline := time.NewTimer(grace)
	defer deadline.Stop()
	poll := time.NewTicker(groupPoll)
	defer poll.Stop()
	for syscall.Kill(-pgid, 0) == nil {
		select {
		case <-poll.C:
		case <-deadline.C:
			syscall.Kill(-pgid, syscall.SIGKILL)
		case <-hurry:
			hurry = nil
			syscall.Kill(-pgid, syscall.SIGKILL)
		}
	}
}

// exitSignal names the signal that ended the process ("killed", "terminated"), or "".
func exitSignal(ps *os.ProcessState) string {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return ws.Signal().String()
	}
	return ""
}

// processExit describes how a process reaped by exec.Cmd.Wait ended.
func processExit(ps *os.ProcessState, waitErr error) ProcessExit {
	e := ProcessExit{Info: exitInfo(ps, waitErr), Shell: -1}
	if ps != nil {
		if ws, ok := ps.Sys().(syscall.WaitStatus); ok {
			e.Shell = shellStatus(ws)
		}
	}
	return e
}

// shellStatus is the exit status a shell reports: the exit code, or 128 plus the number of
// the signal that killed the process.
func shellStatus(ws syscall.WaitStatus) int {
	if ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ws.ExitStatus()
}
