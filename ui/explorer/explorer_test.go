package explorer

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/internal/common"
)

// demoListFixtures are the demo server's lists as `mcpscope list tools|resources|templates|prompts`
// printed them.
func demoListFixtures(t *testing.T) map[session.ListKind][]json.RawMessage {
	t.Helper()
	files := map[session.ListKind]string{
		session.ListTools: "demo-tools.json", session.ListResources: "demo-resources.json",
		session.ListTemplates: "demo-templates.json", session.ListPrompts: "demo-prompts.json",
	}
	out := map[session.ListKind][]json.RawMessage{}
	for k, name := range files {
		b, err := os.ReadFile(filepath.Join("..", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		var items []json.RawMessage
		if err := json.Unmarshal(b, &items); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[k] = items
	}
	return out
}

// newDemoExplorer is an explorer of w×h showing the demo server's lists, on a fixed clock.
func newDemoExplorer(t *testing.T, w, h int) (*Explorer, map[session.ListKind][]json.RawMessage) {
	t.Helper()
	x := NewExplorer(common.NewCommon(nil))
	start := time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC)
	x.clock = func() time.Time { return start }
	x.SetSize(w, h)
	lists := demoListFixtures(t)
	x.SetLists(lists, map[session.ListKind]error{})
	return x, lists
}

// explorerScreen is the explorer's view without styles, checked to be exactly w×h.
func explorerScreen(t *testing.T, x *Explorer) string {
	t.Helper()
	v := x.View()
	checkPageBlock(t, v, x.w, x.h)
	return ansi.Strip(v)
}

func explorerHas(t *testing.T, text string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("missing %q in:\n%s", w, text)
		}
	}
}

func explorerSelected(x *Explorer) string {
	if it := x.selected(); it != nil {
		return it.label()
	}
	return ""
}

func TestExplorerShowsDemoLists(t *testing.T) {
	x, lists := newDemoExplorer(t, 140, 50)
	text := explorerScreen(t, x)
	if n := len(lists[session.ListTools]); n != 19 {
		t.Fatalf("fixture has %d tools", n)
	}
	explorerHas(t, text, "tools 19", "resources 30", "templates 1", "prompts 3",
		"▶add", "Add two numbers", "ro idem", "get_weather",
		"Adds two numbers between -1000 and 1000", "Annotations", "readOnlyHint     true",
		"destructiveHint  not set (default true)", "Input schema", `"title": "First addend"`)
	// The schema keeps the server's key order (type before properties), two-space indented.
	lines := x.detailLines(x.layout().Detail.W)
	var schema []string
	for _, l := range lines {
		schema = append(schema, ansi.Strip(l))
	}
	joined := strings.Join(schema, "\n")
	if i, j := strings.Index(joined, `"type": "object"`), strings.Index(joined, `"properties": {`); i < 0 || j < i {
		t.Errorf("inputSchema lost its key order:\n%s", joined)
	}
	explorerHas(t, joined, "\n    \"type\": \"object\",\n    \"properties\": {\n      \"a\": {")
}

func TestExplorerItemDetails(t *testing.T) {
	x, _ := newDemoExplorer(t, 140, 60)
	k := x.c.Keys
	find := func(name string) {
		t.Helper()
		for i, h := range x.tab().hits {
			if h.it.label() == name {
				x.tab().sel = i
				return
			}
		}
		t.Fatalf("no %q in %s", name, x.tab().kind)
	}
	find("get_weather")
	explorerHas(t, explorerScreen(t, x), "Output schema", `"temperature"`)

	x.Update(explorerKey(k.NextTab))
	find("chime")
	explorerHas(t, explorerScreen(t, x), "demo://chime.wav", "uri         demo://chime.wav", "mimeType    audio/wav", "size        4.8K (4844 bytes)")

	x.Update(explorerKey(k.NextTab))
	explorerHas(t, explorerScreen(t, x), "▶notes", "demo://notes/{topic}", "uriTemplate demo://notes/{topic}", "mimeType    text/markdown")

	x.Update(explorerKey(k.NextTab))
	find("code_review")
	explorerHas(t, explorerScreen(t, x), "3 args", "Arguments", "language  required  Language. Programming language of the code.",
		"focus     optional  Focus. What to pay most attention to.")
}

func TestExplorerTabs(t *testing.T) {
	x, _ := newDemoExplorer(t, 120, 30)
	k := x.c.Keys
	steps := []struct {
		key  string
		kind session.ListKind
	}{
		{"right", session.ListResources},
		{"l", session.ListTemplates},
		{"l", session.ListPrompts},
		{"right", session.ListTools},
		{"left", session.ListPrompts},
		{"h", session.ListTemplates},
	}
	for _, st := range steps {
		x.Update(explorerPress(st.key))
		if got := x.tab().kind; got != st.kind {
			t.Fatalf("after %s: tab %s, want %s", st.key, got, st.kind)
		}
	}
	// Selections are kept per tab.
	x.selectTab(1)
	x.Update(explorerKey(k.Down))
	x.Update(explorerKey(k.Down))
	x.selectTab(0)
	x.selectTab(1)
	if got := explorerSelected(x); got != "counter" {
		t.Errorf("resources selection = %q, want counter", got)
	}
	explorerHas(t, explorerScreen(t, x), "▶counter", "demo://counter")
	x.Update(explorerKey(k.Bottom))
	if got := explorerSelected(x); got != "readme" {
		t.Errorf("bottom = %q, want readme", got)
	}
	explorerHas(t, explorerScreen(t, x), "▶readme")
}

func TestExplorerFilter(t *testing.T) {
	x, _ := newDemoExplorer(t, 140, 30)
	k := x.c.Keys
	x.Update(explorerKey(k.Filter))
	if !x.Capturing() {
		t.Fatal("the filter input does not capture keys")
	}
	for _, r := range "wea" {
		x.Update(explorerPress(string(r)))
	}
	if got := explorerSelected(x); got != "get_weather" {
		t.Errorf("best match for %q = %q, want get_weather", x.query, got)
	}
	text := explorerScreen(t, x)
	explorerHas(t, text, "/wea", "Weather forecast")
	if h := x.tab().hits[0]; len(h.namePos) != 3 || h.namePos[0] != 4 {
		t.Errorf("highlighted runes %v, want [4 5 6]", h.namePos)
	}
	// j and k are letters of the pattern while typing, not moves.
	x.Update(explorerPress("k"))
	if x.query != "weak" {
		t.Errorf("query = %q, want weak", x.query)
	}
	x.Update(explorerPress("backspace"))
	x.Update(explorerKey(k.Open))
	if x.Capturing() || x.query != "wea" {
		t.Fatalf("enter should apply the filter: capturing=%v query=%q", x.Capturing(), x.query)
	}
	// Every tab is filtered, and the tabs say so.
	explorerHas(t, explorerScreen(t, x), "/wea", "tools "+explorerCount(x, 0))
	x.Update(explorerKey(k.NextTab))
	if got := len(x.tab().hits); got >= len(x.tab().items) {
		t.Errorf("resources not filtered: %d of %d", got, len(x.tab().items))
	}
	// esc clears an applied filter (the model asks Back first).
	if !x.Back() || x.query != "" || len(x.tab().hits) != len(x.tab().items) {
		t.Errorf("Back did not clear the filter: query %q, %d of %d", x.query, len(x.tab().hits), len(x.tab().items))
	}
	if x.Back() {
		t.Error("Back with nothing to undo should let the model leave the page")
	}

	// A pattern that matches nothing says so; esc while typing clears it.
	x.Update(explorerKey(k.Filter))
	for _, r := range "zzzq" {
		x.Update(explorerPress(string(r)))
	}
	explorerHas(t, explorerScreen(t, x), "no resources match /zzzq", "resources 0/30")
	x.Update(explorerKey(k.Back))
	if x.Capturing() || x.query != "" {
		t.Errorf("esc while typing: capturing=%v query=%q", x.Capturing(), x.query)
	}
}

func explorerCount(x *Explorer, tab int) string {
	return x.count(x.tabs[tab])
}

func TestExplorerFilterRanksNameMatches(t *testing.T) {
	x, _ := newDemoExplorer(t, 140, 30)
	x.setQuery("ask")
	var names []string
	for _, h := range x.tab().hits {
		names = append(names, h.it.label())
	}
	if len(names) < 2 || !strings.HasPrefix(names[0], "ask_") || !strings.HasPrefix(names[1], "ask_") {
		t.Errorf("name matches should come first: %v", names)
	}
	x.setQuery("ADD")
	if got := explorerSelected(x); got != "add" {
		t.Errorf("case-insensitive: got %q", got)
	}
}

func TestExplorerListChanged(t *testing.T) {
	x, lists := newDemoExplorer(t, 140, 30)
	start := x.clock()
	x.Update(explorerKey(x.c.Keys.Down)) // ask_url
	tools := lists[session.ListTools]
	fewer := append([]json.RawMessage{}, tools[1:]...) // "add" is gone
	more := append(fewer, json.RawMessage(`{"name":"extra","inputSchema":{"type":"object"}}`))

	cmd := x.UpdateLists(map[session.ListKind][]json.RawMessage{session.ListTools: more})
	if cmd == nil {
		t.Fatal("UpdateLists returned no command to age the notice")
	}
	text := explorerScreen(t, x)
	explorerHas(t, text, "tools list changed: 19 → 19 +extra −add (0s ago)", "tools 19 •")
	if got := explorerSelected(x); got != "ask_url" {
		t.Errorf("selection after refresh = %q, want ask_url kept", got)
	}

	// The tick advances the clock; a second change while ticking needs no second ticker.
	if cmd := x.Update(ExplorerTickMsg(start.Add(2 * time.Second))); cmd == nil {
		t.Error("the notice stopped ticking before it expired")
	}
	explorerHas(t, explorerScreen(t, x), "tools list changed: 19 → 19 +extra −add (2s ago)")
	if cmd := x.UpdateLists(map[session.ListKind][]json.RawMessage{session.ListTools: fewer}); cmd != nil {
		t.Error("a second ticker was started")
	}
	explorerHas(t, explorerScreen(t, x), "tools list changed: 19 → 18 −extra (0s ago)")

	// After noticeTTL the notice goes and the ticker stops.
	if cmd := x.Update(ExplorerTickMsg(start.Add(noticeTTL))); cmd != nil {
		t.Error("the ticker kept going after the notice expired")
	}
	if text := explorerScreen(t, x); strings.Contains(text, "list changed") || strings.Contains(text, "•") {
		t.Errorf("the notice outlived its time:\n%s", text)
	}
	explorerHas(t, explorerScreen(t, x), "tools 18")
	// A later change starts a new ticker.
	if cmd := x.UpdateLists(map[session.ListKind][]json.RawMessage{session.ListPrompts: lists[session.ListPrompts][:1]}); cmd == nil {
		t.Error("no ticker for a later change")
	}
	explorerHas(t, explorerScreen(t, x), "prompts list changed: 3 → 1 −greet −showcase", "prompts 1 •")
}

func TestExplorerListErrors(t *testing.T) {
	x := NewExplorer(common.NewCommon(nil))
	x.SetSize(80, 20)
	explorerHas(t, explorerScreen(t, x), "tools …", "waiting for the server's lists")
	lists := demoListFixtures(t)
	delete(lists, session.ListTemplates)
	delete(lists, session.ListPrompts)
	x.SetLists(lists, map[session.ListKind]error{session.ListPrompts: errors.New("JSON-RPC error -32603: prompts are broken")})
	text := explorerScreen(t, x)
	explorerHas(t, text, "templates –", "prompts – !")
	x.selectTab(2)
	explorerHas(t, explorerScreen(t, x), `the server does not offer resource templates (no "resources" capability)`)
	x.selectTab(3)
	explorerHas(t, explorerScreen(t, x), "could not list prompts: JSON-RPC error -32603: prompts are broken")
	x.selectTab(0)
	x.SetLists(map[session.ListKind][]json.RawMessage{session.ListTools: {}}, nil)
	explorerHas(t, explorerScreen(t, x), "tools 0", "the server lists no tools")
}

func TestExplorerLayout(t *testing.T) {
	tests := []struct {
		w, h    int
		zoom    bool
		rows    int
		stacked bool
		listW   int
		listH   int
	}{
		{140, 40, false, 19, false, 56, 38},
		{100, 30, false, 3, false, 40, 28},
		{99, 30, false, 30, true, 99, 10},
		{99, 30, false, 3, true, 99, 3},
		{99, 30, false, 1, true, 99, 3},
		{60, 20, false, 19, true, 60, 6},
		{60, 7, false, 19, false, 60, 5},
		{140, 40, true, 19, false, 0, 0},
		{20, 3, false, 19, false, 20, 1},
		{20, 1, false, 19, false, 20, 0},
	}
	for _, tt := range tests {
		l := explorerLayout(tt.w, tt.h, tt.zoom, tt.rows)
		if l.Stacked != tt.stacked || l.List.W != tt.listW || l.List.H != tt.listH {
			t.Errorf("%dx%d zoom=%v rows=%d: stacked=%v list %dx%d, want %v %dx%d", tt.w, tt.h, tt.zoom, tt.rows,
				l.Stacked, l.List.W, l.List.H, tt.stacked, tt.listW, tt.listH)
		}
		used := explorerHeader + l.List.H + l.Detail.H
		switch {
		case l.Stacked:
			used++
		case l.List.W > 0 && l.Detail.W > 0:
			used = explorerHeader + l.List.H
			if l.List.W+2+l.Detail.W != tt.w {
				t.Errorf("%dx%d: widths %d+2+%d", tt.w, tt.h, l.List.W, l.Detail.W)
			}
		}
		if used != max(tt.h, explorerHeader) {
			t.Errorf("%dx%d zoom=%v: %d lines used of %d (%+v)", tt.w, tt.h, tt.zoom, used, tt.h, l)
		}
	}
}

func TestExplorerNarrowAndZoom(t *testing.T) {
	x, _ := newDemoExplorer(t, 80, 30)
	k := x.c.Keys
	text := explorerScreen(t, x)
	explorerHas(t, text, "▶add", "─ add ─", "Adds two numbers")
	if strings.Index(text, "▶add") > strings.Index(text, "Adds two numbers") {
		t.Error("narrow: the list should be above the detail")
	}
	x.Update(explorerKey(k.Zoom))
	text = explorerScreen(t, x)
	if strings.Contains(text, "▶add") || !strings.Contains(text, "Input schema") {
		t.Errorf("z should give the detail the page:\n%s", text)
	}
	// Up and down scroll the detail now; the selection stays.
	first := strings.Split(text, "\n")[2]
	x.Update(explorerKey(k.Down))
	if got := strings.Split(explorerScreen(t, x), "\n")[2]; got == first || explorerSelected(x) != "add" {
		t.Errorf("down in the full detail should scroll it (first line %q, selected %q)", got, explorerSelected(x))
	}
	if !x.Back() || x.zoom {
		t.Error("esc should close the full detail")
	}
	x.Update(explorerKey(k.PageDown))
	if x.dOff == 0 {
		t.Error("page down should scroll the detail under the list")
	}
	x.Update(explorerKey(k.Down))
	if x.dOff != 0 || explorerSelected(x) != "ask_url" {
		t.Errorf("a new selection starts its detail at the top (offset %d, %q)", x.dOff, explorerSelected(x))
	}
}

func TestExplorerFits(t *testing.T) {
	for _, size := range [][2]int{{140, 40}, {100, 12}, {99, 30}, {60, 8}, {30, 5}, {20, 3}, {20, 1}} {
		x, _ := newDemoExplorer(t, size[0], size[1])
		for tab := range x.tabs {
			x.selectTab(tab)
			explorerScreen(t, x)
		}
		x.Update(explorerKey(x.c.Keys.Open))
		explorerScreen(t, x)
	}
}

// TestExplorerNamesUseTheWidth: a long tool name beside a short title is shown whole when
// the row has room, instead of being cut at 45% of the list.
func TestExplorerNamesUseTheWidth(t *testing.T) {
	x := NewExplorer(common.NewCommon(nil))
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

// TestLastArgsSaveFailed: a failed write of the remembered arguments reaches the status line.
func TestLastArgsSaveFailed(t *testing.T) {
	x := NewExplorer(common.NewCommon(nil))
	cmd := x.Update(lastArgsSavedMsg{err: errors.New("disk full")})
	if cmd == nil {
		t.Fatal("a failed save says nothing")
	}
	if st, ok := cmd().(StatusMsg); !ok || !st.Error || !strings.Contains(st.Text, "remembered arguments not saved: disk full") {
		t.Errorf("the status of a failed save: %#v", st)
	}
}

// TestJoinPaths lists saved files without brackets.
func TestJoinPaths(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want string
	}{
		{[]string{"file.png"}, "file.png"},
		{[]string{"a.png", "b.wav"}, "a.png and b.wav"},
		{[]string{"a", "b", "c"}, "a, b and c"},
		{[]string{"a", "b", "c", "d", "e"}, "a, b, c and 2 more"},
	} {
		if got := joinPaths(c.in); got != c.want {
			t.Errorf("joinPaths(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
