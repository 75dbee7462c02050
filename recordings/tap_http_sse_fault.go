package recordings

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session/fault"
	"github.com/mcpscope/mcpscope/session/transport/sse"
)

// sseFaults is an event stream on its way to the host through the fault rules: the
// stream is cut into event blocks (each ends with its blank line), and each block that
// carries a message is judged. A block no rule acts on is passed on as its exact bytes;
// a block longer than MaxFrame, and bytes after the last blank line, pass unjudged.
type sseFaults struct {
	f       *httpFaults
	ctx     context.Context
	hostReq *http.Request // the request that opened the stream (an answer to the server goes like it)
	rc      io.ReadCloser

	in        []byte     // read, not yet cut into blocks
	out       []sseChunk // ready for the host
	passing   bool       // inside a block longer than MaxFrame
	lineStart bool       // the last byte passed on while passing ended a line
	err       error      // the upstream's end

	chunks    chan sseRead  // what the upstream reader read
	wake      chan struct{} // a held block was let go
	done      chan struct{} // closed by Close: the upstream reader stops
	startOnce sync.Once
	closeOnce sync.Once

	mu       sync.Mutex
	released [][]byte // held blocks let go, to be passed on next
	holding  int      // blocks held by a breakpoint or a reorder rule, not yet let go
}

// sseRead is one read of the upstream body.
type sseRead struct {
	b   []byte
	err error
}

// sseChunk is bytes for the host, at rate bytes a second when rate is set; cut ends the
// stream there instead.
type sseChunk struct {
	b    []byte
	rate int64
	cut  bool
}

func (f *httpFaults) sse(hostReq *http.Request, rc io.ReadCloser) io.ReadCloser {
	return &sseFaults{f: f, ctx: hostReq.Context(), hostReq: hostReq, rc: rc,
		chunks: make(chan sseRead), wake: make(chan struct{}, 1), done: make(chan struct{})}
}

// readUpstream reads the upstream body in its own goroutine, so that a held block let go
// reaches the host while the server sends nothing.
func (s *sseFaults) readUpstream() {
	for {
		buf := make([]byte, 32<<10)
		n, err := s.rc.Read(buf)
		select {
		case s.chunks <- sseRead{buf[:n], err}:
		case <-s.done:
			return
		}
		if err != nil {
			return
		}
	}
}

// let lets a held block go: it is passed on next.
func (s *sseFaults) let(b []byte) {
	s.mu.Lock()
	if b != nil {
		s.released = append(s.released, b)
	}
	s.holding--
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func (s *sseFaults) Read(p []byte) (int, error) {
	s.startOnce.Do(func() { go s.readUpstream() })
	for {
		s.mu.Lock()
		for _, b := range s.released {
			s.out = append(s.out, sseChunk{b: b})
		}
		s.released = nil
		holding := s.holding
		s.mu.Unlock()
		if len(s.out) > 0 {
			break
		}
		chunks := s.chunks
		if s.err != nil {
			if holding == 0 {
				return 0, s.err
			}
			chunks = nil // the stream ends once what it holds is let go
		}
		select {
		case c := <-chunks:
			s.in = append(s.in, c.b...)
			s.split(c.err != nil)
			if c.err != nil {
				if len(s.in) > 0 { // an unfinished block: as it came
					s.out = append(s.out, sseChunk{b: s.in})
					s.in = nil
				}
				s.err = c.err
			}
		case <-s.wake:
		case <-s.ctx.Done():
			return 0, s.ctx.Err()
		}
	}
	c := &s.out[0]
	if c.cut {
		s.out = nil
		s.err = errDisconnected
		return 0, errDisconnected
	}
	b := c.b
	if c.rate > 0 {
		b = b[:min(len(b), int(max(1, c.rate/20)))]
	}
	n := copy(p, b)
	c.b = c.b[n:]
	if len(c.b) == 0 {
		s.out = s.out[1:]
	}
	if c.rate > 0 {
		if err := fault.Sleep(s.ctx, time.Duration(float64(n)/float64(c.rate)*float64(time.Second))); err != nil {
			return n, err
		}
	}
	return n, nil
}

func (s *sseFaults) Close() error {
	s.closeOnce.Do(func() { close(s.done) })
	return s.rc.Close()
}

// split cuts the complete blocks off s.in and judges them.
func (s *sseFaults) split(atEOF bool) {
	max := int(s.f.p.t.cfg.MaxFrame)
	for len(s.in) > 0 {
		if s.passing {
			end := blockEnd(s.in, atEOF, s.lineStart)
			if end < 0 {
				s.out = append(s.out, sseChunk{b: s.in})
				s.lineStart = endsLine(s.in)
				s.in = nil
				return
			}
			s.out = append(s.out, sseChunk{b: s.in[:end]})
			s.in, s.passing = s.in[end:], false
			continue
		}
		end := blockEnd(s.in, atEOF, true)
		if end < 0 {
			if len(s.in) > max {
				s.passing = true
				s.out = append(s.out, sseChunk{b: s.in})
				s.lineStart = endsLine(s.in)
				s.in = nil
			}
			return
		}
		block := bytes.Clone(s.in[:end])
		s.in = s.in[end:]
		s.block(block)
	}
	if len(s.in) == 0 {
		s.in = nil
	}
}

// block judges one event block and queues what the verdict says for the host.
func (s *sseFaults) block(block []byte) {
	ev, err := sse.NewParser(bytes.NewReader(block), len(block)+1).Next()
	if err != nil || !ev.HasData || ev.Data == "" || ev.Type == "endpoint" {
		s.out = append(s.out, sseChunk{b: block})
		return
	}
	msg := []byte(ev.Data)
	if !s.f.eng.Active() {
		s.out = append(s.out, sseChunk{b: block})
		return
	}
	v := s.f.eng.Judge(protocol.ServerToClient, msg, time.Now())
	if v.Hold != "" {
		s.hold(block, msg, v)
		return
	}
	if v.Applied == nil {
		s.out = append(s.out, sseChunk{b: block})
		s.f.release(v.Deliver[1:])
		return
	}
	a := v.Applied
	s.f.p.t.faultReport(a)
	if a.Held {
		s.mu.Lock()
		s.holding++
		s.mu.Unlock()
		s.f.hold(msg, func() { s.let(block) })
		return
	}
	if fault.Sleep(s.ctx, v.Wait) != nil {
		return
	}
	if v.Answer != nil {
		go s.f.answerServer(s.hostReq, v.Answer)
	}
	for _, d := range v.Deliver {
		out := block // the message itself (delay, throttle, duplicate): its exact bytes
		if !bytes.Equal(d, msg) {
			out = withData(block, d)
		}
		s.out = append(s.out, sseChunk{b: out, rate: v.Rate})
	}
	if v.Disconnect {
		s.out = append(s.out, sseChunk{cut: true})
	}
}

// hold holds an event a breakpoint matched, without holding the stream: the user's
// decision passes it on (edited or not) or answers the server; past the bounds it passes.
func (s *sseFaults) hold(block, msg []byte, v fault.Verdict) {
	s.mu.Lock()
	s.holding++
	s.mu.Unlock()
	held := s.f.eng.Hold(protocol.ServerToClient, msg, v, false, s.f, s.f.holdNote, func(d fault.Decision) error {
		switch d.Verb {
		case fault.Forward:
			b, m := block, msg
			if d.Raw != nil {
				b, m = withData(block, d.Raw), d.Raw
			}
			s.let(s.judged(b, m))
		case fault.Answer:
			s.let(nil)
			go s.f.answerServer(s.hostReq, d.Raw)
		default:
			s.let(nil)
		}
		return nil
	})
	if !held {
		s.let(block)
	}
}

// judged is what a held event, forwarded as block (its message m), becomes under the
// rules, judged as the bytes delivered: nil when nothing goes on now (dropped, reordered,
// or the connection cut, which a released event cannot do here: it is dropped instead).
func (s *sseFaults) judged(block, m []byte) []byte {
	v := s.f.eng.JudgeRules(protocol.ServerToClient, m, time.Now())
	if v.Applied == nil {
		s.f.release(v.Deliver[1:])
		return block
	}
	s.f.p.t.faultReport(v.Applied)
	if v.Applied.Held {
		s.mu.Lock()
		s.holding++
		s.mu.Unlock()
		s.f.hold(m, func() { s.let(block) })
		return nil
	}
	if fault.Sleep(s.ctx, v.Wait) != nil {
		return nil
	}
	if v.Answer != nil {
		go s.f.answerServer(s.hostReq, v.Answer)
	}
	var out []byte
	for _, d := range v.Deliver {
		if bytes.Equal(d, m) {
			out = append(out, block...)
		} else {
			out = append(out, withData(block, d)...)
		}
	}
	return out
}

// withData is the event block with its data replaced by d: its other lines (id, event,
// retry, comments) kept in their order, the data lines where the first one was, every
// line ended with LF.
func withData(block, d []byte) []byte {
	var out []byte
	wrote := false
	for _, line := range sseLines(block) {
		name, _, _ := bytes.Cut(line, []byte(":"))
		if string(name) != "data" {
			out = append(append(out, line...), '\n')
			continue
		}
		if wrote {
			continue
		}
		wrote = true
		for _, l := range bytes.Split(d, []byte("\n")) {
			out = append(append(append(out, "data: "...), bytes.TrimSuffix(l, []byte("\r"))...), '\n')
		}
	}
	return append(out, '\n')
}

// sseLines are the non-empty lines of an event block, without their line ends (CR, LF or
// CRLF).
func sseLines(block []byte) [][]byte {
	var out [][]byte
	for len(block) > 0 {
		i := bytes.IndexAny(block, "\r\n")
		if i < 0 {
			out = append(out, block)
			break
		}
		if i > 0 {
			out = append(out, block[:i])
		}
		n := i + 1
		if block[i] == '\r' && n < len(block) && block[n] == '\n' {
			n++
		}
		block = block[n:]
	}
	return out
}

// blockEnd is the end of the first complete event block of b (just after the blank line
// that ends it), or -1. lineStart says whether b starts a line. A CR at the end of b ends
// a line only atEOF (else an LF may follow it).
func blockEnd(b []byte, atEOF, lineStart bool) int {
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c != '\r' && c != '\n' {
			lineStart = false
			continue
		}
		end := i + 1
		if c == '\r' {
			if end == len(b) && !atEOF {
				return -1
			}
			if end < len(b) && b[end] == '\n' {
				end++
			}
		}
		if lineStart {
			return end
		}
		lineStart = true
		i = end - 1
	}
	return -1
}

// endsLine reports whether b ends with a line end.
func endsLine(b []byte) bool {
	return len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r')
}
