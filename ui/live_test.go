package ui

import (
	"os"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// tapRuntimeDir makes a directory for the tests' tap sockets and points this process at
// it (recordings.Dial looks there). A socket's path must be short, which a test's TempDir
// may not be.
func tapRuntimeDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "mcpscope-live-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	t.Setenv("XDG_RUNTIME_DIR", dir)
	return dir
}

// TestLiveAttach attaches the view to a real tap between a scripted host and the demo
// server: the host's handshake and tools/list pages appear as they happen, the explorer
// lists the tools from every page, the server page shows the handshake, nothing that acts
// on a session is offered, and the end of the tap is shown.
func TestLiveAttach(t *testing.T) {
	dir := tapRuntimeDir(t)
	host := StartTapHost(t, "livetest", dir)
	l, err := recordings.Dial("livetest")
	if err != nil {
		t.Fatal(err)
	}
	feed := NewLiveFeed(l, "livetest")
	t.Cleanup(feed.Close)
	m := NewModel(NewCommon(nil), Options{Live: feed, Target: "livetest", TransportName: l.Header().Transport})
	d := newDriver(t, m)
	d.handle(tea.WindowSizeMsg{Width: 120, Height: 30})
	d.run(m.Init())
	if status := strings.Split(plainScreen(m), "\n")[0]; !strings.Contains(status, "attached to livetest (live)") {
		t.Errorf("status bar: %q", status)
	}
	if m.c.Keys.Restart.Enabled() {
		t.Errorf("restart is enabled on a tap")
	}

	host.Handshake()
	tools := host.ListTools()
	d.until(30*time.Second, "the host's tools/list rows and every tool in the explorer", func() bool {
		scr := plainScreen(m)
		return screenRow(scr, "req", "tools/list") != "" && screenRow(scr, "res", "tools/list") != "" &&
			m.explorer.Items(session.ListTools) == tools
	})
	scr := plainScreen(m)
	status := strings.Split(scr, "\n")[0]
	for _, want := range []string{"attached to livetest (live)", "mcpscope-demo", "2025-06-18"} {
		if !strings.Contains(status, want) {
			t.Errorf("status bar lacks %q: %q", want, status)
		}
	}
	if screenRow(scr, "req", "initialize") == "" {
		t.Errorf("the handshake's rows are missing:\n%s", scr)
	}
	if m.hist.InFlight() != 0 {
		t.Errorf("%d requests in flight after every answer came", m.hist.InFlight())
	}
	pressKey(m, "3")
	if scr := plainScreen(m); !strings.Contains(scr, "initialize") || !strings.Contains(scr, "mcpscope-demo") {
		t.Errorf("the server page lacks the handshake:\n%s", scr)
	}
	pressKey(m, "1")
	if status := statusOf(pressKey(m, "R")); !strings.Contains(status, "a tap only watches") || m.sess != nil {
		t.Errorf("R on a tap did not say why it is off (%q), or acted", status)
	}

	host.End()
	d.until(30*time.Second, "the end of the tap", func() bool {
		return strings.Contains(strings.Split(plainScreen(m), "\n")[0], "tap ended")
	})
	if m.state != session.StateClosed {
		t.Errorf("state %v after the tap ended", m.state)
	}
	// Quitting never asks: nothing the view does is in flight.
	if cmd := pressKey(m, "q"); cmd == nil {
		t.Errorf("q does not quit")
	} else if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Errorf("q does not quit")
	}
}

// TestLiveListsPages follows paged listings as they arrive: a listing is shown once its
// last page is in, a relisting replaces it, and pages of a listing whose start was not seen
// are left out. A page larger than the history holds whole still counts.
func TestLiveListsPages(t *testing.T) {
	w := newEvWire()
	h := traffic.NewHistory(0)
	h.TruncateOver = 2048
	l := newLiveLists()
	add := func(ev *session.Event) (session.ListKind, bool) {
		e, _ := h.Add(1, ev)
		return l.take(e, ev)
	}
	p1 := w.req(dirOut, 1, "tools/list", `{}`)
	add(p1)
	if _, ok := add(w.res(time.Millisecond, p1, `{"tools":[{"name":"a"}],"nextCursor":"c1"}`)); ok {
		t.Fatalf("a listing completed on its first page")
	}
	p2 := w.req(dirOut, 2, "tools/list", `{"cursor":"c1"}`)
	add(p2)
	if k, ok := add(w.res(time.Millisecond, p2, `{"tools":[{"name":"b"}]}`)); !ok || k != session.ListTools || len(l.done[k]) != 2 {
		t.Fatalf("the two pages did not complete the listing: %v %v %d", k, ok, len(l.done[session.ListTools]))
	}
	orphan := w.req(dirOut, 3, "prompts/list", `{"cursor":"zz"}`)
	add(orphan)
	if _, ok := add(w.res(time.Millisecond, orphan, `{"prompts":[{"name":"p"}]}`)); ok {
		t.Errorf("a page of a listing whose start was not seen completed it")
	}
	again := w.req(dirOut, 4, "tools/list", `{}`)
	add(again)
	if _, ok := add(w.res(time.Millisecond, again, `{"tools":[]}`)); !ok || len(l.done[session.ListTools]) != 0 {
		t.Errorf("a relisting did not replace the list")
	}
	big := w.req(dirOut, 5, "tools/list", `{}`)
	add(big)
	page := w.res(time.Millisecond, big, `{"tools":[{"name":"big","description":"`+strings.Repeat("d", 3000)+`"}]}`)
	if _, ok := add(page); !ok || len(l.done[session.ListTools]) != 1 || h.At(h.Len()-1).Clipped == 0 {
		t.Errorf("a page held cut was not listed: %d tools", len(l.done[session.ListTools]))
	}
}
