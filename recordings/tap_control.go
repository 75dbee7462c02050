package recordings

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
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
// answers in the event stream: every hold note (kind "hold") carries the list of messages
// held after it (holdsLine), so a viewer knows what is held before it shows the note.
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

// holdsLine is the list of held messages a hold note carries to the viewers.
type holdsLine struct {
	Held []heldLine `json:"held"`
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

// holdsNow is the tap's held messages as a hold note carries them.
func (t *Tap) holdsNow() *holdsLine {
	hs := t.bps.Held()
	out := &holdsLine{Held: make([]heldLine, 0, len(hs))}
	for _, h := range hs {
		dir := "out"
		if h.Dir == protocol.ServerToClient {
			dir = "in"
		}
		out.Held = append(out.Held, heldLine{ID: h.ID, Dir: dir, Raw: string(h.Raw), Since: h.Since, Point: h.Point, Method: h.Method, Lines: h.LineFramed})
	}
	return out
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
