package ui

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// demoList is a server picker of two demo servers from a config file; Current -1 starts
// the view on the picker.
func demoList(t *testing.T) *ServerList {
	t.Helper()
	opts := demoOptions(t, nil)
	bin := sessiontest.BuildMCPScope(t)
	src := session.ConfigSource{Host: "--config", Path: filepath.Join(t.TempDir(), "mcp.json")}
	return &ServerList{
		Current: -1,
		Looked:  []session.ConfigSource{src},
		Servers: []session.ConfiguredServer{
			{Source: src, Name: "demo-a", Spec: session.ServerSpec{Name: "demo-a", Command: []string{bin, "demo"}}},
			{Source: src, Name: "demo-b", Spec: session.ServerSpec{Name: "demo-b", Command: []string{bin, "demo"}}},
		},
		NewSession: func(session.ConfiguredServer, string) (*session.Session, error) { return opts.NewSession() },
	}
}

// TestModelServerPicker starts on the picker (a config file of several servers, none
// chosen), connects, switches, disconnects and connects again against the demo server:
// a marker row each time, the state in the status bar, the live stats and the status bar's
// error count reset on a switch.
func TestModelServerPicker(t *testing.T) {
	list := demoList(t)
	m := NewModel(NewCommon(nil), Options{Servers: list})
	d := newDriver(t, m)
	d.handle(tea.WindowSizeMsg{Width: 80, Height: 24})
	d.run(m.Init())
	scr := plainScreen(m)
	if m.page != pageServers || !strings.Contains(scr, "not connected") || !strings.Contains(scr, "demo-a") || !strings.Contains(scr, "demo-b") {
		t.Fatalf("the view does not start on the picker:\n%s", scr)
	}
	ready := func(gen int) func() bool {
		return func() bool {
			if m.gen != gen || m.state != session.StateReady {
				return false
			}
			for _, ms := range m.stats.stats.Methods() {
				if ms.Method == "tools/list" && ms.Responses > 0 {
					return true
				}
			}
			return false
		}
	}
	d.handle(tea.KeyPressMsg{Code: tea.KeyEnter})
	d.until(60*time.Second, "the first demo ready", ready(1))
	if m.page != pageTraffic || !strings.Contains(plainScreen(m), "ready") {
		t.Errorf("after connecting:\n%s", plainScreen(m))
	}
	before := m.stats.stats.Frames
	if before == 0 {
		t.Errorf("the live stats counted no frame of the first server")
	}

	// An error on the first server shows in the status bar; the count is the server's,
	// so a switch starts it again.
	statusBar := func() string { return strings.SplitN(plainScreen(m), "\n", 2)[0] }
	d.keys(":")
	d.typeText("no/such")
	d.handle(tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl})
	d.until(30*time.Second, "the error counted", func() bool { return strings.Contains(statusBar(), "1 error") })

	pressKey(m, "5")
	pressKey(m, "down")
	d.handle(tea.KeyPressMsg{Code: tea.KeyEnter})
	d.until(60*time.Second, "the second demo ready", ready(2))
	if bar := statusBar(); strings.Contains(bar, "error") {
		t.Errorf("the first server's error count carried over the switch: %q", bar)
	}
	if !hasMarker(m, "switch to demo-b (--config)") {
		t.Errorf("no switch marker in the history")
	}
	pressKey(m, "6")
	if scr := plainScreen(m); !strings.Contains(scr, "demo-b · since") || !strings.Contains(scr, "tools/list") {
		t.Errorf("the stats page after the switch:\n%s", scr)
	}

	pressKey(m, "5")
	if scr := plainScreen(m); !strings.Contains(scr, "● demo-b") || !strings.Contains(scr, "connected to demo-b") {
		t.Errorf("the picker does not mark demo-b connected:\n%s", scr)
	}
	d.run(pressKey(m, "d"))
	d.until(30*time.Second, "the session closed", func() bool { return m.state == session.StateClosed })
	if !hasMarker(m, "disconnect from demo-b") || !strings.Contains(plainScreen(m), "disconnected from demo-b") {
		t.Errorf("after d:\n%s", plainScreen(m))
	}
	d.handle(tea.KeyPressMsg{Code: tea.KeyEnter})
	d.until(60*time.Second, "demo-b ready again", ready(3))
	if !hasMarker(m, "connect to demo-b") {
		t.Errorf("no connect marker after reconnecting")
	}
	for _, size := range [][2]int{{80, 24}, {160, 45}} {
		m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		for _, p := range []string{"5", "6"} {
			pressKey(m, p)
			checkSize(t, m, size[0], size[1])
		}
	}
}

// hasMarker reports whether the history holds a marker row with text.
func hasMarker(m *Model, text string) bool {
	for _, e := range m.hist.Entries() {
		if strings.Contains(e.Marker, text) {
			return true
		}
	}
	return false
}

// checkSize fails when the screen is not exactly w×h cells.
func checkSize(t *testing.T, m *Model, w, h int) {
	t.Helper()
	lines := strings.Split(m.Render(), "\n")
	if len(lines) != h {
		t.Errorf("%dx%d page %d: %d lines", w, h, m.page, len(lines))
	}
	for i, l := range lines {
		if got := ansi.StringWidth(l); got != w {
			t.Errorf("%dx%d page %d: line %d is %d wide: %q", w, h, m.page, i, got, ansi.Strip(l))
		}
	}
}

// TestModelServersNone: with no config file found, the picker says so and where it looked;
// enter and d say there is nothing to act on.
func TestModelServersNone(t *testing.T) {
	looked := []session.ConfigSource{{Host: "Cursor", Path: "/nowhere/.cursor/mcp.json"}, {Host: "Claude Code", Path: "/nowhere/.claude.json"}}
	m := newTimelineModel(t, Options{Target: "demo", Servers: &ServerList{Current: -1, Looked: looked}}, 100, 30)
	pressKey(m, "5")
	scr := plainScreen(m)
	for _, want := range []string{"No MCP server configuration found", "Looked in", "/nowhere/.cursor/mcp.json", "Claude Code", "/nowhere/.claude.json"} {
		if !strings.Contains(scr, want) {
			t.Errorf("the picker lacks %q:\n%s", want, scr)
		}
	}
	if s := statusOf(pressKey(m, "enter")); !strings.Contains(s, "no configured server") {
		t.Errorf("enter with nothing to connect to: %q", s)
	}
}

// TestModelStatsLive counts live events: per-method counts, a JSON-RPC error and a tool
// error, latency percentiles and bytes, the sort key, and enter showing the method in the
// timeline.
func TestModelStatsLive(t *testing.T) {
	m := newTimelineModel(t, Options{Target: "demo"}, 80, 24)
	w := newEvWire()
	var evs []*session.Event
	for i := 1; i <= 20; i++ {
		call := w.req(dirOut, i, "tools/call", `{"name":"echo"}`)
		evs = append(evs, call)
		if i == 20 {
			evs = append(evs, w.res(500*time.Millisecond, call, `{"content":[],"isError":true}`))
		} else {
			evs = append(evs, w.res(time.Duration(i)*time.Millisecond, call, `{"content":[]}`))
		}
	}
	bad := w.req(dirOut, 21, "prompts/get", `{"name":"x"}`)
	evs = append(evs, bad, w.rpcErr(2*time.Millisecond, bad, -32602, "no such prompt"))
	feedEvents(m, evs...)
	pressKey(m, "6")
	scr := plainScreen(m)
	row := screenRow(scr, "tools/call")
	if f := strings.Fields(row); len(f) != 8 || f[1] != "20" || f[2] != "1" || f[3] != "10.0ms" || f[4] != "19.0ms" || f[5] != "500.0ms" {
		t.Errorf("tools/call row %q, want 20 calls, 1 error, p50 10.0ms, p95 19.0ms, p99 500.0ms:\n%s", row, scr)
	}
	if f := strings.Fields(screenRow(scr, "prompts/get")); len(f) != 8 || f[2] != "1" {
		t.Errorf("prompts/get row: %q", screenRow(scr, "prompts/get"))
	}
	if f := strings.Fields(screenRow(scr, "all methods")); len(f) < 4 || f[2] != "21" || f[3] != "2" {
		t.Errorf("total row: %q", screenRow(scr, "all methods"))
	}
	checkSize(t, m, 80, 24)
	pressKey(m, "s")
	if scr := plainScreen(m); !strings.Contains(scr, "by slowest p95") {
		t.Errorf("s does not sort by p95:\n%s", scr)
	}
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 45})
	scr = plainScreen(m)
	if !strings.Contains(scr, "requests") || !strings.Contains(scr, "responses") {
		t.Errorf("at 160 columns the counts are not apart:\n%s", scr)
	}
	checkSize(t, m, 160, 45)
	pressKey(m, "g")
	pressKey(m, "enter")
	if m.page != pageTraffic || m.filter.Value() != "method:=tools/call" {
		t.Errorf("enter on tools/call: page %d, filter %q", m.page, m.filter.Value())
	}
}

// TestModelStatsRecording counts an opened recording from the whole file: the page shows
// what `mcpscope stats` prints (Reader.Stats).
func TestModelStatsRecording(t *testing.T) {
	path := filepath.Join(t.TempDir(), "session.jsonl")
	writeRecording(t, path, goldenTraffic(t))
	m := openModel(t, path, 120, 30)
	runCmdSync(t, m, pressKey(m, "6"))
	r, err := recordings.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	want, err := r.Stats(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	scr := plainScreen(m)
	if !strings.Contains(scr, "the whole recording") {
		t.Fatalf("the stats page of a recording:\n%s", scr)
	}
	for _, ms := range want.Methods() {
		row := screenRow(scr, " "+ms.Method+" ")
		f := strings.Fields(row)
		want := []string{strconv.Itoa(ms.Requests), strconv.Itoa(ms.Notifications), strconv.Itoa(ms.Responses), strconv.Itoa(ms.Errors)}
		if len(f) != 10 || strings.Join(f[1:5], " ") != strings.Join(want, " ") {
			t.Errorf("%s: row %q, want requests, notifications, responses, errors %v", ms.Method, row, want)
		}
	}
}
