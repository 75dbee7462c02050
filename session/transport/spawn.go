package transport

import (
	"os"
	"syscall"
)

// ChildSysProcAttr is how the stdio transport spawns a server: as the leader of its own
// process group (and, on Linux, killed when mcpscope dies). Code that spawns a server
// itself, such as a tap, uses it to treat the child the same way.
func ChildSysProcAttr() *syscall.SysProcAttr { return sysProcAttr() }

// ExitInfoOf describes how a spawned process ended, the way the stdio transport reports it:
// ps and waitErr are what exec.Cmd.Wait left.
func ExitInfoOf(ps *os.ProcessState, waitErr error) ExitInfo { return exitInfo(ps, waitErr) }
