package recordings

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session/fault"
)

// The tap's control channel is its viewer socket, read the other way: a viewer writes
// one JSON object a line (controlLine) to set the tap's breakpoints and to decide what
// becomes of the messages they hold. The first viewer that writes one controls the tap's
// breakpoints until it goes away; another viewer's lines are ignored meanwhile (a note
// says so, once). The tap
// answers in the event stream: every hold note (kind "hold") carries what changed in the
// messages held (holdsLine: those added, with their bytes, and the ids gone), and a viewer
// is sent the whole list after its backlog and after any gap in its lines, so it knows what
// is held before it shows the note.
// When the controlling viewer goes away, its breakpoints are removed and every held
// message is forwarded as it came; a hold note says so in the recording.

// maxControlLine bounds one line a viewer writes: an edited message of up to 64 MiB,
// escaped as a JSON string, and its envelope.
const maxControlLine = 2*(64<<20) + 4096

// controlLine is one line a viewer writes on its tap's socket.
type controlLine struct {
	// Op is "breakpoints" (Points replace the tap's), "decide" (held message ID: Verb
	// with Raw), or "continue" (forward every held message).
	Op     string         `json:"op"`
	Points []controlPoint `json:"points,omitempty"`
	ID     int            `json:"id,omitempty"`
	Verb   string         `json:"verb,omitempty"` // forward, drop, answer
	// Raw is, for forward, the edited bytes (none: as it came); for answer, the answer.
	Raw *string `json:"raw,omitempty"`
}

// controlPoint is one breakpoint as a viewer sends it.
type controlPoint struct {
	ID      int    `json:"id"`
	Query   string `json:"query"`
	Enabled bool   `json:"enabled"`
}

// holdsLine is what a hold note tells the viewers of the held messages: the change since
// the tap's previous hold note (Added with their bytes, Gone by id) and Count, how many
// are held after it. A line with Full (sent to a viewer after its backlog and after a gap
// in its lines) lists every held message in Held instead. Deltas keep a note's size to
// the message it is about: with a thousand messages held, a note that listed them all
// would send each viewer the whole list again on every hold and decision.
type holdsLine struct {
	Full  bool       `json:"full,omitempty"`
	Held  []heldLine `json:"held,omitempty"`
	Added []heldLine `json:"added,omitempty"`
	Gone  []int      `json:"gone,omitempty"`
	Count int        `json:"count"`
}

// heldLine is one held message as viewers learn of it.
type heldLine struct {
	ID     int       `json:"id"`
	Dir    string    `json:"dir"` // "out" (host to server) or "in"
	Raw    string    `json:"raw"`
	Since  time.Time `json:"since"`
	Point  string    `json:"point"`
	Method string    `json:"method,omitempty"`
	Lines  bool      `json:"lines,omitempty"` // stdio: an edit's line breaks go as spaces
}

// holdsDelta is what changed in the tap's held messages since the last hold note, and it
// makes the current list the one announced (t.holdsMu held). The list is kept whole for
// a viewer that joins now or lost lines (holdsSnapshot), encoded only when one does.
func (t *Tap) holdsDelta() *holdsLine {
	hs := t.bps.Held()
	out := &holdsLine{Count: len(hs)}
	now := make(map[int]heldLine, len(hs))
	list := make([]heldLine, 0, len(hs))
	for _, h := range hs {
		l, ok := t.announced[h.ID]
		if !ok {
			dir := "out"
			if h.Dir == protocol.ServerToClient {
				dir = "in"
			}
			l = heldLine{ID: h.ID, Dir: dir, Raw: string(h.Raw), Since: h.Since, Point: h.Point, Method: h.Method, Lines: h.LineFramed}
			out.Added = append(out.Added, l)
		}
		now[h.ID] = l
		list = append(list, l)
	}
	for id := range t.announced {
		if _, ok := now[id]; !ok {
			out.Gone = append(out.Gone, id)
		}
	}
	slices.Sort(out.Gone)
	t.announced = now
	t.holdsSnapshot.Store(&list)
	return out
}

// holdsSnapshot is what the last hold note left held, whole, as a function that encodes
// the line telling it (to be called outside the hub's lock); nil when the tap never held
// anything.
func (t *Tap) holdsSnapshotLine() func() []byte {
	p := t.holdsSnapshot.Load()
	if p == nil {
		return nil
	}
	list := *p
	return func() []byte {
		b, err := json.Marshal(struct {
			Holds *holdsLine `json:"holds"`
		}{&holdsLine{Full: true, Count: len(list), Held: list}})
		if err != nil {
			return nil
		}
		return append(b, '\n')
	}
}

// toHeld is a held message as the view shows it.
func (h heldLine) toHeld() fault.Held {
	raw := []byte(h.Raw)
	f := protocol.Decode(raw)
	dir := protocol.ClientToServer
	if h.Dir == "in" {
		dir = protocol.ServerToClient
	}
	return fault.Held{ID: h.ID, Dir: dir, Raw: raw, Since: h.Since, Point: h.Point, Method: h.Method,
		Request: f.Kind == protocol.KindRequest && !f.ID.IsZero(), Kind: f.Kind, MsgID: f.ID, LineFramed: h.Lines}
}

// readControl reads what viewer v writes until it goes away.
func (t *Tap) readControl(v *viewer) {
	sc := bufio.NewScanner(v.conn)
	sc.Buffer(make([]byte, 0, 64<<10), maxControlLine)
	for sc.Scan() {
		var c controlLine
		if json.Unmarshal(sc.Bytes(), &c) != nil {
			continue
		}
		t.control(v, c)
	}
	t.viewerLeft(v)
}

// control does what a viewer's line asks, when that viewer controls the breakpoints.
func (t *Tap) control(v *viewer, c controlLine) {
	t.ctlMu.Lock()
	if t.controller != nil && t.controller != v {
		first := !v.refused
		v.refused = true
		t.ctlMu.Unlock()
		if first {
			t.note(fault.HoldNoteKind, "another viewer's breakpoints ignored: the first viewer that set breakpoints controls them until it goes away")
		}
		return
	}
	t.controller = v
	t.ctlMu.Unlock()
	switch c.Op {
	case "breakpoints":
		list := make([]fault.Breakpoint, 0, len(c.Points))
		for _, p := range c.Points {
			list = append(list, fault.Breakpoint{ID: p.ID, Query: p.Query, Enabled: p.Enabled})
		}
		if err := t.bps.Set(list); err != nil {
			t.note(fault.HoldNoteKind, "breakpoints from the viewer refused: "+err.Error())
			return
		}
		t.note(fault.HoldNoteKind, breakpointsText(list))
	case "decide":
		d := fault.Decision{}
		switch c.Verb {
		case "forward":
			d.Verb = fault.Forward
		case "drop":
			d.Verb = fault.DropIt
		case "answer":
			d.Verb = fault.Answer
		default:
			return
		}
		if c.Raw != nil {
			d.Raw = []byte(*c.Raw)
		}
		if err := t.bps.Decide(c.ID, d); err != nil && (errors.Is(err, fault.ErrNotHeld) || t.isHeld(c.ID)) {
			// Decided nothing, so no decision's note: this one tells the viewer.
			t.note(fault.HoldNoteKind, fmt.Sprintf("held #%d: %v", c.ID, err))
		}
	case "continue":
		_ = t.bps.ContinueAll()
	}
}

// breakpointsText is the note of the breakpoints a viewer set.
func breakpointsText(list []fault.Breakpoint) string {
	if len(list) == 0 {
		return "breakpoints from the viewer: none"
	}
	var b strings.Builder
	b.WriteString("breakpoints from the viewer:")
	for i, p := range list {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(" " + p.Query)
		if !p.Enabled {
			b.WriteString(" (off)")
		}
	}
	return b.String()
}

// isHeld reports whether message id is held.
func (t *Tap) isHeld(id int) bool {
	for _, h := range t.bps.Held() {
		if h.ID == id {
			return true
		}
	}
	return false
}

// viewerLeft removes the breakpoints of the viewer that controlled them and forwards what
// they hold, as it came.
func (t *Tap) viewerLeft(v *viewer) {
	t.ctlMu.Lock()
	if t.controller != v {
		t.ctlMu.Unlock()
		return
	}
	t.controller = nil
	t.ctlMu.Unlock()
	n, points := len(t.bps.Held()), len(t.bps.List())
	_ = t.bps.Set(nil)
	err := t.bps.ContinueAll()
	if n == 0 && points == 0 {
		return
	}
	text := fmt.Sprintf("the viewer that set breakpoints went away: %d breakpoint(s) removed, %d held message(s) forwarded as they came", points, n)
	if err != nil {
		text += ": " + err.Error()
	}
	t.note(fault.HoldNoteKind, text)
}
