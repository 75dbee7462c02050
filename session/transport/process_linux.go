package transport

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/mcpscope/mcpscope/session/transport/supervise"
)

// supervisorPath is the executable run as the supervisor: this very program, through
// /proc/self/exe, which stays this program's file even when the path it was started from
// now holds another version; "" when /proc is not there, and the server is then spawned
// directly.
var supervisorPath = sync.OnceValue(func() string {
	const self = "/proc/self/exe"
	if _, err := os.Stat(self); err != nil {
		return ""
	}
	return self
})

// startProcess spawns the server under a supervisor (see package supervise), or directly
// when this program's executable cannot be run again.
func startProcess(ctx context.Context, spec ProcessSpec) (*Process, error) {
	if supervisorPath() == "" {
		return startDirect(spec)
	}
	return startSupervised(ctx, spec)
}

// startSupervised runs the supervisor with the server's streams and waits for it to report
// the server's pid or why it could not start it.
func startSupervised(ctx context.Context, spec ProcessSpec) (*Process, error) {
	target := command(spec) // looks the program up as a direct spawn would
	if target.Err != nil {
		return nil, target.Err
	}
	var ends [4]*os.File // status read, write; control read, write
	for i := 0; i < len(ends); i += 2 {
		var err error
		if ends[i], ends[i+1], err = os.Pipe(); err != nil {
			closeFiles(ends[:i]...)
			return nil, err
		}
	}
	statusR, statusW, controlR, controlW := ends[0], ends[1], ends[2], ends[3]
	sup := &exec.Cmd{
		Path:   supervisorPath(),
		Args:   append([]string{supervise.Arg0, strconv.FormatInt(spec.Grace.Milliseconds(), 10), target.Path}, target.Args...),
		Env:    append(target.Env, supervise.EnvKey+"="+supervise.EnvValue), // serverEnv's: no credential of mcpscope's
		Dir:    spec.Dir,
		Stdin:  spec.Stdin,
		Stdout: spec.Stdout,
		Stderr: spec.Stderr,
		// statusW and controlR become descriptors 3 and 4 (supervise.StatusFD, ControlFD).
		ExtraFiles: []*os.File{statusW, controlR},
		// A group of its own: signals for mcpscope's group (a terminal's ^C, a kill of
		// the whole job) do not reach it, so it outlives mcpscope to clean up.
		SysProcAttr: &syscall.SysProcAttr{Setpgid: true},
	}
	err := sup.Start()
	closeFiles(statusW, controlR)
	if err != nil {
		closeFiles(statusR, controlW)
		return nil, err
	}

	p := &Process{exited: make(chan struct{}), done: make(chan struct{})}
	var ctlMu sync.Mutex
	p.signal = func(sig syscall.Signal) {
		ctlMu.Lock()
		defer ctlMu.Unlock()
		controlW.Write([]byte{byte(sig)}) // fails once the supervisor is gone: nothing to signal
	}
	started := make(chan error, 1) // the first of: pid, error, the supervisor's end
	go func() {
		p.watch(bufio.NewReader(statusR), started)
		statusR.Close()
		waitErr := sup.Wait()
		ctlMu.Lock()
		controlW.Close()
		ctlMu.Unlock()
		select {
		case <-p.exited:
		default: // the supervisor ended without reporting the server's exit
			p.exit = ProcessExit{Info: ExitInfo{Code: -1, Err: "process supervisor ended: " + supervisorEnd(sup, waitErr)}, Shell: -1}
			close(p.exited)
		}
		select { // only heard when neither a pid nor an error came first
		case started <- fmt.Errorf("%w (%s)", errNoStart, supervisorEnd(sup, waitErr)):
		default:
		}
		close(p.done)
	}()
	select {
	case err := <-started:
		if err != nil {
			<-p.done
			return nil, err
		}
	case <-ctx.Done():
		p.Signal(syscall.SIGKILL)
		ctlMu.Lock()
		controlW.Close() // end of file: the supervisor kills whatever it started
		ctlMu.Unlock()
		<-p.done
		return nil, context.Cause(ctx)
	}
	return p, nil
}

// watch reads the supervisor's status lines: the pid (or why the server could not start),
// sent to started, then the server's wait status.
func (p *Process) watch(r *bufio.Reader, started chan<- error) {
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		word, rest, _ := strings.Cut(strings.TrimSuffix(line, "\n"), " ")
		switch word {
		case "pid":
			p.pid, _ = strconv.Atoi(rest)
			started <- nil
		case "error":
			started <- errors.New(rest)
		case "exit":
			ws, _ := strconv.ParseUint(rest, 10, 32)
			p.exit = waitStatusExit(syscall.WaitStatus(ws))
			close(p.exited)
		}
	}
}

// supervisorEnd says how the supervisor ended.
func supervisorEnd(sup *exec.Cmd, waitErr error) string {
	if sup.ProcessState != nil {
		return sup.ProcessState.String()
	}
	if waitErr != nil {
		return waitErr.Error()
	}
	return "unknown"
}

// errNoStart is returned when the supervisor ended before saying whether the server runs.
var errNoStart = errors.New("the process supervisor ended before starting the server")

// waitStatusExit describes a raw wait status exactly as processExit describes the
// os.ProcessState that holds it.
func waitStatusExit(ws syscall.WaitStatus) ProcessExit {
	info := ExitInfo{Code: ws.ExitStatus()}
	if ws.Signaled() {
		info.Code = -1
		info.Signal = ws.Signal().String()
		info.Err = "signal: " + info.Signal
		if ws.CoreDump() {
			info.Err += " (core dumped)"
		}
	}
	return ProcessExit{Info: info, Shell: shellStatus(ws)}
}
