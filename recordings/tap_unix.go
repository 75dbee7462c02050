//go:build unix

package recordings

import (
	"os"
	"syscall"
)

// ownedByMe reports whether the file belongs to the user running mcpscope.
func ownedByMe(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return !ok || int(st.Uid) == os.Getuid()
}

// forwardSignal passes sig on to the process group p leads (the server and what it
// started), or to p alone when it leads none.
func forwardSignal(p *os.Process, sig os.Signal) {
	s, ok := sig.(syscall.Signal)
	if !ok {
		p.Signal(sig)
		return
	}
	if err := syscall.Kill(-p.Pid, s); err != nil {
		p.Signal(s)
	}
}

// shellStatus is the exit status a shell reports for a process: its exit code, or 128 plus
// the number of the signal that killed it.
func shellStatus(ps *os.ProcessState) int {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ps.ExitCode()
}
