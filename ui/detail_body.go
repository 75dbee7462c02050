package ui

import (
	"fmt"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// rebuild lays out the pane's lines for the current entry, size, mode and styles, and notes
// which highlighted bodies they use.
func (d *Detail) rebuild() {
	d.content = d.content[:0]
	clear(d.want)
	if d.w <= 0 || d.h <= 0 {
		return
	}
	s := d.c.Styles
	b := newTextBlock(s, d.w)
	b.mask = d.c.Mask
	switch {
	case d.showsFailure():
		b.para(s.Text, d.failure, 0)
	case d.entry == nil:
		b.para(s.Muted, "Nothing selected: pick a row in the timeline to see it here in full.", 0)
	case !d.isFrame(d.entry):
		eventText(b, d.entry)
	default:
		d.frameView(b)
		return
	}
	d.addLines(b.lines)
}

func (d *Detail) addLines(lines []string) {
	for _, l := range lines {
		d.content = append(d.content, dline{s: l})
	}
}

// frameView lays out a frame: alone, or with its pair (see pairLines).
func (d *Detail) frameView(b *textBlock) {
	e := d.entry
	other := d.other(e)
	if other == nil {
		frameHeader(b, e)
		b.blank()
		d.addLines(b.lines)
		d.addLines(d.bodyBlock(e, d.w))
		return
	}
	req, resp := e, other
	if other.Ev.Seq < e.Ev.Seq {
		req, resp = other, e
	}
	d.pairLines(b, req, resp)
}

// columnTitle heads one column of a side-by-side pair.
func (d *Detail) columnTitle(e *traffic.Entry, w int) []string {
	s := d.c.Styles
	f := e.Ev.Frame
	t := eventArrow(s, e.Ev) + " " + kindStyle(s, f.Kind).Render(f.Kind.String())
	if !f.ID.IsZero() {
		t += " " + s.Subtle.Render("#"+escapeText(f.ID.String()))
	}
	if e.Ev.Corr.Latency > 0 {
		t += " " + s.Muted.Render(textfmt.Duration(e.Ev.Corr.Latency))
	}
	size := max(int64(len(f.Raw)), e.Ev.Recv.Size)
	if b, ok := d.delivered(e); ok && !isCutNote(b) {
		size = int64(len(e.Delivered)) // the body shown: what the server got
	}
	t += " " + s.Muted.Render(textfmt.Bytes(size))
	return []string{t}
}

// bodyBlock is a frame's body at width w: a title saying what is shown, the truncation
// badge when it was cut, and the lines.
func (d *Detail) bodyBlock(e *traffic.Entry, w int) []string {
	s, k := d.c.Styles, d.c.Keys
	v, mode := d.bodyOf(e, w)
	b := newTextBlock(s, w)
	b.mask = d.c.Mask
	if t := d.deliveredTitle(e); t != "" {
		b.para(s.Accent, t, 0)
	}
	if mode == bodyPretty {
		b.lines = append(b.lines, d.resultSection(e, w)...)
	}
	switch mode {
	case bodyPretty:
		b.para(s.PaneTitle, "pretty JSON · "+k.Raw.Help().Key+" shows the wire text", 0)
	case bodyWire:
		b.para(s.PaneTitle, "wire text as received · "+k.Raw.Help().Key+" shows pretty JSON", 0)
	case bodyHead:
		b.para(s.PaneTitle, "the first "+textfmt.Bytes(int64(len(e.Ev.Frame.Raw)))+" as received", 0)
	default:
		b.para(s.PaneTitle, "as received (not JSON)", 0)
	}
	if t := d.fullBadge(e, v); t != "" {
		b.para(s.Accent, t, 0)
	}
	if t := d.badge(e, v); t != "" {
		b.para(s.Accent, t, 0)
	}
	return append(b.lines, v.lines...)
}

// Body modes.
const (
	bodyPretty = iota
	bodyWire
	bodyNotJSON
	bodyHead // the head of a frame held cut, as received
)

// bodyOf returns e's body at width w: the wire text in raw mode or when it is not JSON,
// otherwise pretty JSON from the highlight cache, or from the fast colorizer until chroma's
// result arrives.
func (d *Detail) bodyOf(e *traffic.Entry, w int) (bodyView, int) {
	s, f := d.c.Styles, e.Ev.Frame
	p, raw := s.JSON(), d.screenBytes(e)
	if v, mode, ok := d.deliveredBody(e, w); ok {
		return v, mode
	}
	switch {
	case d.raw:
		return plainBody(raw, w, "", p.Escape), bodyWire
	case !frameIsJSON(f) && e.Clipped == 0:
		return plainBody(raw, w, "", p.Escape), bodyNotJSON
	}
	k := hlKey{e, w, s.Dark}
	if e.Clipped > 0 {
		return d.clippedBody(e, k)
	}
	if len(raw) > maxBodyBytes {
		return fastBody(p, raw, w), bodyPretty // bounded work: chroma would read it all
	}
	d.want[k] = raw
	if v, ok := d.cache.get(k); ok {
		return v, bodyPretty
	}
	return fastBody(p, raw, w), bodyPretty
}

// screenBytes is e's frame as the screen may show it: its secrets masked before it is laid
// out, since a secret wrapped over two lines would escape the last pass over the screen
// (Model.Render). It is kept for the entries on screen.
func (d *Detail) screenBytes(e *traffic.Entry) []byte {
	if b, ok := d.shownRaw[e]; ok {
		return b
	}
	if len(d.shownRaw) >= 4 {
		clear(d.shownRaw)
	}
	b := d.c.Mask.Bytes(e.Ev.Frame.Raw)
	d.shownRaw[e] = b
	return b
}

// frameIsJSON reports whether a frame's bytes are a whole JSON value that can be shown
// pretty-printed (not a banner, not invalid UTF-8, not the head of an oversized frame).
func frameIsJSON(f *protocol.Frame) bool {
	if len(f.Raw) == 0 {
		return false
	}
	for _, fd := range f.Findings {
		switch fd.Code {
		case protocol.FindNotJSON, protocol.FindInvalidUTF8, protocol.FindTooLarge, protocol.FindEmptyLine:
			return false
		}
	}
	return true
}

// badge says how much of a cut body is shown and which keys give the whole text.
func (d *Detail) badge(e *traffic.Entry, v bodyView) string {
	if !v.cut {
		return ""
	}
	k := d.c.Keys
	wire := max(int64(len(e.Ev.Frame.Raw)), e.Ev.Recv.Size, e.Clipped)
	var msg string
	switch {
	case v.total > v.shown:
		msg = fmt.Sprintf("showing %s of %s lines (%s)", textfmt.Commas(int64(v.shown)), textfmt.Commas(int64(v.total)), textfmt.Bytes(wire))
	case v.total == 0 && v.shown >= maxBodyLines:
		msg = fmt.Sprintf("showing the first %s lines (%s)", textfmt.Commas(int64(v.shown)), textfmt.Bytes(wire))
	default:
		msg = fmt.Sprintf("showing the first %s of %s", textfmt.Bytes(int64(v.bytes)), textfmt.Bytes(wire))
	}
	return fmt.Sprintf("%s — %s pager, %s editor, %s save, %s copy", msg,
		k.Pager.Help().Key, k.Editor.Help().Key, k.Save.Help().Key, k.Copy.Help().Key)
}
