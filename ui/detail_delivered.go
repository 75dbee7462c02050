package ui

import (
	"bytes"
	"encoding/json"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/ui/traffic"
)

// A request mcpscope sent that was held at a breakpoint and edited is recorded as it came;
// the server got the edit (Entry.Delivered, kept from the hold's note: one line, at most
// its first 4 KiB). The detail opens on what was delivered, as the row summarises it; the
// Original key shows the bytes as they came, and back.

// canOriginal reports whether the Original key does something: the body shown is of an
// edited request.
func (d *Detail) canOriginal() bool {
	e := d.target()
	return e != nil && d.isFrame(e) && editedRequest(e)
}

// toggleOriginal switches the edited request's body between delivered and original.
func (d *Detail) toggleOriginal() tea.Cmd {
	if !d.canOriginal() {
		return nil
	}
	d.orig, d.offset = !d.orig, 0
	d.rebuild()
	what := "delivered (as edited)"
	if d.orig {
		what = "as it came, before the edit"
	}
	return tea.Batch(d.highlightCmds(), statusCmd("detail: the request "+what, false))
}

// delivered is the edited request e as the server got it, secrets masked, when that is
// what the pane shows; false otherwise.
func (d *Detail) delivered(e *traffic.Entry) ([]byte, bool) {
	if d.orig || !d.isFrame(e) || !editedRequest(e) {
		return nil, false
	}
	return d.c.Mask.Bytes([]byte(e.Delivered)), true
}

// isCutNote reports whether b, a message quoted by a hold's note, is only its head (the
// note cuts at 4 KiB and ends the text with "…").
func isCutNote(b []byte) bool {
	return !json.Valid(b) && bytes.HasSuffix(b, []byte("…"))
}

// deliveredBody is the body of an edited request as delivered (bounded: a note keeps at
// most 4 KiB, coloured by the one-pass colorizer); ok is false when the pane shows the
// frame itself.
func (d *Detail) deliveredBody(e *traffic.Entry, w int) (bodyView, int, bool) {
	b, ok := d.delivered(e)
	if !ok {
		return bodyView{}, 0, false
	}
	p := d.c.Styles.JSON()
	if d.raw || !json.Valid(b) {
		return plainBody(b, w, "", p.Escape), bodyWire, true
	}
	return fastBody(p, b, w), bodyPretty, true
}

// deliveredTitle says above the body of an edited request which bytes are shown and which
// key shows the others; "" for any other frame.
func (d *Detail) deliveredTitle(e *traffic.Entry) string {
	if !d.isFrame(e) || !editedRequest(e) {
		return ""
	}
	k := d.c.Keys.Original.Help().Key
	if d.orig {
		return "⏸ as it came, before the edit: the server did not get these bytes · " + k + " shows what it got"
	}
	t := "⏸ edited at a breakpoint: what the server got · " + k + " shows the original"
	if isCutNote([]byte(e.Delivered)) {
		t += " (only the first 4 KiB of the edit were kept)"
	}
	return t
}
