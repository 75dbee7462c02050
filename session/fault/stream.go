package fault

import (
	"bytes"
	"io"
	"sync"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
)

// Stream passes one direction of a stdio conversation (lines of JSON) through an engine:
// it is the io.Writer the bytes are copied to. A line no rule acts on is written with its
// exact bytes, terminator included; a line longer than Max and blank lines pass as they
// come, unjudged. Until a line's newline arrives nothing of it is written.
type Stream struct {
	Engine *Engine
	Dir    protocol.Direction
	Out    io.Writer // where the messages go
	Back   io.Writer // where an answer made by mcpscope goes (to the sender); nil: none is sent
	// Disconnect closes the stream the way the transport allows (the server's stdin; the
	// host's stdout); after it every byte is swallowed.
	Disconnect func()
	Report     func(*Applied) // each fault applied, before its bytes are written
	Max        int            // the longest line judged; 0: 64 MiB
	// Note takes the notes of held messages (kind HoldNoteKind, stream_hold.go); nil:
	// breakpoints hold nothing on this stream.
	Note func(kind, text string)
	// Made takes an answer made at a breakpoint, before it is written to Back.
	Made func(raw []byte)

	buf     []byte
	passing bool // inside a line longer than Max
	closed  bool
}

// Write takes the next bytes of the stream.
func (s *Stream) Write(p []byte) (int, error) {
	n := len(p)
	max := s.Max
	if max <= 0 {
		max = 64 << 20
	}
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if !s.passing && !s.closed && len(s.buf) == 0 && !s.Engine.Active() {
			// No rule and no breakpoint: the bytes go on as they come, and an unfinished
			// last line passes unjudged.
			if _, err := s.Out.Write(p); err != nil {
				return n, err
			}
			s.passing = p[len(p)-1] != '\n'
			return n, nil
		}
		if s.passing || s.closed {
			end := len(p)
			if i >= 0 {
				end = i + 1
				s.passing = false
			}
			if !s.closed {
				if _, err := s.Out.Write(p[:end]); err != nil {
					return n, err
				}
			}
			p = p[end:]
			continue
		}
		if i < 0 {
			s.buf = append(s.buf, p...)
			if len(s.buf) > max {
				s.passing = true
				_, err := s.Out.Write(s.buf)
				s.buf = s.buf[:0]
				if err != nil {
					return n, err
				}
			}
			return n, nil
		}
		s.buf = append(s.buf, p[:i+1]...)
		p = p[i+1:]
		line := s.buf
		s.buf = nil
		if err := s.line(line); err != nil {
			return n, err
		}
	}
	return n, nil
}

// End is the end of the input: an unterminated last line is judged as it is, and the
// messages reorder still holds are written.
func (s *Stream) End() error {
	if len(s.buf) > 0 && !s.closed {
		line := s.buf
		s.buf = nil
		if err := s.line(line); err != nil {
			return err
		}
	}
	if s.closed {
		return nil
	}
	for _, h := range s.Engine.Release(s.Dir) {
		if _, err := s.Out.Write(append(h, '\n')); err != nil {
			return err
		}
	}
	return nil
}

// line judges one line (with its terminator, if any) and writes what the verdict says.
func (s *Stream) line(line []byte) error {
	body := bytes.TrimRight(line, "\r\n")
	term := line[len(body):]
	if len(bytes.TrimSpace(body)) == 0 {
		_, err := s.Out.Write(line)
		return err
	}
	v := s.Engine.Judge(s.Dir, body, time.Now())
	if v.Hold != "" {
		return s.hold(line, body, term, v)
	}
	return s.apply(line, term, v)
}

// apply writes what verdict v says of line (with its terminator term).
func (s *Stream) apply(line, term []byte, v Verdict) error {
	if v.Applied == nil {
		if len(v.Deliver) == 1 {
			_, err := s.Out.Write(line) // the exact bytes
			return err
		}
		// A held message released after this one.
		for _, d := range v.Deliver {
			if _, err := s.Out.Write(withTerm(d, term)); err != nil {
				return err
			}
		}
		return nil
	}
	if s.Report != nil {
		s.Report(v.Applied)
	}
	if v.Wait > 0 {
		time.Sleep(v.Wait)
	}
	if v.Answer != nil && s.Back != nil {
		if _, err := s.Back.Write(append(clone(v.Answer), '\n')); err != nil {
			return err
		}
	}
	for _, d := range v.Deliver {
		if err := s.write(withTerm(d, term), v.Rate); err != nil {
			return err
		}
	}
	if v.Disconnect {
		s.closed = true
		if s.Disconnect != nil {
			s.Disconnect()
		}
	}
	return nil
}

// write writes b, at rate bytes a second when rate is set (in pieces every 50 ms).
func (s *Stream) write(b []byte, rate int64) error {
	if rate <= 0 {
		_, err := s.Out.Write(b)
		return err
	}
	piece := int(max(1, rate/20))
	for len(b) > 0 {
		n := min(piece, len(b))
		if _, err := s.Out.Write(b[:n]); err != nil {
			return err
		}
		b = b[n:]
		if len(b) > 0 {
			time.Sleep(time.Duration(float64(n) / float64(rate) * float64(time.Second)))
		}
	}
	return nil
}

// withTerm is b followed by the line terminator term ("\n" when the line had none: a
// message passed on must end its line).
func withTerm(b, term []byte) []byte {
	if len(term) == 0 {
		term = []byte("\n")
	}
	return append(clone(b), term...)
}

// Locked is a writer two streams share (the host's stdout gets the server's messages and
// the answers mcpscope makes to the host's requests): one Write at a time.
type Locked struct {
	mu sync.Mutex
	W  io.Writer
}

// Write writes p whole before another Write starts.
func (l *Locked) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.W.Write(p)
}
