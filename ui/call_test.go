package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
)

// demoModel runs the model against the demo server over stdio until its lists are in,
// with a driver that runs the commands the model returns.
func demoModel(t *testing.T, w, h int) (*Model, *driver) {
	t.Helper()
	m := NewModel(NewCommon(nil), demoOptions(t, nil))
	d := newDriver(t, m)
	d.handle(tea.WindowSizeMsg{Width: w, Height: h})
	d.run(m.Init())
	d.until(60*time.Second, "the explorer's lists", func() bool {
		return m.explorer.Loaded() && m.explorer.Items(session.ListTools) > 0
	})
	return m, d
}

// keys hands key presses to the model through the driver, running their commands.
func (d *driver) keys(names ...string) {
	for _, n := range names {
		d.handle(keyPress(n))
	}
}

// typeText types s, a key press per rune.
func (d *driver) typeText(s string) {
	for _, r := range s {
		d.handle(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// selectItem selects the item called name on explorer tab tab (its label, uri or uri
// template, as sent or as shown).
func (d *driver) selectItem(tab int, name string) {
	d.t.Helper()
	if d.m.explorer.SelectItem(tab, name) {
		return
	}
	d.t.Fatalf("no %q on tab %d", name, tab)
}

// TestExplorerCallFlow calls add from its form against the demo server: the form opens
// from the inputSchema, typed values become the arguments, the session sends tools/call,
// the result shows in the explorer and T shows the response in the timeline.
func TestExplorerCallFlow(t *testing.T) {
	m, d := demoModel(t, 160, 48)
	d.keys("2")
	d.selectItem(0, "add")
	d.keys("enter")
	if !m.explorer.FormOpen() {
		t.Fatalf("enter did not open a form:\n%s", plainScreen(m))
	}
	scr := plainScreen(m)
	for _, want := range []string{"tools/call add", "a*: number", "First addend", "b*: number", "integer: [ ] false", "[ Send ]"} {
		if !strings.Contains(scr, want) {
			t.Errorf("the form lacks %q:\n%s", want, scr)
		}
	}
	d.keys("enter")
	d.typeText("1")
	d.keys("tab", "enter")
	d.typeText("2")
	d.keys("ctrl+s")
	d.until(30*time.Second, "the result of add", func() bool {
		r := selectedCall(m)
		return r != nil && r.Done
	})
	r := selectedCall(m)
	if r.Err != nil || m.explorer.FormOpen() {
		t.Fatalf("call failed: %v (form open: %v)", r.Err, m.explorer.FormOpen())
	}
	if got := string(r.Resp.Request.Frame.Params); !strings.Contains(got, `"arguments":{"a":1,"b":2,"integer":false}`) {
		t.Errorf("sent params %s", got)
	}
	scr = plainScreen(m)
	for _, want := range []string{"tools/call add", "1 + 2 = 3", `arguments {"a":1,"b":2,"integer":false}`} {
		if !strings.Contains(scr, want) {
			t.Errorf("the explorer lacks %q:\n%s", want, scr)
		}
	}
	d.keys("z") // the full detail expands the arguments
	if got := exDetail(m); !strings.Contains(got, "arguments") || !strings.Contains(got, `"integer": false`) {
		t.Errorf("the full detail does not expand the arguments:\n%s", got)
	}
	d.keys("z")
	// The answer can come back before the pump delivers the frames to the history.
	d.until(10*time.Second, "the request and response in the history", func() bool {
		e := selectedCall(m).Request
		return e != nil && e.Pair != nil
	})
	if e := selectedCall(m).Request; e.Ev.Seq != r.Resp.Request.Seq {
		t.Errorf("the run's request entry is not the request sent")
	}
	d.keys("T")
	d.until(10*time.Second, "the timeline after T", func() bool { return m.page == pageTraffic })
	if sel := m.timeline.Selected(); sel == nil || sel.Ev.Seq != r.Resp.Event.Seq {
		t.Fatalf("T did not select the response in the timeline")
	}
	if scr := plainScreen(m); !strings.Contains(scr, "Result") || !strings.Contains(scr, "1 + 2 = 3") {
		t.Errorf("the detail pane lacks the result section:\n%s", scr)
	}
}

// TestExplorerCallProgress shows a running call with its elapsed time and progress, and
// calls a tool without parameters at once.
func TestExplorerCallProgress(t *testing.T) {
	m, d := demoModel(t, 160, 48)
	d.keys("2")
	d.selectItem(0, "slow")
	d.keys("enter", "enter", "ctrl+u")
	d.typeText("1.5")
	d.keys("esc", "tab", "enter", "ctrl+u")
	d.typeText("3")
	d.keys("ctrl+s")
	d.until(30*time.Second, "the call's progress", func() bool {
		scr := plainScreen(m)
		return strings.Contains(scr, "calling slow… ⏱") && strings.Contains(scr, "[██")
	})
	d.until(30*time.Second, "the slow result", func() bool {
		r := selectedCall(m)
		return r != nil && r.Done
	})
	if r := selectedCall(m); r.Err != nil {
		t.Fatalf("slow failed: %v", r.Err)
	}
	d.selectItem(0, "no_args")
	d.keys("enter")
	if m.explorer.FormOpen() {
		t.Fatal("a tool without parameters opened a form")
	}
	d.until(30*time.Second, "the no_args result", func() bool {
		r := selectedCall(m)
		return r != nil && r.Done
	})
}

// TestExplorerPromptAndResources gets a prompt from a form with completion, reads a
// resource and a template, and subscribes to a resource that the server then changes.
func TestExplorerPromptAndResources(t *testing.T) {
	m, d := demoModel(t, 160, 48)
	x := m.explorer
	d.keys("2")
	tabOf := func(k session.ListKind) int {
		for i, kind := range []session.ListKind{session.ListTools, session.ListResources, session.ListTemplates, session.ListPrompts} {
			if kind == k {
				return i
			}
		}
		t.Fatalf("no %s tab", k)
		return 0
	}

	d.selectItem(tabOf(session.ListPrompts), "greet")
	d.keys("enter", "enter")
	d.typeText("Ann")
	d.keys("tab", "enter")
	d.typeText("pir")
	d.until(30*time.Second, "the style suggestion pirate", func() bool {
		sg := x.FormSuggestions()
		return len(sg) == 1 && sg[0] == "pirate"
	})
	d.keys("tab", "ctrl+s")
	d.until(30*time.Second, "the prompt", func() bool {
		r := selectedCall(m)
		return r != nil && r.Done
	})
	if scr := plainScreen(m); !strings.Contains(scr, "user ›") || !strings.Contains(scr, "pirate greeting for Ann") {
		t.Errorf("prompts/get result:\n%s", scr)
	}

	d.selectItem(tabOf(session.ListResources), "demo://readme")
	d.keys("enter")
	d.until(30*time.Second, "the readme", func() bool {
		r := selectedCall(m)
		return r != nil && r.Done
	})
	if scr := plainScreen(m); !strings.Contains(scr, "demo://readme · text/markdown") || !strings.Contains(scr, "mcpscope demo server") {
		t.Errorf("resources/read result:\n%s", scr)
	}

	d.selectItem(tabOf(session.ListTemplates), "demo://notes/{topic}")
	d.keys("enter", "enter")
	d.typeText("mcp")
	d.keys("ctrl+s")
	d.until(30*time.Second, "the note", func() bool {
		r := selectedCall(m)
		return r != nil && r.Done
	})
	if r := selectedCall(m); r.Err != nil || r.Target != "demo://notes/mcp" {
		t.Errorf("template read %q: %v", r.Target, r.Err)
	}

	d.selectItem(tabOf(session.ListResources), "demo://counter")
	d.keys("S")
	if !x.Subscribed("demo://counter") {
		t.Fatal("S did not subscribe")
	}
	// The demo speaks 2026-07-28: the subscription is a subscriptions/listen stream, in
	// effect once the server acknowledges it.
	d.until(30*time.Second, "the subscription's acknowledgement", func() bool {
		return hasFrame(m, protocol.ServerToClient, "notifications/subscriptions/acknowledged")
	})
	d.selectItem(tabOf(session.ListTools), "touch_resource")
	d.keys("enter", "ctrl+s")
	d.until(30*time.Second, "the updated badge", func() bool { return x.Updated("demo://counter") })
	d.selectItem(tabOf(session.ListResources), "demo://counter")
	if scr := plainScreen(m); !strings.Contains(screenRow(scr, "demo://counter"), "updated") {
		t.Errorf("no updated badge:\n%s", scr)
	}
	d.keys("enter")
	if x.Updated("demo://counter") {
		t.Error("reading the resource keeps its updated badge")
	}
	d.keys("S")
	if x.Subscribed("demo://counter") {
		t.Error("S again did not unsubscribe")
	}
	if !hasFrame(m, protocol.ServerToClient, "notifications/resources/updated") {
		t.Error("no notifications/resources/updated in the history")
	}
	d.until(30*time.Second, "the listen stream's end", func() bool { return m.hist.InFlight() == 0 })
}

// hasFrame reports whether the history holds a frame of method sent in direction dir.
func hasFrame(m *Model, dir protocol.Direction, method string) bool {
	for _, e := range m.hist.Entries() {
		if e.Ev != nil && e.Ev.Frame != nil && e.Ev.Dir == dir && e.Ev.Frame.Method == method {
			return true
		}
	}
	return false
}

// TestExplorerFormDraft: a form closed unsent with changes (esc twice: done editing, then
// cancel) opens again with them and says so; one closed unchanged keeps nothing; ctrl+r
// forgets the draft; sending forgets it too.
func TestExplorerFormDraft(t *testing.T) {
	m, d := demoModel(t, 160, 48)
	d.keys("2")
	d.selectItem(0, "add")
	d.keys("enter", "enter")
	d.typeText("41")
	d.keys("esc", "esc")
	d.until(5*time.Second, "the form closed, with the note on the kept draft", func() bool {
		return !m.explorer.FormOpen() && strings.Contains(plainScreen(m), "draft kept: tools/call add opens with what you typed")
	})
	d.keys("enter")
	if v, _, _ := m.explorer.FormValue(); !strings.Contains(string(v), `"a":41`) {
		t.Fatalf("the reopened form holds %s, want the draft's a=41", v)
	}
	d.until(5*time.Second, "the note on the restored draft", func() bool { return strings.Contains(plainScreen(m), "the draft you left unsent") })
	d.keys("ctrl+r")
	if v, _, _ := m.explorer.FormValue(); strings.Contains(string(v), "41") {
		t.Fatalf("ctrl+r left the draft: %s", v)
	}
	d.keys("esc")
	d.until(5*time.Second, "the form closed", func() bool { return !m.explorer.FormOpen() })
	if m.explorer.Drafts() != 0 {
		t.Fatalf("the unchanged form closed with a draft: %v", m.explorer.Drafts())
	}
	// A draft, then sent: no draft any more.
	d.keys("enter", "enter")
	d.typeText("1")
	d.keys("esc", "esc")
	d.until(5*time.Second, "the form closed", func() bool { return !m.explorer.FormOpen() })
	d.keys("enter", "tab", "enter")
	d.typeText("2")
	d.keys("ctrl+s")
	d.until(30*time.Second, "the result of add", func() bool {
		r := selectedCall(m)
		return r != nil && r.Done
	})
	if r := selectedCall(m); r.Err != nil || !strings.Contains(string(r.Resp.Request.Frame.Params), `"a":1,"b":2`) {
		t.Fatalf("the call from the draft: %v %s", r.Err, r.Resp.Request.Frame.Params)
	}
	if m.explorer.Drafts() != 0 {
		t.Fatalf("sending kept the draft: %v", m.explorer.Drafts())
	}
}

// TestFilterTypingMovesDetail: while a filter is typed, the detail pane shows the row the
// timeline selects, never one the filter hides.
func TestFilterTypingMovesDetail(t *testing.T) {
	m, d := demoModel(t, 160, 48)
	d.keys("/")
	for _, r := range "method:=prompts/list" {
		d.handle(tea.KeyPressMsg{Code: r, Text: string(r)})
		if sel := m.timeline.Selected(); m.detail.entry != sel {
			t.Fatalf("after %q the detail shows another row than the selection", m.filter.Value())
		}
	}
	if e := m.detail.entry; e != nil && !m.timeline.Query().Match(e) {
		t.Fatalf("the detail shows a row the filter hides: %s", e.Ev.Frame.Raw)
	}
}

// TestExplorerFooterNamesCall: at 80 columns the explorer's help line names enter and what
// it does to the selected item (call, get, read), before the moves that fill the line.
func TestExplorerFooterNamesCall(t *testing.T) {
	m, d := demoModel(t, 80, 24)
	d.keys("2")
	for tab, want := range map[int]string{0: "enter call", 3: "enter get"} {
		m.explorer.SelectTab(tab)
		ls := strings.Split(plainScreen(m), "\n")
		if foot := ls[len(ls)-1]; !strings.HasPrefix(strings.TrimSpace(foot), want) {
			t.Errorf("tab %d: the help line %q does not start with %q", tab, foot, want)
		}
	}
}
