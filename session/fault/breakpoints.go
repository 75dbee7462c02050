package fault

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/protocol/query"
)

// Breakpoints are the user's breakpoints: queries of the timeline's language. A message
// on the wire (either direction) that an enabled breakpoint matches is held, not passed
// on, until the user decides what becomes of it (Decide): passed on as it is or edited,
// dropped, or answered in the other side's place. The real timeouts of either side keep
// running meanwhile. One Breakpoints serves every session the view makes; the transports
// wrapped with it (WrapBreaking) hold their messages here.
type Breakpoints struct {
	mu     sync.Mutex
	points []Breakpoint
	held   []*Held
	nextBP int
	nextH  int
	on     bool // some breakpoint is enabled
}

// Breakpoint is one breakpoint.
type Breakpoint struct {
	ID      int
	Query   string
	Enabled bool
	match   query.Query
}

// Held is a message a breakpoint holds.
type Held struct {
	ID    int
	Dir   protocol.Direction
	Raw   []byte
	Since time.Time
	Point string // the query of the breakpoint that held it
	// Request: the message is a request, which an answer can be made for.
	Request bool
	// What the message is, read when it was held: its kind, its method (a response: its
	// request's) and its JSON-RPC id.
	Kind   protocol.Kind
	Method string
	MsgID  protocol.ID
	// LineFramed: the wire ends a frame at a newline (stdio); an edit's line breaks
	// cannot go inside it (frame.go).
	LineFramed bool
	release    func(Decision) error
	owner      any // the transport that holds it
}

// Verb is what becomes of a held message.
type Verb int

// The verbs.
const (
	Forward Verb = iota // pass it on: Raw when set (edited), else as it came
	DropIt              // never pass it on
	Answer              // answer the sender in the other side's place with Raw (a request only)
)

// Decision is the user's word on a held message.
type Decision struct {
	Verb Verb
	Raw  []byte

	spaced bool      // Raw's line breaks were made spaces to keep it one frame (frame.go)
	at     time.Time // when it was decided: how long a message was held ends here, not after a rule's delay
}

// ErrNotHeld is Decide's error for a message no longer held (decided already, or its
// session ended).
var ErrNotHeld = errors.New("that message is no longer held")

// NewBreakpoints makes an empty set.
func NewBreakpoints() *Breakpoints { return &Breakpoints{} }

// Add adds an enabled breakpoint on query q; a query not understood is refused with the
// column of the trouble.
func (b *Breakpoints) Add(q string) (Breakpoint, error) {
	pq, err := parseBreak(q)
	if err != nil {
		return Breakpoint{}, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.nextBP++
	p := Breakpoint{ID: b.nextBP, Query: q, Enabled: true, match: pq}
	b.points = append(b.points, p)
	b.on = true
	return p, nil
}

// parseBreak reads a breakpoint's query; the empty query is refused.
func parseBreak(q string) (query.Query, error) {
	pq, err := query.Strict(q)
	if err != nil {
		return pq, err
	}
	if pq.Empty() {
		return pq, errors.New("an empty query would hold every message: give a method, a tool, or any term")
	}
	return pq, nil
}

// Enable turns breakpoint id on or off.
func (b *Breakpoints) Enable(id int, on bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i := range b.points {
		if b.points[i].ID == id {
			b.points[i].Enabled = on
		}
	}
	b.refresh()
}

// Remove removes breakpoint id.
func (b *Breakpoints) Remove(id int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i := range b.points {
		if b.points[i].ID == id {
			b.points = append(b.points[:i], b.points[i+1:]...)
			break
		}
	}
	b.refresh()
}

func (b *Breakpoints) refresh() {
	b.on = false
	for _, p := range b.points {
		b.on = b.on || p.Enabled
	}
}

// List is the breakpoints, in the order they were added.
func (b *Breakpoints) List() []Breakpoint {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]Breakpoint(nil), b.points...)
}

// Held is the messages held now, oldest first.
func (b *Breakpoints) Held() []Held {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]Held, len(b.held))
	for i, h := range b.held {
		out[i] = *h
	}
	return out
}

// active reports whether some breakpoint is enabled.
func (b *Breakpoints) active() bool {
	if b == nil {
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.on
}

// matching is the query of the first enabled breakpoint that matches s, or "".
func (b *Breakpoints) matching(s query.Subject) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, p := range b.points {
		if p.Enabled && p.match.Match(s) {
			return p.Query
		}
	}
	return ""
}

// Bounds of what breakpoints hold at once: past either, a matching message passes on (a
// note says so) rather than the view holding a flood.
const (
	maxHeld      = 1024
	maxHeldBytes = 64 << 20
)

// hold keeps h until Decide; release does what the decision says. It returns nil, and
// keeps nothing, when the bounds are reached.
func (b *Breakpoints) hold(h *Held, owner any, release func(Decision) error) *Held {
	b.mu.Lock()
	defer b.mu.Unlock()
	size := len(h.Raw)
	for _, x := range b.held {
		size += len(x.Raw)
	}
	if len(b.held) >= maxHeld || size > maxHeldBytes {
		return nil
	}
	b.nextH++
	h.ID, h.release, h.owner = b.nextH, release, owner
	b.held = append(b.held, h)
	return h
}

// Decide does what d says with held message id: it is no longer held after. The sending
// is done here, so call it off the UI's loop.
func (b *Breakpoints) Decide(id int, d Decision) error {
	b.mu.Lock()
	var h *Held
	for i, x := range b.held {
		if x.ID != id {
			continue
		}
		if d.Verb == Answer && !x.Request {
			b.mu.Unlock()
			return fmt.Errorf("only a request can be answered; it is still held")
		}
		h = x
		b.held = append(b.held[:i], b.held[i+1:]...)
		break
	}
	b.mu.Unlock()
	if h == nil {
		return ErrNotHeld
	}
	d = h.framed(d)
	d.at = time.Now()
	return h.release(d)
}

// ContinueAll passes every held message on as it came; the errors of those that could
// not be are joined.
func (b *Breakpoints) ContinueAll() error {
	var errs []error
	for _, h := range b.Held() {
		if err := b.Decide(h.ID, Decision{Verb: Forward}); err != nil && !errors.Is(err, ErrNotHeld) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// forget lets go of the messages release belongs to (their session ended): nothing is
// held for a session that is gone.
func (b *Breakpoints) forget(owner any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	kept := b.held[:0]
	for _, h := range b.held {
		if h.owner != owner {
			kept = append(kept, h)
		}
	}
	b.held = kept
}
