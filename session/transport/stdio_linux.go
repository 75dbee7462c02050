package transport

import "syscall"

// sysProcAttr starts the server as the leader of its own process group, so the close
// sequence can signal everything it started (npx → node), and asks the kernel to kill it if
// mcpscope dies without closing it. Pdeathsig is tied to the spawning OS thread; the Go
// runtime only retires a thread when a goroutine locked to it exits, which Start never does.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
