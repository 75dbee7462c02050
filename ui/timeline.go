package ui

import (
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
)

// Timeline is the traffic list: every entry that passes the filter and the kind toggles,
// one row each, in arrival order. Only the visible window is rendered, and rows are cached
// per (entry, width).
type Timeline struct {
	c       *Common
	h       *History
	w, ht   int
	visible []*Entry
	scanned uint64 // Index of the next history entry to consider
	cursor  int
	offset  int
	follow  bool
	focused bool
	query   Query

	HideStderr, HideTransport, HideHTTP bool

	Start time.Time // time of the first event: rows show time relative to it
	Now   time.Time // drives elapsed timers; set by the model's tick
}

// NewTimeline makes a timeline over h, following new rows.
func NewTimeline(c *Common, h *History) *Timeline {
	return &Timeline{c: c, h: h, follow: true, Now: time.Now()}
}

// SetSize sets the pane size.
func (t *Timeline) SetSize(w, h int) {
	if w != t.w {
		t.w = w
	}
	t.ht = max(1, h)
	t.clamp()
}

// SetFocused marks the pane focused.
func (t *Timeline) SetFocused(f bool) { t.focused = f }

// Following reports whether the timeline auto-scrolls.
func (t *Timeline) Following() bool { return t.follow }

// Visible is the number of rows that pass the filter.
func (t *Timeline) Visible() int { return len(t.visible) }

// SetQuery filters the rows, keeping the selection when it still passes.
func (t *Timeline) SetQuery(q Query) {
	t.query = q
	t.Rebuild()
}

// Rebuild recomputes the visible rows from the whole history.
func (t *Timeline) Rebuild() {
	sel := t.Selected()
	t.visible = t.visible[:0]
	t.scanned = t.h.FirstIndex()
	t.Sync()
	if sel != nil {
		for i, e := range t.visible {
			if e == sel {
				t.cursor = i
				t.follow = false
				break
			}
		}
	}
	t.clamp()
}

func (t *Timeline) passes(e *Entry) bool {
	if e.Ev != nil {
		switch e.Ev.Kind {
		case session.EvStderr:
			if t.HideStderr {
				return false
			}
		case session.EvHTTP:
			if t.HideHTTP {
				return false
			}
		case session.EvTransport, session.EvState, session.EvLists:
			if t.HideTransport {
				return false
			}
		}
		if t.Start.IsZero() {
			t.Start = e.Ev.Time
		}
	}
	return t.query.Match(e)
}

// Sync takes in entries added to (or dropped from) the history since the last call.
func (t *Timeline) Sync() {
	first := t.h.FirstIndex()
	drop := 0
	for drop < len(t.visible) && t.visible[drop].Index < first {
		drop++
	}
	if drop > 0 {
		t.visible = append(t.visible[:0], t.visible[drop:]...)
		t.cursor = max(0, t.cursor-drop)
		t.offset = max(0, t.offset-drop)
	}
	if t.scanned < first {
		t.scanned = first
	}
	entries := t.h.Entries()
	for i := int(t.scanned - first); i < len(entries); i++ {
		if e := entries[i]; t.passes(e) {
			t.visible = append(t.visible, e)
		}
	}
	t.scanned = first + uint64(len(entries))
	if t.follow {
		t.cursor = len(t.visible) - 1
	}
	t.clamp()
}

// Selected is the entry under the cursor, or nil.
func (t *Timeline) Selected() *Entry {
	if t.cursor < 0 || t.cursor >= len(t.visible) {
		return nil
	}
	return t.visible[t.cursor]
}

// Select moves the cursor to e if it is visible.
func (t *Timeline) Select(e *Entry) bool {
	for i := len(t.visible) - 1; i >= 0; i-- {
		if t.visible[i] == e {
			t.cursor = i
			t.follow = i == len(t.visible)-1
			t.clamp()
			return true
		}
	}
	return false
}

// Move moves the cursor by n rows; moving up pauses follow mode, reaching the end resumes it.
func (t *Timeline) Move(n int) {
	t.cursor += n
	t.follow = false
	t.clamp()
	if t.cursor >= len(t.visible)-1 && n > 0 {
		t.follow = true
	}
}

func (t *Timeline) clamp() {
	n := len(t.visible)
	t.cursor = min(max(t.cursor, 0), max(n-1, 0))
	if t.cursor < t.offset {
		t.offset = t.cursor
	}
	if t.cursor >= t.offset+t.ht {
		t.offset = t.cursor - t.ht + 1
	}
	t.offset = min(max(t.offset, 0), max(n-t.ht, 0))
}

// Update handles the timeline's keys.
func (t *Timeline) Update(msg tea.Msg) tea.Cmd {
	k := t.c.Keys
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, k.Up):
			t.Move(-1)
		case key.Matches(msg, k.Down):
			t.Move(1)
		case key.Matches(msg, k.PageUp):
			t.Move(-t.ht)
		case key.Matches(msg, k.PageDown):
			t.Move(t.ht)
		case key.Matches(msg, k.Top):
			t.cursor, t.follow = 0, false
			t.clamp()
		case key.Matches(msg, k.Bottom):
			t.cursor, t.follow = len(t.visible)-1, true
			t.clamp()
		case key.Matches(msg, k.Follow):
			t.follow = !t.follow
			if t.follow {
				t.cursor = len(t.visible) - 1
				t.clamp()
			}
		case key.Matches(msg, k.Pair):
			if e := t.Selected(); e != nil {
				target := e.Pair
				if target == nil {
					target = e.Ref
				}
				if target != nil {
					t.Select(target)
				}
			}
		case key.Matches(msg, k.ToggleStderr):
			t.HideStderr = !t.HideStderr
			t.Rebuild()
		case key.Matches(msg, k.ToggleTransport):
			t.HideTransport = !t.HideTransport
			t.Rebuild()
		case key.Matches(msg, k.ToggleHTTP):
			t.HideHTTP = !t.HideHTTP
			t.Rebuild()
		}
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelUp:
			t.Move(-3)
		case tea.MouseWheelDown:
			t.Move(3)
		}
	}
	return nil
}

// View renders the visible window: exactly ht lines of w cells.
func (t *Timeline) View() string {
	s := t.c.Styles
	if len(t.visible) == 0 {
		msg := "no traffic yet"
		if !t.query.Empty() {
			msg = "no rows match the filter"
		}
		return fitBlock(s.Muted.Render(msg), t.w, t.ht)
	}
	sel := t.Selected()
	var pair *Entry
	if sel != nil {
		pair = sel.Pair
		if pair == nil {
			pair = sel.Ref
		}
	}
	textW := max(1, t.w-1)
	var b strings.Builder
	end := min(t.offset+t.ht, len(t.visible))
	for i := t.offset; i < end; i++ {
		e := t.visible[i]
		gutter := " "
		switch e {
		case sel:
			gutter = s.Accent.Render("▶")
		case pair:
			gutter = s.Accent.Render("◆")
		}
		row := t.row(e, textW)
		if e == sel && t.focused {
			row = s.Selected.Render(row)
		}
		b.WriteString(gutter)
		b.WriteString(row)
		if i < end-1 {
			b.WriteByte('\n')
		}
	}
	return fitBlock(b.String(), t.w, t.ht)
}

// row returns e's row, from the cache unless it changes with time (a pending request).
func (t *Timeline) row(e *Entry, w int) string {
	live := e.IsRequest() && !e.Answered && e.Failed == ""
	if !live && e.cache.width == w && e.cache.s != "" {
		return e.cache.s
	}
	r := rowText(t.c.Styles, e, w, t.Start, t.Now)
	if !live {
		e.cache = rowCache{width: w, s: r}
	}
	return r
}

// Invalidate drops the cached rows of entries whose correlation changed.
func Invalidate(entries []*Entry) {
	for _, e := range entries {
		e.cache = rowCache{}
	}
}

// anyPendingVisible reports whether a live timer is on screen (so a tick must redraw).
func (t *Timeline) anyPendingVisible() bool {
	end := min(t.offset+t.ht, len(t.visible))
	for i := t.offset; i < end; i++ {
		e := t.visible[i]
		if e.IsRequest() && !e.Answered && e.Failed == "" && e.Ev.Frame.Kind == protocol.KindRequest {
			return true
		}
	}
	return false
}

// fitBlock pads or cuts s to exactly h lines of w cells.
func fitBlock(s string, w, h int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		lines[i] = fitRow(l, w)
	}
	blank := strings.Repeat(" ", w)
	for len(lines) < h {
		lines = append(lines, blank)
	}
	return strings.Join(lines, "\n")
}
