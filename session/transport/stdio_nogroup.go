//go:build !unix && !windows

package transport

import (
	"os"
	"syscall"
	"time"
)

// sysProcAttr has nothing to add where process groups are not available.
func sysProcAttr() *syscall.SysProcAttr { return nil }

// signalGroup ends the process: without POSIX signals, every signal kills it.
func signalGroup(p *os.Process, _ syscall.Signal) { p.Kill() }

// endGroup has nothing to do where there are no process groups.
func endGroup(int, time.Duration, <-chan struct{}) {}
