//go:build unix

package transport

import (
	"os"
	"syscall"
)

// signalGroup sends sig to the process group p leads. Errors are ignored: the group may
// already be gone.
func signalGroup(p *os.Process, sig processSignal) {
	s := syscall.SIGKILL
	if sig == sigTerm {
		s = syscall.SIGTERM
	}
	if err := syscall.Kill(-p.Pid, s); err != nil {
		// Not a group leader after all (or already gone): signal the process alone.
		p.Signal(s)
	}
}

// exitSignal names the signal that ended the process ("killed", "terminated"), or "".
func exitSignal(ps *os.ProcessState) string {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return ws.Signal().String()
	}
	return ""
}
