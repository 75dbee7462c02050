//go:build !windows

package transport

import (
	"sync"
	"syscall"
)

// startDirect spawns the server as mcpscope's own child, the leader of its own process
// group. When it exits, what is left in its group gets SIGTERM, then SIGKILL after the
// grace period.
func startDirect(spec ProcessSpec) (*Process, error) {
	cmd := command(spec)
	cmd.SysProcAttr = sysProcAttr()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &Process{pid: cmd.Process.Pid, exited: make(chan struct{}), done: make(chan struct{})}
	var mu sync.Mutex // guards reaped and hurried
	reaped, hurried := false, false
	hurry := make(chan struct{}) // closed by SIGKILL once the leader is reaped
	p.signal = func(sig syscall.Signal) {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case !reaped:
			signalGroup(cmd.Process, sig)
		case sig == syscall.SIGKILL && !hurried:
			hurried = true
			close(hurry)
		}
	}
	go func() {
		err := cmd.Wait()
		mu.Lock()
		reaped = true
		mu.Unlock()
		p.exit = processExit(cmd.ProcessState, err)
		close(p.exited)
		endGroup(p.pid, spec.Grace, hurry)
		close(p.done)
	}()
	return p, nil
}
