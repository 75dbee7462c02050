package traffic

import (
	"fmt"
	"strings"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/fault"
)

// A breakpoint's hold is reported by notes (kind "hold"): one when a message is held,
// right after its frame when the frame was recorded as it came (what mcpscope or the host
// sent); one when the user decided, right after the frame delivered when only that one is
// recorded (what the session receives). The history marks the frame a decision concerns
// (Entry.Hold) and keeps the bytes delivered in its place when it was edited
// (Entry.Delivered), for the row and the detail.

// maxHeldEntries bounds the held frames the history remembers (as the breakpoints bound
// what they hold).
const maxHeldEntries = 1024

// holdNote marks the frame a hold note concerns; it returns the entry to draw again.
// Bounded: Concerns compares at most 4 KiB.
func (f *faultState) holdNote(gen int, ev *session.Event) []*Entry {
	var id int
	if _, err := fmt.Sscanf(ev.Text, "held #%d ", &id); err != nil || gen != f.gen {
		return nil
	}
	n, ok := fault.ParseNote(ev.Text)
	if !ok || int(n.Dir) >= len(f.last) {
		return nil
	}
	if strings.HasPrefix(n.Summary, fmt.Sprintf("held #%d by ", id)) {
		if e := f.last[n.Dir]; e != nil && n.Concerns(e.Ev.Frame.Raw) {
			if f.held == nil {
				f.held = map[int]*Entry{}
			}
			if len(f.held) < maxHeldEntries {
				f.held[id] = e
			}
		}
		return nil
	}
	e, ok := f.held[id]
	delete(f.held, id)
	if !ok {
		e = f.last[n.Dir]
		if e == nil || !n.Concerns(e.Ev.Frame.Raw) {
			return nil
		}
	}
	e.Hold = n.Summary
	if strings.Contains(n.Summary, ", edited") && len(n.Delivered) > 0 {
		e.HeldOriginal, e.Delivered = n.Original, n.Delivered[0]
	}
	return []*Entry{e}
}
