package transport

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"sync/atomic"
	"time"
)

// readStdout reports every stdout line as one frame: its exact bytes without the "\n" (a
// "\r" before it stays). A line longer than MaxLine is reported Truncated with its first
// TruncatedHead bytes and its full size; the rest is read and dropped, so one huge line never
// holds more than MaxLine in memory, and the next line is read as usual. A last line with no
// newline is reported Unterminated.
func (s *Stdio) readStdout() {
	br := bufio.NewReaderSize(s.stdout, 64<<10)
	maxLine := s.opts.MaxLine
	headCap := int64(TruncatedHead)
	if maxLine < headCap {
		headCap = maxLine
	}

	var (
		line []byte // the line so far; only its head once over
		size int64  // bytes of the line so far
		over bool   // the line exceeded maxLine
	)
	emit := func(unterminated bool) {
		raw := line
		if raw == nil {
			raw = []byte{}
		}
		s.sink.Received(raw, RecvInfo{Via: "stdout", Size: size, Truncated: over, Unterminated: unterminated})
		line, size, over = nil, 0, false
	}
	for {
		chunk, err := br.ReadSlice('\n')
		ended := err == nil
		if ended {
			chunk = chunk[:len(chunk)-1]
		}
		if ended && line == nil && !over && int64(len(chunk)) <= maxLine {
			// The common case: the whole line came in one piece. Hand over a copy, since
			// chunk points into the reader's buffer.
			line = make([]byte, len(chunk))
			copy(line, chunk)
			size = int64(len(chunk))
			emit(false)
			continue
		}
		size += int64(len(chunk))
		if !over && size > maxLine {
			over = true
			head := make([]byte, 0, headCap)
			line = append(head, line[:min(int64(len(line)), headCap)]...)
		}
		if over {
			if room := headCap - int64(len(line)); room > 0 {
				line = append(line, chunk[:min(room, int64(len(chunk)))]...)
			}
		} else {
			line = append(line, chunk...)
		}
		switch {
		case ended:
			emit(false)
		case errors.Is(err, bufio.ErrBufferFull):
		default:
			if size > 0 {
				emit(true)
			}
			s.streamEnd("stdout", err, &s.stdoutHeld)
			if errors.Is(err, io.EOF) {
				s.stdoutEOF()
			}
			return
		}
	}
}

// readStderr reports every stderr line without its "\n", in pieces of at most StderrChunk
// bytes, and keeps the last lines for ExitInfo.LastStderr.
func (s *Stdio) readStderr() {
	br := bufio.NewReaderSize(s.stderr, StderrChunk)
	report := func(b []byte) {
		line := make([]byte, len(b))
		copy(line, b)
		s.ring.add(string(line))
		s.sink.Stderr(line)
	}
	split := false // the last piece reported was cut at StderrChunk, mid-line
	for {
		chunk, err := br.ReadSlice('\n')
		switch {
		case err == nil:
			// A line that filled its last piece exactly leaves only its newline here.
			if !split || len(chunk) > 1 {
				report(chunk[:len(chunk)-1])
			}
			split = false
		case errors.Is(err, bufio.ErrBufferFull):
			report(chunk)
			split = true
		default:
			if len(chunk) > 0 {
				report(chunk)
			}
			s.streamEnd("stderr", err, &s.stderrHeld)
			return
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

// stderrRing keeps the last stderrKeep stderr lines. Only the stderr reader adds to it, and
// it is read once that reader has finished, so it needs no lock.
type stderrRing struct {
	buf  [stderrKeep]string
	next int
	n    int
}

func (r *stderrRing) add(line string) {
	r.buf[r.next] = line
	r.next = (r.next + 1) % stderrKeep
	if r.n < stderrKeep {
		r.n++
	}
}

// lines returns the kept lines, oldest first; nil when there were none.
func (r *stderrRing) lines() []string {
	if r.n == 0 {
		return nil
	}
	out := make([]string, 0, r.n)
	start := (r.next - r.n + stderrKeep) % stderrKeep
	for i := range r.n {
		out = append(out, r.buf[(start+i)%stderrKeep])
	}
	return out
}
