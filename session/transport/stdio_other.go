//go:build !unix

package transport

import "os"

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
