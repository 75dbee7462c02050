package ui

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// A recording opened read-only is browsed through a window: the history holds at most
// openWindow consecutive rows of the recording (or of the rows that pass the filter), read
// on demand with the recording's index, and the window moves when the cursor comes within
// openMargin rows of its edge. A filter is applied to the whole recording in the
// background, by a parallel search of the file's bytes (open_search.go), which collects
// the indices of the matching events (four bytes each); the window then moves over those.
// Memory stays bounded by the window, whatever the file's size, and the first screen needs
// only the first window.
const (
	openWindow     = 4096   // rows in memory at once
	openMargin     = 512    // load another window when the cursor is this close to the edge
	openCheckChunk = 16_384 // lines one step of the background check reads
	openHandshake  = 1000   // events read at most to find the recorded handshake
)

// openView is the state of a recording opened read-only.
type openView struct {
	r     *recordings.Reader
	start time.Time // time of the recording's first event: rows' times count from it

	// The source: the recording's events, or, with a filter, the indices of the events that
	// pass it (filled by the search). Window rows' Index are positions in the source.
	filtered bool
	src      []int32
	hsIdx    []int32            // the events of each session's handshake the search found: a filtered save keeps them
	scanNext int                // how far the search has got, in events (r.Len() when it is done)
	stale    bool               // the window is from an older source; replace it once the new one has rows
	token    int                // the source's generation: results for an older one are dropped
	cancel   context.CancelFunc // stops the search under way (open_search.go), if any

	lo      int     // source position of the window's first row
	evIdx   []int32 // event index of each window row
	loading bool

	checkNext   int   // next line the background check reads (see open_check.go)
	checkPaused bool  // the check waits for the search under way to end
	searching   bool  // a search (open_search.go) is under way
	unreadable  int   // lines the check found unreadable so far
	over        int64 // frames larger than this are held cut (the history's TruncateOver)
}

// Messages of the read-only view.
type (
	// openWindowMsg: a window of the recording was read.
	openWindowMsg struct {
		token, lo, want int
		rows            []openRow
		start           time.Time
	}
	// openInfoMsg: the recorded handshake.
	openInfoMsg struct {
		info session.ServerInfo
		hs   []*traffic.Entry
	}
)

// openRow is one row of a window: an event, or a line that could not be decoded.
type openRow struct {
	idx     int32
	gen     int
	ev      *session.Event
	clipped int64 // the frame's full size when ev holds it cut
	problem string
}

// initOpen sets the model up for a recording opened read-only: keys that act on a live
// session are disabled, so help does not offer them.
func (m *Model) initOpen() {
	if m.opts.Recording == nil {
		return
	}
	m.open = &openView{r: m.opts.Recording}
	m.explorer.SetRecording()
	m.c.Keys.Disable(&m.c.Keys.Restart, m.offlineReason())
	m.timeline.follow = false
	m.state = session.StateClosed
	if m.hist.Limit <= openWindow {
		m.hist.Limit = openWindow + 1
	}
	// The window is bounded by its rows; its bytes, by holding each frame of more than an
	// even share of the budget cut (the file has it whole, and the detail reads it back).
	m.hist.TruncateOver = min(m.hist.TruncateBound(), max(1<<10, m.hist.ByteBound()/openWindow))
	m.hist.MaxBytes = math.MaxInt64
	m.open.over = m.hist.TruncateOver
}

// openInit reads the first window, the handshake and the lists.
func (m *Model) openInit() tea.Cmd {
	o := m.open
	return tea.Batch(o.loadCmd(0, 0), openInfoCmd(o.r), openListsCmd(o.r), openCheckCmd(o.r, 0))
}

// total is the number of rows in the source (so far, while a filter scan runs).
func (o *openView) total() int {
	if o.filtered {
		return len(o.src)
	}
	return o.r.Len()
}

// loadCmd reads the window of the source that starts at position lo; want is the position
// to select once it is in.
func (o *openView) loadCmd(lo, want int) tea.Cmd {
	o.loading = true
	token, r, src, filtered, over := o.token, o.r, o.src, o.filtered, o.over
	hi := min(lo+openWindow, o.total())
	return func() tea.Msg {
		msg := openWindowMsg{token: token, lo: lo, want: want}
		if ev, err := r.Event(0); err == nil {
			msg.start = ev.Time
		}
		for p := lo; p < hi; p++ {
			idx := p
			if filtered {
				idx = int(src[p])
			}
			e, err := r.Entry(idx)
			row := openRow{idx: int32(idx), gen: max(1, e.Gen)}
			if e.Event != nil {
				row.ev, row.clipped = traffic.ClipEvent(e.Event, over) // a window of large frames is not held whole, even here
			}
			if err != nil {
				row.problem = openProblem(r, idx, err)
			}
			msg.rows = append(msg.rows, row)
		}
		return msg
	}
}

// openUpdate handles the read-only view's messages.
func (m *Model) openUpdate(msg tea.Msg) tea.Cmd {
	o := m.open
	if o == nil {
		return nil
	}
	switch msg := msg.(type) {
	case openWindowMsg:
		if msg.token != o.token {
			return nil
		}
		return m.openWindow(msg)
	case openSearchMsg:
		if msg.token != o.token {
			return nil
		}
		return m.openSearched(msg)
	case openCheckMsg:
		return m.openChecked(msg)
	case openInfoMsg:
		m.info = msg.info
		m.server.SetHandshake(msg.hs)
		m.server.SetInfo(msg.info)
		m.explorer.SetRecordedCaps(msg.info.Capabilities)
	}
	return nil
}

// openWindow puts a window of rows in the history in place of the previous one.
func (m *Model) openWindow(msg openWindowMsg) tea.Cmd {
	o := m.open
	o.loading, o.stale = false, false
	if o.start.IsZero() {
		o.start = msg.start
	}
	row := m.timeline.cursor - m.timeline.offset
	h := m.hist
	h.ResetAt(uint64(msg.lo), o.start)
	o.lo, o.evIdx = msg.lo, o.evIdx[:0]
	for _, r := range msg.rows {
		if r.ev == nil {
			h.AddMarker(r.gen, r.problem)
		} else if e, _ := h.Add(r.gen, r.ev); r.clipped > 0 {
			e.Clipped = r.clipped
		}
		o.evIdx = append(o.evIdx, r.idx)
	}
	h.Settle()
	m.timeline.Rebuild()
	m.timeline.SelectIndex(uint64(msg.want), row)
	return tea.Batch(m.detail.SetEntry(m.timeline.Selected()), m.openFollow())
}

// openFollow loads another window when the cursor is near the edge of this one and the
// source goes on past it, or when the window is not full and the source has grown.
func (m *Model) openFollow() tea.Cmd {
	o := m.open
	if o == nil || o.loading || o.stale {
		return nil
	}
	total, hi := o.total(), o.lo+len(o.evIdx)
	sel := m.timeline.Selected()
	if sel == nil {
		if hi < total {
			return o.loadCmd(o.lo, o.lo)
		}
		return nil
	}
	pos := int(sel.Index)
	switch {
	case len(o.evIdx) < openWindow && hi < total:
		return o.loadCmd(o.lo, pos)
	case pos-o.lo < openMargin && o.lo > 0, hi-pos <= openMargin && hi < total:
		lo := max(0, min(pos-openWindow/2, total-openWindow))
		if lo != o.lo {
			return o.loadCmd(lo, pos)
		}
	}
	return nil
}

// openKey handles the keys that go past the window: the top and the bottom of the
// recording. ok is false for every other key.
func (m *Model) openKey(msg tea.KeyPressMsg) (cmd tea.Cmd, ok bool) {
	o := m.open
	if o == nil || m.page != pageTraffic || m.focus != focusTimeline || o.stale {
		return nil, false
	}
	k := m.c.Keys
	switch {
	case key.Matches(msg, k.Top) && o.lo > 0:
		return o.loadCmd(0, 0), true
	case key.Matches(msg, k.Bottom) && o.lo+len(o.evIdx) < o.total():
		total := o.total()
		return o.loadCmd(max(0, total-openWindow), total-1), true
	}
	return nil, false
}

// openRefilter starts over with a new filter (or kind toggles): the whole recording is
// scanned for the rows that pass, or, with no filter, the window moves back over every
// event, around the event that was selected.
func (m *Model) openRefilter() tea.Cmd {
	o := m.open
	if o == nil {
		return nil
	}
	t := m.timeline
	cur := 0
	if sel := t.Selected(); sel != nil {
		if i := int(sel.Index) - o.lo; i >= 0 && i < len(o.evIdx) {
			cur = int(o.evIdx[i])
		}
	}
	o.token++
	o.loading = false
	if o.cancel != nil {
		o.cancel() // a new keystroke: the search for the previous filter stops
		o.cancel, o.searching = nil, false
	}
	if t.Query().Empty() && len(t.Hidden()) == 0 {
		o.filtered, o.src, o.scanNext, o.stale = false, nil, 0, false
		return tea.Batch(o.loadCmd(max(0, min(cur-openWindow/2, o.r.Len()-openWindow)), cur), o.resumeCheck())
	}
	o.filtered, o.src, o.hsIdx, o.scanNext, o.stale = true, nil, nil, 0, true
	pred := &Timeline{query: t.query, HideStderr: t.HideStderr, HideTransport: t.HideTransport, HideHTTP: t.HideHTTP}
	return o.searchCmd(pred)
}

// openStatus is the read-only view's part of the status bar: where the cursor is, and the
// filter scan's progress.
func (m *Model) openStatus() []string {
	o := m.open
	s := m.c.Styles
	var parts []string
	pos := 0
	if sel := m.timeline.Selected(); sel != nil && !o.stale {
		pos = int(sel.Index) + 1
	}
	parts = append(parts, s.StatusKey.Render(fmt.Sprintf("row %d of %d", pos, o.total())))
	if o.filtered && o.scanNext < o.r.Len() {
		parts = append(parts, s.StatusWarn.Render(fmt.Sprintf("searching %d%%", o.scanNext*100/max(1, o.r.Len()))))
	}
	return append(parts, m.openCheckStatus()...)
}

// openTitle names the recording in the status bar.
func (m *Model) openTitle() string {
	return "recording " + textfmt.Clip(filepath.Base(m.open.r.Path()), 40) + " (read-only)"
}

// saveFilteredCmd saves the rows that pass the filter: the recording's header and the
// matching lines, copied as they are, with the lines of each session's handshake, so the
// saved file still says what the server is and offers. While the search runs, the rows
// found so far.
func (o *openView) saveFilteredCmd(path string) tea.Cmd {
	r, src := o.r, o.src
	if o.stale {
		src = nil
	}
	idx := mergeIndices(o.hsIdx, src)
	return func() tea.Msg {
		return SavedMsg{Path: path, Events: len(idx), Err: copyLines(r, idx, path)}
	}
}

// mergeIndices merges two ascending lists of event indices into one, each index once.
func mergeIndices(a, b []int32) []int32 {
	out := make([]int32, 0, len(a)+len(b))
	for len(a) > 0 || len(b) > 0 {
		switch {
		case len(b) == 0 || len(a) > 0 && a[0] < b[0]:
			out, a = append(out, a[0]), a[1:]
		case len(a) == 0 || b[0] < a[0]:
			out, b = append(out, b[0]), b[1:]
		default: // the same event
			out, a, b = append(out, a[0]), a[1:], b[1:]
		}
	}
	return out
}

// openInfoCmd reads the recorded handshake: the server's description and the exchange.
func openInfoCmd(r *recordings.Reader) tea.Cmd {
	return func() tea.Msg {
		h := traffic.NewHistory(openHandshake + 1)
		gen := 0
		for i := 0; i < min(r.Len(), openHandshake); i++ {
			e, err := r.Entry(i)
			if err != nil {
				continue
			}
			if gen == 0 {
				gen = max(1, e.Gen)
			}
			h.Add(max(1, e.Gen), e.Event)
			if ev := e.Event; ev.Kind == session.EvState && (ev.State == session.StateReady || ev.State == session.StateClosed) {
				break
			}
		}
		hs := HandshakeEntries(h, gen)
		info := recordedInfo(hs)
		info.Transport = r.Header().Transport
		return openInfoMsg{info: info, hs: hs}
	}
}

// openMoved follows a key the timeline handled: a kind toggle (hidden was the number of
// hidden kinds before) filters the recording anew, a move may need another window.
func (m *Model) openMoved(hidden int) tea.Cmd {
	if m.open == nil {
		return nil
	}
	if len(m.timeline.Hidden()) != hidden {
		return m.openRefilter()
	}
	return m.openFollow()
}
