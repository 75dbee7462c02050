//go:build !unix

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

// exitSignal is always "" where exits carry no signal.
func exitSignal(*os.ProcessState) string { return "" }

// processExit describes how a process reaped by exec.Cmd.Wait ended.
func processExit(ps *os.ProcessState, waitErr error) ProcessExit {
	e := ProcessExit{Info: exitInfo(ps, waitErr), Shell: -1}
	if ps != nil {
		e.Shell = ps.ExitCode()
	}
	return e
}
