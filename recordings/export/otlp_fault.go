package export

import (
	"strings"

	"github.com/mcpscope/mcpscope/session/fault"
)

// A fault a rule applied is an event "mcpscope.fault" on the session's span and, when the
// frame it concerns is a request still awaiting its answer, on that request's span too; an
// answer mcpscope made in the server's place marks the span it ends
// (mcpscope.fault.made_by_mcpscope).

// faultState is what Spans keeps for faults: the last frame each way.
type faultState struct {
	last map[harDir]*Event
}

// frame remembers e, a frame.
func (f *faultState) frame(e *Event) {
	if f.last == nil {
		f.last = map[harDir]*Event{}
	}
	f.last[harDir{e.Gen, e.Out()}] = e
}

// fault adds the event of a fault's note e.
func (s *Spans) fault(st *spanSession, e *Event) {
	summary, _, _ := strings.Cut(e.Text, "\n")
	ev := []kv{strAttr("mcpscope.fault", summary), strAttr("mcpscope.fault.detail", e.Text)}
	st.root.addEvent("mcpscope.fault", e.Time, ev...)
	n, ok := fault.ParseNote(e.Text)
	if !ok {
		return
	}
	f := s.faults.last[harDir{e.Gen, n.Dir.String() == "out"}]
	if f == nil || !n.Concerns(f.Raw()) {
		return
	}
	if p := s.pending[key{f.Gen, f.Seq}]; p != nil {
		p.span.addEvent("mcpscope.fault", e.Time, ev...)
	} else if p := s.pending[key{f.Gen, f.Request}]; p != nil && f.Request != 0 {
		p.span.addEvent("mcpscope.fault", e.Time, ev...)
	}
}
