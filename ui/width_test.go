package ui

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/session"
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

// TestExplorerNamesUseTheWidth: a long tool name beside a short title is shown whole when
// the row has room, instead of being cut at 45% of the list.
func TestExplorerNamesUseTheWidth(t *testing.T) {
	x := NewExplorer(NewCommon(nil))
	x.SetSize(160, 20)
	long := "get_forecast_for_a_city_by_name_and_day"
	tools := []json.RawMessage{
		json.RawMessage(`{"name":"` + long + `","title":"Forecast","inputSchema":{"type":"object"}}`),
		json.RawMessage(`{"name":"add","title":"Add","inputSchema":{"type":"object"}}`),
	}
	x.SetLists(map[session.ListKind][]json.RawMessage{session.ListTools: tools}, map[session.ListKind]error{})
	scr := explorerScreen(t, x)
	if !strings.Contains(scr, long+" Forecast") && !strings.Contains(scr, long+"  Forecast") {
		t.Errorf("the long name is cut or not followed by its title:\n%s", scr)
	}
	// When the titles need the room, the name still keeps 45% of the list.
	x.SetSize(100, 20)
	long2 := strings.Repeat("x", 60)
	tools = append(tools, json.RawMessage(`{"name":"`+long2+`","title":"`+strings.Repeat("t", 60)+`","inputSchema":{"type":"object"}}`))
	x.SetLists(map[session.ListKind][]json.RawMessage{session.ListTools: tools}, map[session.ListKind]error{})
	scr = explorerScreen(t, x)
	if !strings.Contains(scr, strings.Repeat("x", 10)+"…") {
		t.Errorf("a name longer than the row is not cut:\n%s", scr)
	}
}
