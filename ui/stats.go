package ui

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
)

// StatsPage shows the traffic per method: how many requests and notifications, how many
// errors (JSON-RPC errors and tool results with isError), the latency percentiles of the
// responses and the bytes each way. A live session's figures grow from its events
// (recordings.Stats.AddEvent); an opened recording's are counted from the whole file
// (Reader.Stats), the same figures as `mcpscope stats FILE`.
type StatsPage struct {
	c    *Common
	w, h int

	stats   *recordings.Stats
	since   time.Time // when the live figures started (the start, or the last switch)
	what    string    // what the figures cover, for the title
	loading bool      // an opened recording's figures are being counted
	err     error     // counting them failed
	dirty   bool      // events came in since rows were worked out

	rows   []recordings.MethodStats
	total  recordings.MethodStats
	sortBy int // index into statsSorts
	cursor int
	off    int
}

// statsMsg carries an opened recording's figures.
type statsMsg struct {
	stats *recordings.Stats
	err   error
}

// statsSorts are the orders of the table, cycled with KeyMap.StatsSort.
var statsSorts = []struct {
	name string
	less func(a, b recordings.MethodStats) int
}{
	{"busiest", nil}, // the order of Stats.Methods
	{"slowest p95", func(a, b recordings.MethodStats) int { return cmp.Compare(b.P95, a.P95) }},
	{"most errors", func(a, b recordings.MethodStats) int { return cmp.Compare(b.Errors, a.Errors) }},
	{"most bytes", func(a, b recordings.MethodStats) int {
		return cmp.Compare(b.BytesIn+b.BytesOut, a.BytesIn+a.BytesOut)
	}},
}

// NewStatsPage makes the stats page, counting live events from now.
func NewStatsPage(c *Common) *StatsPage {
	return &StatsPage{c: c, stats: &recordings.Stats{}, since: time.Now(), what: "live", dirty: true}
}

// SetSize sets the page size.
func (p *StatsPage) SetSize(w, h int) {
	p.w, p.h = w, h
	p.clamp()
}

// Reset starts the live figures again (a switch to another server), naming what they cover.
func (p *StatsPage) Reset(what string, now time.Time) {
	p.stats, p.since, p.what, p.dirty = &recordings.Stats{}, now, what, true
	p.cursor, p.off = 0, 0
}

// Observe counts live events.
func (p *StatsPage) Observe(evs []*session.Event) {
	for _, ev := range evs {
		p.stats.AddEvent(ev)
	}
	if len(evs) > 0 {
		p.dirty = true
	}
}

// CountCmd counts an opened recording's figures from the whole file, once.
func (p *StatsPage) CountCmd(r *recordings.Reader) tea.Cmd {
	if p.loading || p.what == "recording" {
		return nil
	}
	p.loading, p.what = true, "recording"
	return func() tea.Msg {
		st, err := r.Stats(context.Background(), nil)
		return statsMsg{stats: st, err: err}
	}
}

// Refresh works the rows out again when events came in (called while the page shows).
func (p *StatsPage) Refresh() {
	if !p.dirty {
		return
	}
	p.dirty = false
	p.rows, p.total = p.stats.Methods(), p.stats.Total()
	if less := statsSorts[p.sortBy].less; less != nil {
		slices.SortStableFunc(p.rows, less)
	}
	p.clamp()
}

// Selected is the method of the row under the cursor ("" when there is none).
func (p *StatsPage) Selected() string {
	if p.cursor < len(p.rows) {
		return p.rows[p.cursor].Method
	}
	return ""
}

// Keys are the page's bindings for the help line.
func (p *StatsPage) Keys() []key.Binding {
	k := p.c.Keys
	return []key.Binding{k.StatsSort, k.StatsShow}
}

// Update moves the cursor and changes the order.
func (p *StatsPage) Update(msg tea.Msg) tea.Cmd {
	k := p.c.Keys
	switch msg := msg.(type) {
	case statsMsg:
		p.loading, p.err = false, msg.err
		if msg.stats != nil {
			p.stats, p.dirty = msg.stats, true
			p.Refresh()
		}
		return nil
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, k.Up):
			p.cursor--
		case key.Matches(msg, k.Down):
			p.cursor++
		case key.Matches(msg, k.PageUp):
			p.cursor -= max(1, p.h-4)
		case key.Matches(msg, k.PageDown):
			p.cursor += max(1, p.h-4)
		case key.Matches(msg, k.Top):
			p.cursor = 0
		case key.Matches(msg, k.Bottom):
			p.cursor = len(p.rows)
		case key.Matches(msg, k.StatsSort):
			p.sortBy = (p.sortBy + 1) % len(statsSorts)
			p.dirty = true
			p.Refresh()
		}
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelUp:
			p.cursor -= 3
		case tea.MouseWheelDown:
			p.cursor += 3
		}
	}
	p.clamp()
	return nil
}

// clamp keeps the cursor on a row and the window around it.
func (p *StatsPage) clamp() {
	p.cursor = min(max(0, p.cursor), max(0, len(p.rows)-1))
	vis := max(1, p.h-4) // title, blank, header and the total take 4 lines
	if p.cursor < p.off {
		p.off = p.cursor
	}
	if p.cursor >= p.off+vis {
		p.off = p.cursor - vis + 1
	}
	p.off = min(max(0, p.off), max(0, len(p.rows)-vis))
}

// statsCol is a numeric column of the table.
type statsCol struct {
	head string
	w    int
	val  func(m recordings.MethodStats) string
}

// statsCols are the numeric columns for width w: at 110 cells and more, requests,
// notifications and responses apart; narrower, messages sent (requests and notifications)
// together and responses left out.
func statsCols(w int) []statsCol {
	n := func(v int) string { return fmt.Sprint(v) }
	lat := func(v float64) string {
		if v == 0 {
			return "-"
		}
		return textfmt.Duration(time.Duration(v * float64(time.Millisecond)))
	}
	tail := []statsCol{
		{"errors", 7, func(m recordings.MethodStats) string { return n(m.Errors) }},
		{"p50", 8, func(m recordings.MethodStats) string { return lat(m.P50) }},
		{"p95", 8, func(m recordings.MethodStats) string { return lat(m.P95) }},
		{"p99", 8, func(m recordings.MethodStats) string { return lat(m.P99) }},
		{"out", 7, func(m recordings.MethodStats) string { return textfmt.Size(m.BytesOut) }},
		{"in", 7, func(m recordings.MethodStats) string { return textfmt.Size(m.BytesIn) }},
	}
	if w < 110 {
		return append([]statsCol{{"count", 6, func(m recordings.MethodStats) string { return n(m.Requests + m.Notifications) }}}, tail...)
	}
	return append([]statsCol{
		{"requests", 9, func(m recordings.MethodStats) string { return n(m.Requests) }},
		{"notifs", 7, func(m recordings.MethodStats) string { return n(m.Notifications) }},
		{"responses", 10, func(m recordings.MethodStats) string { return n(m.Responses) }},
	}, tail...)
}

// View renders the page: exactly h lines of w cells.
func (p *StatsPage) View() string {
	if p.w <= 0 || p.h <= 0 {
		return ""
	}
	s := p.c.Styles
	title := " " + s.PaneTitleFocused.Render("Traffic by method") + "  "
	switch p.what {
	case "recording":
		title += s.Muted.Render("the whole recording")
	case "live":
		title += s.Muted.Render("since " + p.since.Format("15:04:05"))
	default:
		title += s.Muted.Render(p.what + " · since " + p.since.Format("15:04:05"))
	}
	title += s.Muted.Render(" · by " + statsSorts[p.sortBy].name)
	out := []string{title, ""}
	switch {
	case p.loading:
		out = append(out, "   "+s.Muted.Render("counting the recording's lines…"))
	case p.err != nil:
		out = append(out, "   "+s.Error.Render("counting failed: "+p.err.Error()))
	case len(p.rows) == 0:
		out = append(out, "   "+s.Muted.Render("no traffic yet"))
	default:
		out = append(out, p.table()...)
	}
	return textfmt.FitBlock(strings.Join(out, "\n"), p.w, p.h)
}

// table is the header, the visible rows and the total.
func (p *StatsPage) table() []string {
	s := p.c.Styles
	cols := statsCols(p.w)
	numW := 0
	for _, c := range cols {
		numW += c.w
	}
	nameW := max(8, p.w-numW-2)
	line := func(name string, vals []string, st func(string) string) string {
		var b strings.Builder
		b.WriteString(" " + st(textfmt.Pad(textfmt.Clip(name, nameW-1), nameW)))
		for i, c := range cols {
			b.WriteString(st(textfmt.PadLeft(textfmt.Clip(vals[i], c.w-1), c.w)))
		}
		return b.String()
	}
	heads := make([]string, len(cols))
	for i, c := range cols {
		heads[i] = c.head
	}
	out := []string{line("method", heads, func(x string) string { return s.Muted.Render(x) })}
	vals := func(m recordings.MethodStats) []string {
		v := make([]string, len(cols))
		for i, c := range cols {
			v[i] = c.val(m)
		}
		return v
	}
	vis := max(1, p.h-4)
	end := min(len(p.rows), p.off+vis)
	for i := p.off; i < end; i++ {
		m := p.rows[i]
		st := func(x string) string { return s.Text.Render(x) }
		if m.Errors > 0 {
			st = func(x string) string { return s.Error.Render(x) }
		}
		row := line(escapeText(m.Method), vals(m), st)
		if i == p.cursor {
			row = s.SelectRow(textfmt.FitRow(row, p.w))
		}
		out = append(out, row)
	}
	return append(out, line("all methods", vals(p.total), func(x string) string { return s.Bold.Render(x) }))
}
