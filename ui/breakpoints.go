package ui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/fault"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// Breakpoints by hand. The view's sessions carry the user's breakpoints on their wire
// (Options.Breakpoints, fault.WrapBreaking); attached to a tap, the tap holds them
// (recordings.TapBreakpoints over its viewer socket): b sets one on the selected row's method (or
// tool), B lists them (any query can be added, enabled, disabled, removed). A message a
// breakpoint holds is announced by a note (kind "hold"); the model then shows the hold
// dialog, oldest first, until every held message is decided, and the status line counts
// them. The decisions (forward, edited or not; drop; answer) send on the wire, so they run
// in a command; the model changes when their holdDecidedMsg comes back.

// breakState is what the model knows of held messages: a copy of the breakpoints' list,
// taken when a hold note arrives or a decision returns.
type breakState struct {
	held []fault.Held
}

// holdDecidedMsg reports a decision on held message ID.
type holdDecidedMsg struct {
	ID   int
	What string
	Err  error
}

// decideCmd does d with held message id.
func decideCmd(bps fault.Control, id int, d fault.Decision, what string) tea.Cmd {
	return func() tea.Msg { return holdDecidedMsg{ID: id, What: what, Err: bps.Decide(id, d)} }
}

// continueAllCmd forwards every held message.
func continueAllCmd(bps fault.Control) tea.Cmd {
	return func() tea.Msg { return holdDecidedMsg{What: "all held messages forwarded", Err: bps.ContinueAll()} }
}

// breakpointFor is the query b sets for row e: its tool for a tools/call (or its answer),
// else its method; "" for a row that is not a frame with a method.
func breakpointFor(e *traffic.Entry) string {
	if e == nil || e.Ev == nil || e.Ev.Frame == nil {
		return ""
	}
	method := traffic.EntryMethod(e)
	if method == traffic.MethodToolsCall {
		if rf := traffic.TargetRequest(e); rf != nil {
			if name := traffic.RequestTarget(method, rf.Params); name != "" && queryWord(name) {
				return "tool:=" + name
			}
		}
	}
	if method == "" || !queryWord(method) {
		return ""
	}
	return "method:=" + method
}

// queryWord reports whether s can be written as one word of a query.
func queryWord(s string) bool {
	for _, r := range s {
		if r == ' ' || r == '\t' || r == '\n' || r == '\r' || r < 0x20 {
			return false
		}
	}
	return true
}

// setBreakpoint is b: a breakpoint on the selected row's method or tool.
func (m *Model) setBreakpoint(tea.KeyPressMsg) tea.Cmd {
	bps := m.opts.Breakpoints
	if bps == nil {
		return statusCmd("breakpoints need a session or a live tap (not a recording)", true)
	}
	q := breakpointFor(m.timeline.Selected())
	if q == "" {
		return statusCmd("select a request, response or notification to break on its method", false)
	}
	p, err := bps.Add(q)
	if err != nil {
		return statusCmd("breakpoint: "+err.Error(), true)
	}
	return statusCmd(fmt.Sprintf("breakpoint %d: %s holds matching messages either way (B lists them)", p.ID, p.Query), false)
}

// openBreakpoints is B: the breakpoint list.
func (m *Model) openBreakpoints(tea.KeyPressMsg) tea.Cmd {
	if m.opts.Breakpoints == nil {
		return statusCmd("breakpoints need a session or a live tap (not a recording)", true)
	}
	m.pushDialog(newBreakpointsDialog(m))
	return nil
}

// holdsObserve takes a batch of events: a hold note refreshes the held messages and shows
// the hold dialog.
func (m *Model) holdsObserve(evs []*session.Event) tea.Cmd {
	if m.opts.Breakpoints == nil {
		return nil
	}
	changed := false
	for _, ev := range evs {
		changed = changed || ev.Kind == session.EvTransport && ev.Note == fault.HoldNoteKind
	}
	if !changed {
		return nil
	}
	return m.holdsChanged()
}

// holdsChanged refreshes the held messages: the hold dialog opens when some are held and
// closes when none are; the clock ticks meanwhile (the dialog shows how long).
func (m *Model) holdsChanged() tea.Cmd {
	m.brk.held = m.opts.Breakpoints.Held()
	d := dialogOf[*holdDialog](m)
	switch {
	case len(m.brk.held) == 0 && d != nil:
		m.closeDialog(d)
	case len(m.brk.held) > 0 && d == nil:
		d = &holdDialog{}
		m.pushDialog(d)
		d.sync(m)
	case d != nil:
		d.sync(m)
	}
	if len(m.brk.held) > 0 && !m.ticking {
		m.ticking = true
		return tickCmd()
	}
	return nil
}

// heldText is the status line's count of held messages ("" when none).
func (m *Model) heldText() string {
	if len(m.brk.held) == 0 {
		return ""
	}
	return fmt.Sprintf("%d held", len(m.brk.held))
}

// answerError is the error x answers a held request with.
func answerError(h fault.Held) []byte {
	b, _ := protocol.EncodeError(h.MsgID, -32603, "answered by mcpscope at a breakpoint", nil)
	return b
}

// answerResult is the result the answer editor starts from, valid as it is: for a
// tools/call, one empty text block (a tool's result must carry content), else an empty
// object; with resultType "complete" where revision rev requires one (stateless).
func answerResult(h fault.Held, rev protocol.Revision) []byte {
	result := map[string]any{}
	if h.Method == "tools/call" {
		result["content"] = []any{map[string]any{"type": "text", "text": ""}}
	}
	if rev.Stateless() && h.Dir == protocol.ClientToServer {
		result["resultType"] = "complete"
	}
	b, _ := protocol.EncodeResult(h.MsgID, result)
	return b
}
