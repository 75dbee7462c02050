package transport

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync/atomic"
	"time"

	"github.com/mcpscope/mcpscope/session/transport/lines"
)

// readChunk is the most the stdio readers take from a pipe in one read.
const readChunk = 64 << 10

// readStdout reports every stdout line as one frame: its exact bytes without the "\n" (a
// "\r" before it stays). A line longer than MaxLine is reported Truncated with its first
// TruncatedHead bytes and its full size; the rest is read and dropped, so one huge line never
// holds more than MaxLine in memory, and the next line is read as usual. A last line with no
// newline is reported Unterminated. The lines are cut by lines.Splitter, as the tap's are.
func (s *Stdio) readStdout() {
	sp := &lines.Splitter{Max: s.opts.MaxLine, Head: TruncatedHead,
		Emit: func(l []byte, size int64, truncated, unterminated bool) {
			s.sink.Received(l, RecvInfo{Via: "stdout", Size: size, Truncated: truncated, Unterminated: unterminated})
		}}
	err := readLines(s.stdout, sp)
	s.streamEnd("stdout", err, &s.stdoutHeld)
	if errors.Is(err, io.EOF) {
		s.stdoutEOF()
	}
}

// readStderr reports every stderr line without its "\n", in pieces of at most StderrChunk
// bytes, and keeps the last StderrKeep lines for ExitInfo.LastStderr.
func (s *Stdio) readStderr() {
	sp := &lines.Splitter{Max: StderrChunk, Pieces: true, Emit: func(l []byte, _ int64, _, _ bool) {
		s.tail.Add(string(l))
		s.sink.Stderr(l)
	}}
	s.streamEnd("stderr", readLines(s.stderr, sp), &s.stderrHeld)
}

// readLines feeds r to sp a read at a time until r fails, ends the last line, and returns
// the error that stopped it (io.EOF at the end of the stream).
func readLines(r io.Reader, sp *lines.Splitter) error {
	buf := make([]byte, readChunk)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			sp.Write(buf[:n])
		}
		if err != nil {
			sp.End()
			return err
		}
	}
}

// stdoutExitWait is how long an end of stdout may precede the process's exit and still count
// as part of it: a process that exits closes its stdout a moment before it is reaped.
const stdoutExitWait = 250 * time.Millisecond

// NoteStdoutClosed is the kind of the note reported when the server closes its stdout and
// keeps running: nothing it answers can arrive any more.
const NoteStdoutClosed = "stdout-closed"

// stdoutEOF reports stdout ending while the server process still runs.
func (s *Stdio) stdoutEOF() {
	if s.closing.Load() {
		return
	}
	t := time.NewTimer(stdoutExitWait)
	defer t.Stop()
	select {
	case <-s.exited:
		return
	case <-t.C:
	}
	if s.closing.Load() {
		return
	}
	s.sink.Note(Note{Kind: NoteStdoutClosed, Text: fmt.Sprintf("the server closed its stdout but is still running (pid %d)", s.pid)})
}

// streamEnd notes why a reader stopped when it is not a plain end of stream. held records
// that the stream was still open at the drain deadline.
func (s *Stdio) streamEnd(stream string, err error, held *atomic.Bool) {
	switch {
	case errors.Is(err, io.EOF):
	case errors.Is(err, os.ErrDeadlineExceeded):
		held.Store(true)
		s.sink.Note(Note{Kind: "stream-end", Text: stream + " still open after the server exited (held by a child process?); stopped reading"})
	default:
		s.sink.Note(Note{Kind: "stream-end", Text: stream + ": " + err.Error()})
	}
}
