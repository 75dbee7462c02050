package sessiontest

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
)

// Recorder collects every event of a session in the background, from the moment it was
// made until the session closes, so a test can wait for an event and inspect the timeline
// afterwards.
type Recorder struct {
	sub  *session.Subscription
	done chan struct{}

	mu      sync.Mutex
	events  []*session.Event
	changed chan struct{} // closed and replaced whenever events grows
}

// Record subscribes to s; make it before Connect to see the handshake. The recorder stops
// when the session closes (or when the test ends).
func Record(t testing.TB, s *session.Session) *Recorder {
	t.Helper()
	r := &Recorder{sub: s.Subscribe(0), done: make(chan struct{}), changed: make(chan struct{})}
	go r.run()
	t.Cleanup(func() {
		_ = s.Close()
		select {
		case <-r.done:
		case <-time.After(30 * time.Second):
			t.Errorf("sessiontest: the event stream did not end within 30s of Close")
			r.sub.Close()
		}
	})
	return r
}

func (r *Recorder) run() {
	defer close(r.done)
	for {
		evs, ok := r.sub.Next(context.Background(), 0)
		if !ok {
			return
		}
		r.mu.Lock()
		r.events = append(r.events, evs...)
		close(r.changed)
		r.changed = make(chan struct{})
		r.mu.Unlock()
	}
}

// Events returns the events recorded so far, in order.
func (r *Recorder) Events() []*session.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*session.Event(nil), r.events...)
}

// Wait waits until the session has closed and every event was recorded, or the timeout
// passes; it reports whether the stream ended.
func (r *Recorder) Wait(timeout time.Duration) bool {
	select {
	case <-r.done:
		return true
	case <-time.After(timeout):
		return false
	}
}

// Find returns the first recorded event for which match is true, or nil.
func (r *Recorder) Find(match func(*session.Event) bool) *session.Event {
	for _, e := range r.Events() {
		if match(e) {
			return e
		}
	}
	return nil
}

// FindAll returns every recorded event for which match is true.
func (r *Recorder) FindAll(match func(*session.Event) bool) []*session.Event {
	var out []*session.Event
	for _, e := range r.Events() {
		if match(e) {
			out = append(out, e)
		}
	}
	return out
}

// WaitFor waits until an event for which match is true has been recorded, and returns the
// first such event. It fails the test (naming what) when none arrives within timeout.
func (r *Recorder) WaitFor(t testing.TB, timeout time.Duration, what string, match func(*session.Event) bool) *session.Event {
	t.Helper()
	if e := r.Poll(timeout, match); e != nil {
		return e
	}
	t.Fatalf("no %s within %s; the timeline:\n%s", what, timeout, r.Timeline())
	return nil
}

// Poll is WaitFor without a test: it returns nil when no event matches within timeout.
func (r *Recorder) Poll(timeout time.Duration, match func(*session.Event) bool) *session.Event {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	seen := 0
	for {
		r.mu.Lock()
		evs := r.events[seen:]
		changed := r.changed
		seen = len(r.events)
		r.mu.Unlock()
		for _, e := range evs {
			if match(e) {
				return e
			}
		}
		select {
		case <-changed:
		case <-r.done:
			r.mu.Lock()
			rest := r.events[seen:]
			r.mu.Unlock()
			for _, e := range rest {
				if match(e) {
					return e
				}
			}
			return nil
		case <-deadline.C:
			return nil
		}
	}
}

// Reached waits until the event with Seq seq (a response's or request's event, say) has been
// recorded, so that everything published before it can be inspected; it fails the test when
// that takes longer than 10s.
func (r *Recorder) Reached(t testing.TB, seq uint64) {
	t.Helper()
	r.WaitFor(t, 10*time.Second, fmt.Sprintf("event %d", seq), func(e *session.Event) bool { return e.Seq >= seq })
}

// Timeline is the recorded events in one line each, for failure messages.
func (r *Recorder) Timeline() string {
	var b strings.Builder
	for _, e := range r.Events() {
		line := e.Summary()
		if len(line) > 300 {
			line = line[:300] + "…"
		}
		b.WriteString("  ")
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return b.String()
}

// Sent matches a frame mcpscope sent with this method ("" for any).
func Sent(method string) func(*session.Event) bool {
	return func(e *session.Event) bool {
		return e.Kind == session.EvFrame && e.Dir == protocol.ClientToServer && (method == "" || e.Frame.Method == method)
	}
}

// Received matches a frame from the server with this method ("" for any).
func Received(method string) func(*session.Event) bool {
	return func(e *session.Event) bool {
		return e.Kind == session.EvFrame && e.Dir == protocol.ServerToClient && (method == "" || e.Frame.Method == method)
	}
}

// HasFinding matches a frame that carries a finding with this code (on the frame or on one
// of its batch members).
func HasFinding(code string) func(*session.Event) bool {
	return func(e *session.Event) bool {
		if e.Kind != session.EvFrame {
			return false
		}
		for _, f := range session.AllFindings(e.Frame) {
			if f.Code == code {
				return true
			}
		}
		return false
	}
}

// Checked is a Recorder whose frames sent to the server are validated against the schema
// of the negotiated revision when the test ends.
type Checked struct {
	*Recorder
	mu     sync.Mutex
	exempt [][]byte
}

// Exempt excludes frames with exactly these bytes from the schema check: a test that sends
// something invalid on purpose (SendRaw) says so here.
func (c *Checked) Exempt(raw []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.exempt = append(c.exempt, bytes.Clone(raw))
}

func (c *Checked) isExempt(raw []byte) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, x := range c.exempt {
		if bytes.Equal(x, raw) {
			return true
		}
	}
	return false
}

// CheckSession records s (call it before Connect) and, when the test ends, closes the
// session and validates every frame mcpscope sent against the official schema of the
// negotiated revision (s.Info().Revision): requests against the ClientRequest member for
// their method, notifications against ClientNotification, responses to the server's
// requests against the result of the request they answer. A frame that names its own
// revision in _meta (the 2026-07-28 server/discover probe of an auto handshake that then
// fell back to initialize) is checked against that revision.
func CheckSession(t testing.TB, s *session.Session) *Checked {
	t.Helper()
	v := Schemas(t)
	c := &Checked{}
	t.Cleanup(func() {
		_ = s.Close()
		if !c.Wait(30 * time.Second) {
			t.Errorf("sessiontest: the event stream did not end within 30s of Close; checking what arrived")
		}
		c.validate(t, v, string(s.Info().Revision))
	})
	c.Recorder = Record(t, s) // its cleanup runs first and closes the session
	return c
}

func (c *Checked) validate(t testing.TB, v *SchemaValidator, negotiated string) {
	t.Helper()
	events := c.Events()
	bySeq := make(map[uint64]*session.Event, len(events))
	for _, e := range events {
		bySeq[e.Seq] = e
	}
	checked := 0
	for _, e := range events {
		if e.Kind != session.EvFrame || e.Dir != protocol.ClientToServer || c.isExempt(e.Frame.Raw) {
			continue
		}
		rev := frameRevision(e.Frame, negotiated)
		if rev == "" {
			t.Errorf("sessiontest: no revision was negotiated, and frame %d does not name one: %s", e.Seq, clip(e.Frame.Raw))
			continue
		}
		replyTo := ""
		if e.Frame.Kind.IsResponse() {
			if req := bySeq[e.Corr.RequestSeq]; req != nil && req.Frame != nil {
				replyTo = req.Frame.Method
			}
		}
		if err := v.CheckSent(rev, replyTo, e.Frame.Raw); err != nil {
			t.Errorf("frame %d sent by mcpscope is not valid: %v", e.Seq, err)
		}
		checked++
	}
	if checked == 0 {
		t.Errorf("sessiontest: CheckSession saw no frame sent to the server")
	}
}

// frameRevision is the revision a sent frame is checked against: the one in its own _meta
// when it names one, the version an initialize request offered (it may precede a switch to
// the other era: a cached era that no longer holds), else the negotiated one.
func frameRevision(f *protocol.Frame, negotiated string) string {
	if v := protocol.MetaOf(f.Params).String(protocol.MetaProtocolVersion); v != "" {
		return v
	}
	if v := session.HandshakeOffer(f.Method, f.Params); f.Method == "initialize" && v != "" {
		return string(v)
	}
	if negotiated != "" {
		return negotiated
	}
	return ""
}
