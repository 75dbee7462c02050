package traffic

import (
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/fault"
)

// A fault rule's doing is reported by a note (kind "fault") right after the frame it
// concerns: the frame mcpscope sent, the frame the tap recorded, or the frame delivered in
// the message's place. The note is a row of its own (a dropped message has no other); the
// history also marks the frame it concerns (Entry.Fault) and counts the faults per
// session for the status line.

// faultState is what the history keeps for faults.
type faultState struct {
	last   [3]*Entry // the last frame each way (by protocol.Direction), of session gen
	gen    int
	counts map[int]int    // faults per session
	held   map[int]*Entry // frames held now, by hold id, of session gen (history_hold.go)
}

// lastFrame remembers e, a frame of session gen.
func (f *faultState) lastFrame(gen int, e *Entry) {
	if gen != f.gen {
		f.last, f.gen, f.held = [3]*Entry{}, gen, nil
	}
	if d := e.Ev.Dir; int(d) < len(f.last) {
		f.last[d] = e
	}
}

// note counts a fault's note and marks the frame it concerns, which it returns to be
// drawn again. Bounded: Concerns compares at most 4 KiB.
func (f *faultState) note(gen int, ev *session.Event) []*Entry {
	if ev.Note == fault.HoldNoteKind {
		return f.holdNote(gen, ev)
	}
	if ev.Note != fault.NoteKind {
		return nil
	}
	if f.counts == nil {
		f.counts = map[int]int{}
	}
	f.counts[gen]++
	n, ok := fault.ParseNote(ev.Text)
	if !ok || gen != f.gen || int(n.Dir) >= len(f.last) {
		return nil
	}
	e := f.last[n.Dir]
	if e == nil || e.Fault != "" || !n.Concerns(e.Ev.Frame.Raw) {
		return nil
	}
	e.Fault = n.Summary
	return []*Entry{e}
}

// FaultsSince is how many faults the rules applied in the sessions from gen on.
func (h *History) FaultsSince(gen int) int {
	n := 0
	for g, c := range h.faults.counts {
		if g >= gen {
			n += c
		}
	}
	return n
}

// MadeByMcpscope reports a frame mcpscope made in the other side's place (a fault rule's
// answer).
func MadeByMcpscope(e *Entry) bool {
	return e.Ev != nil && e.Ev.Kind == session.EvFrame && e.Ev.Recv.Via == fault.ViaMcpscope
}
