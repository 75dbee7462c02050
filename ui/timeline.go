package ui

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// Timeline is the traffic list: every entry that passes the filter and the kind toggles,
// one row each, in arrival order. Only the visible window is rendered, and rows are cached
// per (entry, width).
type Timeline struct {
	c       *Common
	h       *traffic.History
	w, ht   int
	visible []*traffic.Entry // sorted by Index
	scanned uint64           // Index of the next history entry to consider
	cursor  int
	offset  int
	follow  bool
	focused bool
	query   traffic.Query

	// SpillFile is the recording that holds the rows dropped from memory; when rows were
	// dropped, the first line says where they are.
	SpillFile string

	HideStderr, HideTransport, HideHTTP bool

	// Now drives elapsed timers: the latest of the model's tick and the newest event.
	Now time.Time

	gutterStyles          *Styles // the styles the gutter marks were made with
	gutterSel, gutterPair string

	// want is the row the user selected; auto the row a rebuild selected in its place when
	// a filter hid it. While the selection is auto, the next rebuild selects want again if it
	// passes: a row hidden by an intermediate query comes back selected.
	want, auto *traffic.Entry
}

// NewTimeline makes a timeline over h, following new rows.
func NewTimeline(c *Common, h *traffic.History) *Timeline {
	return &Timeline{c: c, h: h, follow: true}
}

// SetSize sets the pane size.
func (t *Timeline) SetSize(w, h int) {
	t.w = w
	t.ht = max(1, h)
	t.clamp()
}

// SetFocused marks the pane focused.
func (t *Timeline) SetFocused(f bool) { t.focused = f }

// Following reports whether the timeline auto-scrolls.
func (t *Timeline) Following() bool { return t.follow }

// Visible is the number of rows that pass the filter.
func (t *Timeline) Visible() int { return len(t.visible) }

// Query is the filter in force.
func (t *Timeline) Query() traffic.Query { return t.query }

// Hidden names the row kinds the toggles hide ("stderr", "transport", "http").
func (t *Timeline) Hidden() []string {
	var out []string
	if t.HideStderr {
		out = append(out, "stderr")
	}
	if t.HideTransport {
		out = append(out, "transport")
	}
	if t.HideHTTP {
		out = append(out, "http")
	}
	return out
}

// SetQuery filters the rows, keeping the selection when it still passes.
func (t *Timeline) SetQuery(q traffic.Query) {
	t.query = q
	t.Rebuild()
}

// Rebuild recomputes the visible rows from the whole history. Follow mode stays as it was;
// otherwise the row the user selected stays selected, or, when it no longer passes, the
// nearest earlier row that does, until a later rebuild (the query typed on) lets the
// user's row pass again.
func (t *Timeline) Rebuild() {
	sel := t.Selected()
	if sel != t.auto || t.want == nil {
		t.want = sel // the user moved since: their row now
	}
	t.visible = t.visible[:0]
	t.scanned = t.h.FirstIndex()
	t.Sync()
	t.auto = nil
	if want := t.want; want != nil && !t.follow {
		i := t.find(want.Index)
		if i == len(t.visible) || t.visible[i] != want {
			i--
			t.cursor = max(i, 0)
			t.auto = t.Selected()
		} else {
			t.cursor = i
		}
	}
	t.clamp()
}

// find is the position of the first visible row with an Index ≥ idx.
func (t *Timeline) find(idx uint64) int {
	return sort.Search(len(t.visible), func(i int) bool { return t.visible[i].Index >= idx })
}

func (t *Timeline) passes(e *traffic.Entry) bool {
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
		case session.EvTransport, session.EvState, session.EvLists, session.EvExit:
			if t.HideTransport && !faultNote(e.Ev) && !laneNote(e.Ev) {
				return false
			}
		}
	}
	return t.query.Match(e)
}

// Sync takes in entries added to (or dropped from) the history since the last call. Its
// cost is the number of new entries (plus a move when old ones were dropped), never the
// size of the history.
func (t *Timeline) Sync() {
	first := t.h.FirstIndex()
	if drop := t.find(first); drop > 0 {
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
	if n := len(entries); n > 0 {
		if last := entries[n-1]; last.Ev != nil && last.Ev.Time.After(t.Now) {
			t.Now = last.Ev.Time
		}
	}
	if t.follow {
		t.cursor = len(t.visible) - 1
	}
	t.clamp()
}

// Selected is the entry under the cursor, or nil.
func (t *Timeline) Selected() *traffic.Entry {
	if t.cursor < 0 || t.cursor >= len(t.visible) {
		return nil
	}
	return t.visible[t.cursor]
}

// Select moves the cursor to e if it is visible; follow mode stays on only when e is the
// last row.
func (t *Timeline) Select(e *traffic.Entry) bool {
	i := t.find(e.Index)
	if i == len(t.visible) || t.visible[i] != e {
		return false
	}
	t.cursor = i
	t.follow = i == len(t.visible)-1
	t.clamp()
	return true
}

// Move moves the cursor by n rows; moving up pauses follow mode, reaching the end resumes it.
func (t *Timeline) Move(n int) {
	t.cursor += n
	t.follow = false
	t.clamp()
	if n > 0 && t.cursor >= len(t.visible)-1 {
		t.follow = true
	}
}

func (t *Timeline) clamp() {
	n, ht := len(t.visible), t.rows()
	t.cursor = min(max(t.cursor, 0), max(n-1, 0))
	if t.cursor < t.offset {
		t.offset = t.cursor
	}
	if t.cursor >= t.offset+ht {
		t.offset = t.cursor - ht + 1
	}
	t.offset = min(max(t.offset, 0), max(n-ht, 0))
}

// spilled reports whether the first line names the recording that holds dropped rows.
func (t *Timeline) spilled() bool { return t.SpillFile != "" && t.h.Dropped > 0 && t.ht > 1 }

// rows is the number of rows the list shows.
func (t *Timeline) rows() int {
	if t.spilled() {
		return t.ht - 1
	}
	return t.ht
}

// SelectIndex selects the first visible row with an Index ≥ idx (the last row when there
// is none), on screen row row when the list allows; follow mode ends.
func (t *Timeline) SelectIndex(idx uint64, row int) {
	t.cursor = min(t.find(idx), len(t.visible)-1)
	t.follow = false
	t.offset = t.cursor - row
	t.clamp()
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
			t.Move(-t.rows())
		case key.Matches(msg, k.PageDown):
			t.Move(t.rows())
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
			return t.jumpPair()
		case key.Matches(msg, k.ToggleStderr):
			t.HideStderr = !t.HideStderr
			return t.toggled("stderr", t.HideStderr)
		case key.Matches(msg, k.ToggleTransport):
			t.HideTransport = !t.HideTransport
			return t.toggled("transport", t.HideTransport)
		case key.Matches(msg, k.ToggleHTTP):
			t.HideHTTP = !t.HideHTTP
			return t.toggled("HTTP", t.HideHTTP)
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

func (t *Timeline) toggled(what string, hidden bool) tea.Cmd {
	t.Rebuild()
	if hidden {
		return statusCmd(what+" rows hidden", false)
	}
	return statusCmd(what+" rows shown", false)
}

// partner is the row the pair key jumps to from e: the next row of its input_required
// chain, else its response or request, else the request it refers to.
func partner(e *traffic.Entry) *traffic.Entry {
	if e == nil {
		return nil
	}
	if e.Chain != nil {
		if next := e.Chain.Next(e); next != nil {
			return next // an input_required chain: the pair key walks it
		}
	}
	if e.Pair != nil {
		return e.Pair
	}
	return e.Ref
}

// jumpPair selects the selected row's partner, or says why it cannot.
func (t *Timeline) jumpPair() tea.Cmd {
	e := t.Selected()
	target := partner(e)
	switch {
	case target == nil && e != nil && e.Waiting():
		return statusCmd("no response yet", false)
	case target == nil:
		return statusCmd("this row has no request or response to jump to", false)
	case !t.h.InMemory(target):
		return statusCmd("its pair was dropped from memory (history limit)", false)
	case !t.Select(target):
		return statusCmd("its pair is hidden by the filter or a toggle", false)
	}
	return nil
}

// View renders the visible window: exactly ht lines of w cells.
func (t *Timeline) View() string {
	s := t.c.Styles
	if len(t.visible) == 0 {
		msg := "no traffic yet"
		if !t.query.Empty() || len(t.Hidden()) > 0 && t.h.Len() > 0 {
			msg = "no rows match the filter"
		}
		return textfmt.FitBlock(s.Muted.Render(msg), t.w, t.ht)
	}
	if t.gutterStyles != s {
		t.gutterStyles, t.gutterSel, t.gutterPair = s, s.Accent.Render("▶"), s.Accent.Render("◆")
	}
	sel := t.Selected()
	pair := partner(sel)
	textW := max(1, t.w-1)
	var b strings.Builder
	b.Grow(t.ht * (t.w + 64))
	if t.spilled() {
		b.WriteString(textfmt.FitRow(s.Muted.Render(fmt.Sprintf("… %d older rows in %s — mcpscope open %s", t.h.Dropped, t.SpillFile, t.SpillFile)), t.w))
		b.WriteByte('\n')
	}
	ht := t.rows()
	end := min(t.offset+ht, len(t.visible))
	for i := t.offset; i < end; i++ {
		e := t.visible[i]
		switch e {
		case sel:
			if t.focused {
				b.WriteString(s.SelectRow(t.gutterSel)) // the highlight spans the gutter too
			} else {
				b.WriteString(t.gutterSel)
			}
		case pair:
			b.WriteString(t.gutterPair)
		default:
			b.WriteByte(' ')
		}
		b.WriteString(t.row(e, textW, e == sel && t.focused))
		if i < end-1 {
			b.WriteByte('\n')
		}
	}
	if t.w > 0 {
		blank := strings.Repeat(" ", t.w)
		for i := end - t.offset; i < ht; i++ {
			b.WriteByte('\n')
			b.WriteString(blank)
		}
	}
	return b.String()
}

// row returns e's row of w cells, from the cache unless it changes with time (a waiting
// request's timer).
func (t *Timeline) row(e *traffic.Entry, w int, selected bool) string {
	c := &e.Row
	if e.Waiting() || c.Width != w || c.S == "" {
		r := maskedRowText(t.c.Styles, t.c.Mask, e, w, t.h.Start, t.Now)
		if e.Waiting() {
			if selected {
				return t.c.Styles.SelectRow(r)
			}
			return r
		}
		*c = traffic.RowCache{Width: w, S: r}
	}
	if !selected {
		return c.S
	}
	if c.Sel == "" {
		c.Sel = t.c.Styles.SelectRow(c.S)
	}
	return c.Sel
}
