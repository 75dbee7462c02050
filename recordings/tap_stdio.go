package recordings

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/fault"
	"github.com/mcpscope/mcpscope/session/transport"
	"github.com/mcpscope/mcpscope/session/transport/lines"
)

// Limits of the stdio tap.
const (
	// tapChunk is the most a tap reads from one stream at a time; whatever a read returns is
	// forwarded at once.
	tapChunk = 64 << 10
	// tapDrain bounds how long the server's stdout and stderr are read after it exited: a
	// descendant holding them open would keep the tap alive forever.
	tapDrain = 2 * time.Second
)

// StdioTap is the server a tap spawns and the host's ends it connects it to.
type StdioTap struct {
	Command string   // program: a path or a name looked up in $PATH; never run through a shell
	Args    []string // arguments after the program name
	Env     []string // KEY=VAL added to the inherited environment
	Dir     string   // working directory; "" for the current one

	Stdin  io.Reader // the host's messages, passed to the server's stdin
	Stdout io.Writer // gets the server's stdout, byte for byte
	Stderr io.Writer // gets the server's stderr, byte for byte
	// Signals are passed on to the server's process group as they arrive.
	Signals <-chan os.Signal
}

// RunStdio spawns the server as the stdio transport does (the leader of its own process
// group; on Linux under a supervisor, so nothing it starts outlives the tap, even when the
// tap is killed with SIGKILL) and
// copies host stdin to its stdin, its stdout to host stdout and its stderr to host stderr,
// each chunk as soon as it is read. Complete lines are recorded and broadcast in the order
// they were read, off the forwarding path (see tap_log.go): frames from stdin
// (client→server) and stdout (server→client), stderr lines, and the exit. When Stdin ends the server's stdin is closed; RunStdio returns when the
// server has exited, with its exit status as a shell reports it (128+n for signal n), and
// closes the tap. When ctx ends the server's group gets SIGTERM.
//
// A read of Stdin that is still blocked when the server exits is left behind: it ends with
// the next input or when the program exits.
func (t *Tap) RunStdio(ctx context.Context, st StdioTap) (int, error) {
	defer t.Close()
	var ends [6]*os.File // stdin read, write; stdout read, write; stderr read, write
	for i := 0; i < len(ends); i += 2 {
		var err error
		if ends[i], ends[i+1], err = os.Pipe(); err != nil {
			closeAll(ends[:i]...)
			return -1, fmt.Errorf("start %s: %w", st.Command, err)
		}
	}
	inR, inW, outR, outW, errR, errW := ends[0], ends[1], ends[2], ends[3], ends[4], ends[5]
	proc, err := transport.StartProcess(ctx, transport.ProcessSpec{
		Command: st.Command, Args: st.Args, Env: st.Env, Dir: st.Dir,
		Stdin: inR, Stdout: outW, Stderr: errW,
	})
	closeAll(inR, outW, errW)
	if err != nil {
		closeAll(inW, outR, errR)
		t.note("spawn-failed", err.Error())
		return -1, fmt.Errorf("start %s: %w", st.Command, err)
	}
	t.note("spawn", fmt.Sprintf("pid %d: %s", proc.Pid(), t.header.Server))

	var side sync.WaitGroup // signal forwarding
	side.Add(1)
	go func() {
		defer side.Done()
		for {
			select {
			case sig := <-st.Signals:
				if s, ok := sig.(syscall.Signal); ok {
					proc.Signal(s)
				}
			case <-ctx.Done():
				proc.Signal(syscall.SIGTERM)
				<-proc.Exited()
				return
			case <-proc.Exited():
				return
			}
		}
	}()

	var closeIn sync.Once
	closeStdin := func() { closeIn.Do(func() { inW.Close() }) }
	stream := func(name string, sp func(*tapStream) *lines.Splitter) *tapStream {
		ts := &tapStream{log: t.log, name: name, note: func(kind, text string) { // on the log: at once
			t.publishNow(&session.Event{Kind: session.EvTransport, Note: kind, Text: text, Time: time.Now()}, nil)
		}}
		ts.sp = sp(ts)
		return ts
	}
	frames := func(dir protocol.Direction, via string) *tapStream {
		return stream(via, func(ts *tapStream) *lines.Splitter { return t.frameSplitter(dir, via, &ts.at) })
	}
	var toServer, toHost io.Writer = inW, st.Stdout
	end := func(io.Writer) {}
	if t.cfg.Faults != nil {
		fs, fh := t.faultStreams(inW, st.Stdout, closeStdin)
		toServer, toHost = fs, fh
		end = func(w io.Writer) { _ = w.(*fault.Stream).End() }
	}
	go func() { // host stdin → server stdin; not waited for (see above)
		t.pump(st.Stdin, toServer, frames(protocol.ClientToServer, "stdin"), t.note)
		end(toServer)
		closeStdin()
	}()

	var readers sync.WaitGroup
	var held [2]bool
	kept := lines.NewTail(transport.StderrKeep)
	readers.Add(2)
	go func() {
		defer readers.Done()
		held[0] = t.pump(outR, toHost, frames(protocol.ServerToClient, "stdout"), t.note)
		end(toHost)
	}()
	go func() {
		defer readers.Done()
		errs := stream("stderr", func(ts *tapStream) *lines.Splitter {
			return &lines.Splitter{Max: transport.StderrChunk, Pieces: true, Emit: func(l []byte, _ int64, _, _ bool) {
				kept.Add(string(l))
				t.publishNow(&session.Event{Kind: session.EvStderr, Text: string(l), Time: ts.at}, nil)
			}}
		})
		held[1] = t.pump(errR, st.Stderr, errs, t.note)
	}()

	exit := proc.Wait()
	deadline := time.Now().Add(tapDrain)
	outR.SetReadDeadline(deadline)
	errR.SetReadDeadline(deadline)
	readers.Wait()
	if held[0] || held[1] {
		proc.Signal(syscall.SIGKILL) // something the server started holds the pipes
	}
	closeAll(outR, errR)
	closeStdin()
	side.Wait()
	<-proc.Done()

	info := exit.Info
	info.LastStderr = kept.Lines()
	text := fmt.Sprintf("exit status %d", info.Code)
	if info.Signal != "" {
		text = "killed by signal " + info.Signal
	}
	t.publish(&session.Event{Kind: session.EvExit, Exit: &info, Text: text})
	return exit.Shell, t.Close()
}

// closeAll closes pipe ends, ignoring errors.
func closeAll(files ...*os.File) {
	for _, f := range files {
		f.Close()
	}
}

// pump copies src to dst a read at a time. Each chunk is queued to the tap's log (to be
// split and recorded in order) before it is forwarded, so a line is in the timeline before
// the peer can answer it, and forwarding never waits for the recording. When dst fails,
// copying goes on without it so the source never blocks; the failure is noted once (note is
// the queued note). It reports whether src was still open at its read deadline.
func (t *Tap) pump(src io.Reader, dst io.Writer, st *tapStream, note func(kind, text string)) (held bool) {
	buf := make([]byte, tapChunk)
	stream := st.name
	for {
		n, err := src.Read(buf)
		if n > 0 {
			st.feed(buf[:n])
			if dst != nil {
				if _, werr := dst.Write(buf[:n]); werr != nil {
					note("forward-failed", stream+": "+werr.Error())
					dst = nil
				}
			}
			st.log.here() // forwarded: now record it, unless another goroutine is recording
		}
		if err != nil {
			st.end()
			switch {
			case errors.Is(err, io.EOF):
				if stream == "stdin" {
					note("stdin-closed", "the host closed stdin")
				}
			case errors.Is(err, os.ErrDeadlineExceeded):
				note("stream-end", stream+" still open after the server exited (held by a child process?); stopped reading")
				return true
			default:
				note("stream-end", stream+": "+err.Error())
			}
			return false
		}
	}
}

// frameSplitter makes the splitter that publishes each line of a stdio stream as a frame,
// with the stdio transport's bounds: lines over MaxFrame keep their first
// transport.TruncatedHead bytes. Each frame gets the time *at (when its last chunk was read).
// The splitter runs on the tap's log, so it publishes at once.
func (t *Tap) frameSplitter(dir protocol.Direction, via string, at *time.Time) *lines.Splitter {
	return &lines.Splitter{Max: t.cfg.MaxFrame, Head: transport.TruncatedHead, Emit: func(l []byte, size int64, truncated, unterminated bool) {
		info := transport.RecvInfo{Via: via, Size: size, Truncated: truncated, Unterminated: unterminated}
		t.publishNow(&session.Event{Kind: session.EvFrame, Dir: dir, Frame: session.DecodeReceived(l, info), Recv: info, Time: *at}, nil)
	}}
}
