package transport

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/mcpscope/mcpscope/session/transport/lines"
)

// Defaults and limits of the stdio transport.
const (
	// DefaultMaxLine is the longest stdout line reported whole when StdioOptions.MaxLine is 0.
	DefaultMaxLine = 64 << 20
	// DefaultGrace is the wait after closing stdin before SIGTERM, and after SIGTERM before
	// SIGKILL, when StdioOptions.Grace is 0.
	DefaultGrace = 2 * time.Second
	// TruncatedHead is how much of an oversize stdout line is kept and reported: enough to
	// show what the frame was, without holding a huge buffer per oversize line.
	TruncatedHead = 64 << 10
	// StderrChunk is the longest piece of a stderr line reported in one Sink.Stderr call; a
	// longer line arrives as several calls.
	StderrChunk = 64 << 10
	// StderrKeep is how many stderr lines ExitInfo.LastStderr holds, here and in the tap.
	StderrKeep = 20
	// drainTimeout bounds how long stdout and stderr are read after the server process has
	// exited. A descendant that inherited the pipes can keep them open forever; after this
	// the readers stop and the process group (on Linux, every descendant) is killed.
	drainTimeout = 2 * time.Second
)

var _ Transport = (*Stdio)(nil)

// ErrClosed is returned by Send once Close has begun.
var ErrClosed = errors.New("transport closed")

// StdioOptions says which server to spawn and how to treat it.
type StdioOptions struct {
	Command string   // program to run: a path, or a name looked up in $PATH; never run through a shell
	Args    []string // arguments after the program name
	Env     []string // KEY=VAL overrides on top of the inherited environment
	Dir     string   // working directory; "" for the current one
	MaxLine int64    // longest stdout line reported whole; 0 means DefaultMaxLine
	// Grace is the wait after closing stdin before SIGTERM, then the same again before
	// SIGKILL; 0 means DefaultGrace.
	Grace time.Duration
}

// Stdio is the stdio transport: it spawns the server with StartProcess (the leader of its
// own process group; on Linux under a supervisor that leaves nothing the server started
// running), writes one message per line to its stdin, and reports every stdout line (exact
// bytes, without the newline), every stderr line and the process exit.
type Stdio struct {
	opts StdioOptions

	started atomic.Bool
	closing atomic.Bool // Close has begun: the exit that follows is ours
	sink    Sink
	proc    *Process
	pid     int

	stdin   *os.File
	sendSem chan struct{} // one writer at a time; a channel so waiting can honour ctx
	broken  error         // set when a cancelled write left half a line on stdin; guarded by sendSem

	stdout, stderr *os.File
	readers        sync.WaitGroup // the stdout and stderr readers
	stdoutHeld     atomic.Bool    // stdout reader stopped at the drain deadline
	stderrHeld     atomic.Bool    // stderr reader stopped at the drain deadline
	tail           *lines.Tail    // the last stderr lines, for ExitInfo.LastStderr

	wg           sync.WaitGroup // every goroutine Start launched
	exited       chan struct{}  // closed when the process has been reaped
	done         chan struct{}  // closed after Sink.Exited
	closeStarted atomic.Bool    // the first Close runs the sequence; later ones wait for done
}

// NewStdio returns a stdio transport for o. Nothing runs until Start.
func NewStdio(o StdioOptions) *Stdio {
	if o.MaxLine <= 0 {
		o.MaxLine = DefaultMaxLine
	}
	if o.Grace <= 0 {
		o.Grace = DefaultGrace
	}
	return &Stdio{
		opts:    o,
		sendSem: make(chan struct{}, 1),
		tail:    lines.NewTail(StderrKeep),
		exited:  make(chan struct{}),
		done:    make(chan struct{}),
	}
}

// Name reports "stdio".
func (s *Stdio) Name() string { return "stdio" }

// Pid is the server's process id (also its process group id), or 0 before Start.
func (s *Stdio) Pid() int { return s.pid }

// Start spawns the server and begins reporting to sink. It returns an error naming the
// command when the program cannot be started.
func (s *Stdio) Start(ctx context.Context, sink Sink) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if s.opts.Command == "" {
		return errors.New("start: no command given")
	}
	if !s.started.CompareAndSwap(false, true) {
		return fmt.Errorf("start %s: already started", s.opts.Command)
	}
	s.sink = sink

	// Our ends are pollable, so writes and reads can be given deadlines; the child's ends
	// are made blocking when they are handed over.
	var ends [6]*os.File // stdin read, write; stdout read, write; stderr read, write
	for i := 0; i < len(ends); i += 2 {
		var err error
		if ends[i], ends[i+1], err = os.Pipe(); err != nil {
			closeFiles(ends[:i]...)
			s.markDone()
			return fmt.Errorf("start %s: %w", s.opts.Command, err)
		}
	}
	inR, inW, outW, errW := ends[0], ends[1], ends[3], ends[5]
	s.stdout, s.stderr = ends[2], ends[4]

	proc, err := StartProcess(ctx, ProcessSpec{
		Command: s.opts.Command, Args: s.opts.Args, Env: s.opts.Env, Dir: s.opts.Dir,
		Stdin: inR, Stdout: outW, Stderr: errW, Grace: s.opts.Grace,
	})
	// The child holds its own copies now; ours would keep the pipes open forever.
	closeFiles(inR, outW, errW)
	if err != nil {
		closeFiles(inW, s.stdout, s.stderr)
		s.markDone()
		return fmt.Errorf("start %s: %w", s.opts.Command, err)
	}
	s.proc = proc
	s.pid = proc.Pid()
	s.stdin = inW

	sink.Note(Note{Kind: "spawn", Text: fmt.Sprintf("pid %d: %s", s.pid, commandLine(s.opts.Command, s.opts.Args))})

	s.readers.Add(2)
	s.wg.Add(3)
	go func() {
		defer s.wg.Done()
		defer s.readers.Done()
		s.readStdout()
	}()
	go func() {
		defer s.wg.Done()
		defer s.readers.Done()
		s.readStderr()
	}()
	go func() {
		defer s.wg.Done()
		s.waitExit()
	}()
	return nil
}

// closeFiles closes each file, ignoring errors: they are pipe ends being let go.
func closeFiles(files ...*os.File) {
	for _, f := range files {
		f.Close()
	}
}

// markDone closes the channels Close waits on when Start failed, so Close returns at once.
func (s *Stdio) markDone() {
	close(s.exited)
	close(s.done)
}

// waitExit waits for the server to exit, lets the readers drain what it wrote, waits for
// what it left behind to be gone, and reports the exit. It is the only caller of
// Sink.Exited.
func (s *Stdio) waitExit() {
	exit := s.proc.Wait()
	byUs := s.closing.Load()
	close(s.exited)

	deadline := time.Now().Add(drainTimeout)
	s.stdout.SetReadDeadline(deadline)
	s.stderr.SetReadDeadline(deadline)
	s.readers.Wait()
	if s.stdoutHeld.Load() || s.stderrHeld.Load() {
		// Something the server started still holds our pipes open.
		s.proc.Signal(syscall.SIGKILL)
	}
	s.stdout.Close()
	s.stderr.Close()
	<-s.proc.Done()

	info := exit.Info
	info.LastStderr = s.tail.Lines()
	info.ByUs = byUs
	s.sink.Exited(info)
	close(s.done)
}

// exitInfo describes how the process ended.
func exitInfo(ps *os.ProcessState, waitErr error) ExitInfo {
	var info ExitInfo
	if ps == nil {
		info.Code = -1
		if waitErr != nil {
			info.Err = waitErr.Error()
		}
		return info
	}
	info.Code = ps.ExitCode()
	if sig := exitSignal(ps); sig != "" {
		info.Code = -1
		info.Signal = sig
		info.Err = ps.String()
	}
	var exitErr *exec.ExitError
	if waitErr != nil && !errors.As(waitErr, &exitErr) {
		info.Err = waitErr.Error()
	}
	return info
}

// Send writes m.Raw and a newline to the server's stdin. Writers take turns; waiting for a
// turn and the write itself both stop when ctx ends, so a server that stops reading cannot
// hang the caller. A write cut short part-way leaves half a line on stdin; every later Send
// then fails, since anything more would be glued to that half line.
func (s *Stdio) Send(ctx context.Context, m Outgoing) error {
	if !s.started.Load() || s.stdin == nil {
		return errors.New("send: stdio transport not started")
	}
	if s.closing.Load() {
		return fmt.Errorf("send: %w", ErrClosed)
	}
	select {
	case <-s.exited:
		return errors.New("send: server process has exited")
	default:
	}
	select {
	case s.sendSem <- struct{}{}:
	case <-ctx.Done():
		return fmt.Errorf("send: waiting for stdin: %w", context.Cause(ctx))
	case <-s.exited:
		return errors.New("send: server process has exited")
	}
	defer func() { <-s.sendSem }()
	if s.broken != nil {
		return s.broken
	}

	line := make([]byte, len(m.Raw)+1)
	copy(line, m.Raw)
	line[len(m.Raw)] = '\n'

	// Ending ctx moves the write deadline into the past, which interrupts a blocked write.
	interrupted := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		s.stdin.SetWriteDeadline(time.Unix(1, 0))
		close(interrupted)
	})
	n, err := s.stdin.Write(line)
	if !stop() {
		<-interrupted
		s.stdin.SetWriteDeadline(time.Time{})
	}
	if err == nil {
		return nil
	}
	if errors.Is(err, os.ErrDeadlineExceeded) && ctx.Err() != nil {
		err = context.Cause(ctx)
	}
	if n > 0 {
		s.broken = fmt.Errorf("send: stdin unusable: an earlier write stopped after %d of %d bytes", n, len(line))
		return fmt.Errorf("send: stopped after %d of %d bytes: %w", n, len(line), err)
	}
	select {
	case <-s.exited:
		return fmt.Errorf("send: server process has exited: %w", err)
	default:
	}
	return fmt.Errorf("send: %w", err)
}

// Close shuts the server down the way the MCP lifecycle asks: close stdin, wait Grace for it
// to exit, SIGTERM the process group, wait Grace again, SIGKILL the group (on Linux, and
// every descendant). When ctx ends first, it goes straight to SIGKILL. Close returns after
// Sink.Exited has been called, which is once what the server left behind is gone too, and
// every goroutine of the transport has finished; later calls wait for the same end and
// return nil.
func (s *Stdio) Close(ctx context.Context) error {
	if s.closeStarted.CompareAndSwap(false, true) {
		return s.shutdown(ctx)
	}
	select {
	case <-s.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// shutdown runs the close sequence once.
func (s *Stdio) shutdown(ctx context.Context) error {
	s.closing.Store(true)
	if s.started.CompareAndSwap(false, true) { // never started: nothing to stop, and no Start later
		s.markDone()
		return nil
	}
	if s.proc == nil { // Start failed; nothing runs.
		return nil
	}
	// Closing our end also wakes a Send blocked in a write.
	s.stdin.Close()

	exited := s.waitExited(ctx, s.opts.Grace)
	if !exited && ctx.Err() == nil {
		s.proc.Signal(syscall.SIGTERM)
		exited = s.waitExited(ctx, s.opts.Grace)
	}
	if !exited || ctx.Err() != nil {
		s.proc.Signal(syscall.SIGKILL)
	}
	// SIGKILL cannot be ignored, and the readers stop at the drain deadline, so this ends.
	<-s.done
	s.wg.Wait()
	if err := ctx.Err(); err != nil && !exited {
		return fmt.Errorf("close: %w (server killed)", err)
	}
	return nil
}

// waitExited waits up to d for the process to be reaped; false when d passed or ctx ended.
func (s *Stdio) waitExited(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-s.exited:
		return true
	case <-t.C:
		return false
	case <-ctx.Done():
		return false
	}
}

// commandLine renders argv for display, quoting words a shell would split or expand.
func commandLine(name string, args []string) string {
	words := make([]string, 0, len(args)+1)
	for _, a := range append([]string{name}, args...) {
		words = append(words, shellQuote(a))
	}
	return strings.Join(words, " ")
}

// shellQuote returns a unchanged when it is plain, otherwise single-quoted.
func shellQuote(a string) string {
	if a == "" {
		return "''"
	}
	plain := strings.IndexFunc(a, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' ||
			strings.ContainsRune("-_./=:,+@%", r))
	}) < 0
	if plain {
		return a
	}
	return "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
}
