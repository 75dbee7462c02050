//go:build unix && !linux

package transport

import "syscall"

// sysProcAttr starts the server as the leader of its own process group, so the close
// sequence can signal everything it started (npx → node).
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
