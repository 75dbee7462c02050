package ui

import (
	"bytes"
	"fmt"
	"math"
	"slices"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/ui/traffic"
)

// pairView is how the detail pane shows a request and its response.
type pairView int

// The pair views, in the order Swap cycles through them. The choice stays while the
// selection moves.
const (
	// pairBoth: both, side by side when each fits its half, else the request above the
	// response.
	pairBoth pairView = iota
	// pairRequest: the request alone, at the pane's width.
	pairRequest
	// pairResponse: the response alone.
	pairResponse
)

// String names the view (for the status line and the pane).
func (v pairView) String() string {
	return [...]string{"request and response", "the request alone", "the response alone"}[v]
}

// next is the view Swap moves to.
func (v pairView) next() pairView { return (v + 1) % 3 }

// needMaxBytes bounds the bytes measured for a body's width; a longer frame stacks.
const needMaxBytes = 256 << 10

// sideBySide reports whether req and resp each fit a half of the pane: the pane is at
// least pairSideBySide wide and no line of either body (pretty, or the wire text in raw
// mode) is wider than its half, so nothing wraps mid-token.
func (d *Detail) sideBySide(req, resp *traffic.Entry) bool {
	if d.w < pairSideBySide {
		return false
	}
	left := (d.w - 3) / 2
	right := d.w - 3 - left
	return d.fits(req, left) && d.fits(resp, right)
}

// fits reports whether every line of e's body fits w cells.
func (d *Detail) fits(e *traffic.Entry, w int) bool {
	f := e.Ev.Frame
	if len(f.Raw) > needMaxBytes || e.Clipped > 0 {
		return false
	}
	k := needKey{e, d.raw}
	widths, ok := d.needs[k]
	if !ok {
		widths = lineWidths(f.Raw, d.raw || !frameIsJSON(f))
		if len(d.needs) > 256 {
			clear(d.needs)
		}
		d.needs[k] = widths
	}
	return slices.Max(widths) <= w
}

// needKey names a body measured: the entry, and whether as wire text.
type needKey struct {
	e   *traffic.Entry
	raw bool
}

// lineWidths are the widths of a body's lines: pretty-printed JSON's, or the wire
// text's (as one line per line of the text).
//
// Bounded: a body over maxBodyBytes is not measured; it fits no column, so its pair is
// shown stacked.
func lineWidths(raw []byte, wire bool) []int {
	if len(raw) > maxBodyBytes {
		return []int{math.MaxInt}
	}
	text := raw
	if !wire {
		if p, err := prettyJSON(raw); err == nil {
			text = p
		}
	}
	var out []int
	for l := range bytes.SplitSeq(text, []byte{'\n'}) {
		out = append(out, ansi.StringWidth(string(l)))
	}
	if len(out) == 0 {
		out = []int{math.MaxInt}
	}
	return out
}

// pairLines lays out a pair after the selected entry's header: side by side (request on
// the left), stacked (the selected side first), or one side alone, with a line saying
// which and how Swap changes it.
func (d *Detail) pairLines(b *textBlock, req, resp *traffic.Entry) {
	s, k := d.c.Styles, d.c.Keys
	e := d.entry
	switch d.side {
	case pairRequest, pairResponse:
		shown := req
		if d.side == pairResponse {
			shown = resp
		}
		b.para(s.Accent, fmt.Sprintf("showing %s · %s shows %s", d.side, k.Swap.Help().Key, d.side.next()), 0)
		frameHeader(b, shown)
		b.blank()
		d.addLines(b.lines)
		d.addLines(d.bodyBlock(shown, d.w))
		return
	}
	frameHeader(b, e)
	b.blank()
	if !d.sideBySide(req, resp) {
		// Stacked, the selected side first: what the user pointed at needs no scrolling.
		first, second, order := req, resp, "request above response"
		if e == resp {
			first, second, order = resp, req, "response above request"
		}
		b.para(s.Muted, fmt.Sprintf("%s (too wide for halves) · %s shows %s", order, k.Swap.Help().Key, d.side.next()), 0)
		d.addLines(b.lines)
		d.addLines(append(d.columnTitle(first, d.w), d.bodyBlock(first, d.w)...))
		d.addLines([]string{""})
		d.addLines(append(d.columnTitle(second, d.w), d.bodyBlock(second, d.w)...))
		return
	}
	d.addLines(b.lines)
	left := (d.w - 3) / 2
	right := d.w - 3 - left
	l := append(d.columnTitle(req, left), d.bodyBlock(req, left)...)
	r := append(d.columnTitle(resp, right), d.bodyBlock(resp, right)...)
	for i := range max(len(l), len(r)) {
		dl := dline{split: true}
		if i < len(l) {
			dl.s = l[i]
		}
		if i < len(r) {
			dl.r = r[i]
		}
		d.content = append(d.content, dl)
	}
}
