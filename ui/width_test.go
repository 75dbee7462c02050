package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestTextRowsUseTheWidth: a row without an id, size or latency (stderr, state, transport)
// gives those columns' room to its text, at 160 columns (the timeline beside the detail) as
// at 80; a frame row keeps its columns.
func TestTextRowsUseTheWidth(t *testing.T) {
	m := newTimelineModel(t, Options{}, 160, 45)
	w := newEvWire()
	text := "demo: serving MCP on stdio (protocol revisions from 2024-11-05)" // longer than the 45 cells of a frame row's label
	call := w.req(dirOut, 1, "tools/list", `{}`)
	feedEvents(m, w.stderr(text), call)
	width := m.layout.Timeline.W
	es := m.hist.Entries()
	row := ansi.Strip(rowText(m.c.Styles, es[0], width, m.hist.Start, w.now))
	if !strings.Contains(row, text) || ansi.StringWidth(row) != width {
		t.Errorf("stderr row at %d cells: %q, want the whole text", width, row)
	}
	if req := ansi.Strip(rowText(m.c.Styles, es[1], width, m.hist.Start, w.now)); !strings.Contains(req, "#1") || ansi.StringWidth(req) != width {
		t.Errorf("request row: %q", req)
	}
}
