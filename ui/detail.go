package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/explorer"
	"github.com/mcpscope/mcpscope/ui/internal/jsonview"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// pairSideBySide is the pane width from which a request and its response may sit side by
// side (when each fits its half); otherwise the request is above the response.
const pairSideBySide = 70

// wheelStep is how many lines one mouse wheel notch scrolls.
const wheelStep = 3

// Detail shows the selected entry in full: a header (what, when, size, how it arrived, what
// it answers, findings explained), then the body as pretty JSON or as the wire text, with the
// paired request or response beside it. Bodies are coloured at once by the one-pass
// colorizer and replaced by chroma's highlighting when it arrives from a command.
type Detail struct {
	c       *Common
	w, h    int
	focused bool
	entry   *traffic.Entry
	sig     entrySig
	failure string
	picked  bool              // a row was picked since the failure: show it, not the failure
	raw     bool              // show the wire text instead of pretty JSON
	orig    bool              // show an edited request as it came, not as delivered (detail_delivered.go)
	side    pairView          // how a pair is shown (Swap cycles it)
	needs   map[needKey][]int // the line widths of bodies measured for the pair's layout
	offset  int

	hl       *jsonview.Highlighter
	cache    *hlCache
	inflight map[hlKey]bool
	want     map[hlKey][]byte // highlighted bodies the view uses, with their raw frames
	content  []dline

	// results gives what rendering a result by type needs (outputSchemas, revision).
	results func() explorer.ResultEnv
	// full reads back the whole of a frame the history holds cut, or says why it cannot.
	full FullFrames
	// shownRaw caches screenBytes of the frames on screen (a pair at most), by entry.
	shownRaw map[*traffic.Entry][]byte
}

// dline is one line of the pane: a full-width line, or two columns.
type dline struct {
	s, r  string
	split bool
}

// entrySig is what of an entry can change after it is shown (correlation arriving later).
type entrySig struct {
	pair, ref *traffic.Entry
	progress  *session.Progress
	answered  bool
	failed    string
}

func sigOf(e *traffic.Entry) entrySig {
	if e == nil {
		return entrySig{}
	}
	return entrySig{e.Pair, e.Ref, e.Progress, e.Answered, e.Failed}
}

// NewDetail makes the detail pane.
func NewDetail(c *Common) *Detail {
	return &Detail{c: c, hl: jsonview.NewHighlighter(), cache: newHLCache(highlightCacheSize),
		inflight: map[hlKey]bool{}, want: map[hlKey][]byte{}, needs: map[needKey][]int{}, shownRaw: map[*traffic.Entry][]byte{}}
}

// SetSize sets the pane size. Highlighting for a new width is asked for by the next call
// that returns a command (Refresh, SetEntry, Restyle, Update).
func (d *Detail) SetSize(w, h int) {
	if w == d.w && h == d.h {
		return
	}
	d.w, d.h = w, h
	d.rebuild()
}

// SetFocused marks the pane focused.
func (d *Detail) SetFocused(f bool) { d.focused = f }

// SetFailure shows a connection failure instead of an entry ("" clears it).
func (d *Detail) SetFailure(text string) {
	if text == d.failure {
		return
	}
	d.failure, d.offset, d.picked = text, 0, false
	d.rebuild()
}

// Pick shows e because the user picked it (opened it, or moved the timeline's selection):
// a connection failure shown instead gives way to it.
func (d *Detail) Pick(e *traffic.Entry) tea.Cmd {
	if e != nil && d.failure != "" && !d.picked {
		d.picked, d.offset = true, 0
		d.entry = nil // make SetEntry lay out again
	}
	return d.SetEntry(e)
}

// showsFailure reports whether the pane shows the connection failure: it has one, and no
// row was picked since (or none is selected).
func (d *Detail) showsFailure() bool {
	return d.failure != "" && (!d.picked || d.entry == nil)
}

// Restyle re-renders after a palette change and asks for highlighting in the new flavour.
func (d *Detail) Restyle() tea.Cmd {
	d.rebuild()
	return d.highlightCmds()
}

// Refresh returns the highlighting the current view still lacks (after a resize).
func (d *Detail) Refresh() tea.Cmd { return d.highlightCmds() }

// SetEntry shows e (nil shows nothing). Showing the same entry again re-renders only when its
// correlation changed.
func (d *Detail) SetEntry(e *traffic.Entry) tea.Cmd {
	switch {
	case e != d.entry:
		d.entry, d.offset, d.orig = e, 0, false // an edited request opens on what was delivered
		d.sig = sigOf(e)
		d.rebuild()
	case sigOf(e) != d.sig:
		d.sig = sigOf(e)
		d.rebuild()
	}
	return d.highlightCmds()
}

// Keys are the detail pane's bindings for the help line, disabled where they do nothing.
func (d *Detail) Keys() []key.Binding {
	k := d.c.Keys
	has := d.target() != nil || d.showsFailure()
	on := func(b key.Binding, enabled bool) key.Binding {
		b.SetEnabled(enabled)
		return b
	}
	return []key.Binding{k.Up, k.Down, on(k.Raw, d.isFrame(d.target())), on(k.Swap, d.canSwap()), on(k.Maximize, has),
		on(k.Pager, has), on(k.Editor, has), on(k.Save, has), on(k.Copy, has), on(k.Original, d.canOriginal())}
}

// Update scrolls, toggles the views, starts the actions and takes in highlighted bodies.
func (d *Detail) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case HighlightMsg:
		k := hlKey{msg.Entry, msg.Width, msg.Dark}
		delete(d.inflight, k)
		if _, ok := d.want[k]; !ok {
			return nil // stale: the pane no longer shows this body
		}
		d.cache.put(k, msg.body)
		d.rebuild()
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelUp:
			d.scroll(-wheelStep)
		case tea.MouseWheelDown:
			d.scroll(wheelStep)
		}
	case tea.KeyPressMsg:
		return d.key(msg)
	}
	return nil
}

func (d *Detail) key(msg tea.KeyPressMsg) tea.Cmd {
	k := d.c.Keys
	switch {
	case key.Matches(msg, k.Up):
		d.scroll(-1)
	case key.Matches(msg, k.Down):
		d.scroll(1)
	case key.Matches(msg, k.PageUp):
		d.scroll(-max(1, d.h-1))
	case key.Matches(msg, k.PageDown):
		d.scroll(max(1, d.h-1))
	case key.Matches(msg, k.Top):
		d.offset = 0
	case key.Matches(msg, k.Bottom):
		d.offset = d.maxOffset()
	case key.Matches(msg, k.Raw):
		if d.isFrame(d.entry) {
			d.raw, d.offset = !d.raw, 0
			d.rebuild()
			return d.highlightCmds()
		}
	case key.Matches(msg, k.Original):
		return d.toggleOriginal()
	case key.Matches(msg, k.Swap):
		if d.canSwap() {
			d.side, d.offset = d.side.next(), 0
			d.rebuild()
			return tea.Batch(d.highlightCmds(), statusCmd("detail: "+d.side.String(), false))
		}
	case key.Matches(msg, k.Pager):
		return d.action(actPager)
	case key.Matches(msg, k.Editor):
		return d.action(actEditor)
	case key.Matches(msg, k.Save):
		return d.action(actSave)
	case key.Matches(msg, k.Copy):
		return d.action(actCopy)
	}
	return nil
}

func (d *Detail) scroll(n int) { d.offset = max(0, min(d.maxOffset(), d.offset+n)) }

func (d *Detail) maxOffset() int { return max(0, len(d.content)-d.h) }

// isFrame reports whether e is a frame entry.
func (d *Detail) isFrame(e *traffic.Entry) bool {
	return e != nil && e.Ev != nil && e.Ev.Kind == session.EvFrame && e.Ev.Frame != nil
}

// other is the other side of e's pair, when both are frames.
func (d *Detail) other(e *traffic.Entry) *traffic.Entry {
	if d.isFrame(e) && d.isFrame(e.Pair) {
		return e.Pair
	}
	return nil
}

// canSwap reports whether Swap does something: the entry is one of a pair of frames.
func (d *Detail) canSwap() bool {
	return !d.showsFailure() && d.other(d.entry) != nil
}

// target is the entry the actions work on: the one whose body is shown (the selected one
// when both sides of a pair are).
func (d *Detail) target() *traffic.Entry {
	if d.showsFailure() || d.entry == nil {
		return nil
	}
	if !d.canSwap() || d.side == pairBoth {
		return d.entry
	}
	req := d.entry.Ev.Seq < d.entry.Pair.Ev.Seq
	if req == (d.side == pairRequest) {
		return d.entry
	}
	return d.entry.Pair
}

// highlightCmds asks for every body the view uses that is neither cached nor on its way.
func (d *Detail) highlightCmds() tea.Cmd {
	var cmds []tea.Cmd
	for k, raw := range d.want {
		if _, ok := d.cache.m[k]; ok || d.inflight[k] {
			continue
		}
		d.inflight[k] = true
		if k.e.Clipped > 0 {
			cmds = append(cmds, d.fullBodyCmd(k))
			continue
		}
		cmds = append(cmds, HighlightCmd(d.hl, d.c.Styles, k.e, raw, k.width))
	}
	return tea.Batch(cmds...)
}

// View renders the visible lines: exactly h lines of w cells.
func (d *Detail) View() string {
	if d.w <= 0 || d.h <= 0 {
		return ""
	}
	d.offset = max(0, min(d.offset, d.maxOffset()))
	left := (d.w - 3) / 2
	right := d.w - 3 - left
	sep := d.c.Styles.Muted.Render(" │ ")
	blank := strings.Repeat(" ", d.w)
	var b strings.Builder
	for i := range d.h {
		if i > 0 {
			b.WriteByte('\n')
		}
		j := d.offset + i
		if j >= len(d.content) {
			b.WriteString(blank)
			continue
		}
		l := d.content[j]
		if l.split {
			b.WriteString(textfmt.FitRow(l.s, left))
			b.WriteString(sep)
			b.WriteString(textfmt.FitRow(l.r, right))
			continue
		}
		b.WriteString(textfmt.FitRow(l.s, d.w))
	}
	return b.String()
}
