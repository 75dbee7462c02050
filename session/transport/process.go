package transport

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"syscall"
	"time"

	"github.com/mcpscope/mcpscope/session/secret"
)

// ProcessSpec says which server to spawn and which ends of its standard streams it gets.
type ProcessSpec struct {
	Command string   // program: a path, or a name looked up in $PATH; never run through a shell
	Args    []string // arguments after the program name
	Env     []string // KEY=VAL added to the inherited environment (less mcpscope's credentials)
	Dir     string   // working directory; "" for the current one
	Stdin   *os.File // the server's standard streams (its ends of the pipes)
	Stdout  *os.File
	Stderr  *os.File
	// Grace is how long what the server leaves behind when it exits has between SIGTERM
	// and SIGKILL; 0 means DefaultGrace.
	Grace time.Duration
}

// Process is a spawned server, with everything it starts. On Linux a supervisor (see
// package supervise) is its parent: a child subreaper that kills the server's process group
// and every descendant when the server exits or when mcpscope is gone, even by SIGKILL.
// On Windows the server and what it starts are in a job object that ends them all when the
// session ends or mcpscope is gone (process_windows.go). Elsewhere (macOS, the BSDs) the
// server is mcpscope's own child in its own process group, and the group is what gets
// killed.
type Process struct {
	pid    int
	exited chan struct{} // closed when the server itself has exited; exit is set
	done   chan struct{} // closed when the server and everything it started are gone
	exit   ProcessExit
	signal func(syscall.Signal)
}

// ProcessExit is how a server process ended.
type ProcessExit struct {
	Info  ExitInfo // as the stdio transport reports it
	Shell int      // the status a shell reports: the exit code, or 128+n for signal n
}

// StartProcess spawns the server described by spec. Its error names what could not be
// started, as exec.Cmd.Start does.
func StartProcess(ctx context.Context, spec ProcessSpec) (*Process, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if spec.Grace <= 0 {
		spec.Grace = DefaultGrace
	}
	return startProcess(ctx, spec)
}

// Pid is the server's process id, which is also its process group id.
func (p *Process) Pid() int { return p.pid }

// Signal passes sig on to the server's process group. SIGKILL kills the group and, on
// Linux, every descendant of the server, wherever it went. Signals after the end are
// ignored.
func (p *Process) Signal(sig syscall.Signal) { p.signal(sig) }

// Exited is closed when the server itself has exited.
func (p *Process) Exited() <-chan struct{} { return p.exited }

// Wait waits for the server itself to exit and tells how it ended. What it started may
// still be running, with SIGTERM on its way; Done says when that is over too.
func (p *Process) Wait() ProcessExit {
	<-p.exited
	return p.exit
}

// Done is closed when the server and everything it started are gone and reaped.
func (p *Process) Done() <-chan struct{} { return p.done }

// serverEnv is a server's environment: mcpscope's own, less its credentials
// (secret.CredentialEnv), then extra (the -e values, which may name one on purpose).
func serverEnv(extra []string) []string {
	env := os.Environ()
	out := make([]string, 0, len(env)+len(extra))
	for _, kv := range env {
		if !secret.IsCredentialEnv(kv) {
			out = append(out, kv)
		}
	}
	return append(out, extra...)
}

// command is the exec.Cmd for spec, with the program looked up as exec.Command does. A
// working directory that cannot be entered is its error (cmd.Err) too, named as such: the
// spawn itself would blame the program.
func command(spec ProcessSpec) *exec.Cmd {
	cmd := exec.Command(spec.Command, spec.Args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = spec.Stdin, spec.Stdout, spec.Stderr
	cmd.Dir = spec.Dir
	cmd.Env = serverEnv(spec.Env)
	if spec.Dir != "" && cmd.Err == nil {
		if fi, err := os.Stat(spec.Dir); err != nil {
			cmd.Err = &os.PathError{Op: "chdir", Path: spec.Dir, Err: errors.Unwrap(err)}
		} else if !fi.IsDir() {
			cmd.Err = &os.PathError{Op: "chdir", Path: spec.Dir, Err: syscall.ENOTDIR}
		}
	}
	return cmd
}
