package fault

import (
	"time"

	"github.com/mcpscope/mcpscope/protocol"
)

// Control is what the view asks of breakpoints: the set on this process's own sessions
// (*Breakpoints), or a tap's, through its viewer socket (recordings.TapBreakpoints). Add,
// Enable, Remove, List and Held do no I/O; Decide and ContinueAll send on the wire, so they
// are called off the view's loop.
type Control interface {
	Add(q string) (Breakpoint, error)
	Enable(id int, on bool)
	Remove(id int)
	List() []Breakpoint
	Held() []Held
	Decide(id int, d Decision) error
	ContinueAll() error
}

var _ Control = (*Breakpoints)(nil)

// SetBreakpoints puts bps on the engine: judged before the rules, as WrapBreaking does for
// a session's wire. Call it before the engine judges its first message.
func (e *Engine) SetBreakpoints(bps *Breakpoints) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.breaks = bps
}

// Active reports whether the engine has anything to judge: rules, or an enabled
// breakpoint. A message passed while it has not is passed as it came.
func (e *Engine) Active() bool { return e.busy() }

// Hold holds raw, going dir, which the breakpoint v.Hold matched (Judge said so), for
// owner: release does what the user decides (called by Decide, off the caller's
// goroutine). note is given the notes (kind HoldNoteKind) of the hold and of the decision.
// Hold reports false, holding nothing, when the bounds are reached: a note says so, and
// the caller passes the message on. lines: the wire ends a frame at a newline (stdio), so
// an edit's line breaks are sent as spaces (Held.LineFramed).
func (e *Engine) Hold(dir protocol.Direction, raw []byte, v Verdict, lines bool, owner any, note func(text string), release func(Decision) error) bool {
	f := protocol.Decode(raw)
	h := &Held{Dir: dir, Raw: clone(raw), Since: time.Now(), Point: v.Hold,
		Request: f.Kind == protocol.KindRequest && !f.ID.IsZero(), Kind: f.Kind, Method: v.HoldMethod, MsgID: f.ID,
		LineFramed: lines}
	held := e.breaks.hold(h, owner, func(d Decision) error {
		err := release(d)
		note(decided(h, d, err))
		return err
	})
	if held == nil {
		note(notHeld(v.Hold))
		return false
	}
	note(holding(h))
	return true
}

// Set replaces the breakpoints with list (their ids, queries and states as given): how a
// tap takes its viewer's. A query not understood is refused, and nothing changes.
func (b *Breakpoints) Set(list []Breakpoint) error {
	points := make([]Breakpoint, 0, len(list))
	for _, p := range list {
		q, err := parseBreak(p.Query)
		if err != nil {
			return err
		}
		p.match = q
		points = append(points, p)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.points = points
	for _, p := range points {
		b.nextBP = max(b.nextBP, p.ID)
	}
	b.refresh()
	return nil
}

// Forget lets go, undecided, the messages owner holds (its stream ended).
func (b *Breakpoints) Forget(owner any) { b.forget(owner) }
