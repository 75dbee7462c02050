//go:build !unix

package transport

import (
	"os"
	"syscall"
)

// sysProcAttr has nothing to add where process groups are not available.
func sysProcAttr() *syscall.SysProcAttr { return nil }

// signalGroup ends the process: without POSIX signals, SIGTERM and SIGKILL both kill it.
func signalGroup(p *os.Process, _ processSignal) { p.Kill() }

// exitSignal is always "" where exits carry no signal.
func exitSignal(*os.ProcessState) string { return "" }
