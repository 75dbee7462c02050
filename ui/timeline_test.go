package ui

import (
	"fmt"
	"image/color"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// TestTimelineRows checks the row of each kind: colours from the palette, the finding
// badge, latency, progress on the request's row, and the live timer that is never cached.
func TestTimelineRows(t *testing.T) {
	m := newTimelineModel(t, Options{}, 100, 30)
	s := m.c.Styles
	w := newEvWire()
	call := w.req(dirOut, 1, "tools/call", `{"name":"slow"}`)
	bad := w.req(dirOut, 2, "tools/call", `{"name":"nope"}`)
	feedEvents(m, call, bad, w.progress(call, 3, 6, "half"), w.rpcErr(5*time.Millisecond, bad, -32602, "Unknown tool"),
		w.frame(time.Millisecond, dirIn, `{"jsonrpc":"1.0","method":"notifications/message","params":{}}`, session.Correlation{}),
		w.stderr("demo: hello"), w.http(502, "http://h/mcp"), w.state(session.StateReady, ""))

	screen := m.Render()
	plain := ansi.Strip(screen)
	callRow := screenRow(plain, "req", "#1")
	if !strings.Contains(callRow, "3/6 half") || !strings.Contains(callRow, "⏱0s") {
		t.Errorf("request row lacks its progress or live timer: %q", callRow)
	}
	errRow := screenRow(screen, "Unknown tool")
	if !strings.Contains(errRow, fgSeq(s.P.Error)) || !strings.Contains(ansi.Strip(errRow), "-32602") || !strings.Contains(ansi.Strip(errRow), "5.0ms") {
		t.Errorf("error row is not red with its code and latency: %q", errRow)
	}
	findRow := screenRow(screen, "notifications/message")
	if !strings.Contains(findRow, fgSeq(s.P.Finding)) || !strings.Contains(ansi.Strip(findRow), "⚠") {
		t.Errorf("row with findings lacks the yellow badge: %q", findRow)
	}
	if r := screenRow(screen, "http", "502"); !strings.Contains(r, fgSeq(s.P.Error)) {
		t.Errorf("HTTP 502 row is not red: %q", r)
	}
	if r := screenRow(screen, "stderr", "demo: hello"); !strings.Contains(r, fgSeq(s.P.Stderr)) {
		t.Errorf("stderr row is not in the stderr colour: %q", r)
	}

	// The timer is live: a tick three seconds on redraws it, and it is never cached.
	m.Update(TickMsg(call.Time.Add(3 * time.Second)))
	if r := screenRow(ansi.Strip(m.Render()), "req", "#1"); !strings.Contains(r, "⏱3s") {
		t.Errorf("timer did not advance: %q", r)
	}
	e := m.timeline.visible[0]
	if e.Row.S != "" {
		t.Errorf("a waiting request's row was cached")
	}
	feedEvents(m, w.res(4*time.Second, call, `{}`))
	if r := screenRow(ansi.Strip(m.Render()), "req", "#1"); strings.Contains(r, "⏱") || !strings.Contains(r, "4.00s") {
		t.Errorf("answered request still shows a timer or lacks its latency: %q", r)
	}
	if e.Row.S == "" {
		t.Errorf("an answered request's row is not cached")
	}
}

// fgSeq is the SGR fragment lipgloss writes for foreground colour c.
func fgSeq(c color.Color) string {
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("38;2;%d;%d;%d", r>>8, g>>8, b>>8)
}

// TestTimelineCleansWireText keeps escape sequences and line breaks a server writes out of
// the terminal.
func TestTimelineCleansWireText(t *testing.T) {
	m := newTimelineModel(t, Options{}, 100, 20)
	w := newEvWire()
	feedEvents(m, w.stderr("\x1b[2Jwiped\tscreen\r\nnext \u009b31m"),
		w.note(dirIn, "notifications/\u001b[31mred", `{}`, session.Correlation{}))
	screen := m.Render()
	for _, bad := range []string{"\x1b[2J", "\x1b[31mred", "\u009b"} {
		if strings.Contains(screen, bad) {
			t.Errorf("screen carries %q from the wire", bad)
		}
	}
	if r := screenRow(ansi.Strip(screen), "wiped screen  next"); r == "" {
		t.Errorf("stderr row not cleaned:\n%s", ansi.Strip(screen))
	}
	if got := cleanText("plain é 中"); got != "plain é 中" {
		t.Errorf("clean text changed: %q", got)
	}
}

// TestTimelineSelectionAcrossFilter keeps the selected entry (or its nearest earlier row)
// when the filter changes, and keeps follow mode when it was on; the row the user chose
// comes back when the filter lets it pass again, and a row the user moved to while
// filtered becomes their choice.
func TestTimelineSelectionAcrossFilter(t *testing.T) {
	m := newTimelineModel(t, Options{}, 100, 20)
	w := newEvWire()
	feedEvents(m, mixedTraffic(w, 200)...)
	tl := m.timeline
	tl.SetQuery(traffic.ParseQuery("kind:stderr"))
	if !tl.Following() || tl.Selected() != tl.visible[len(tl.visible)-1] {
		t.Fatalf("a filter change while following left follow mode")
	}
	tl.SetQuery(traffic.Query{})
	tl.Move(-30)
	sel := tl.Selected()
	tl.SetQuery(traffic.ParseQuery("kind:request"))
	got := tl.Selected()
	if got == nil || got.Index > sel.Index || !got.IsRequest() {
		t.Fatalf("selection went to %v, want the nearest request at or before index %d", got, sel.Index)
	}
	if tl.Following() {
		t.Errorf("a paused selection began following after a filter change")
	}
	tl.SetQuery(traffic.Query{})
	if tl.Selected() != sel {
		t.Errorf("clearing the filter did not select the user's row again")
	}
	tl.SetQuery(traffic.ParseQuery("kind:request"))
	tl.Move(-1)
	req := tl.Selected()
	tl.SetQuery(traffic.Query{})
	if tl.Selected() != req {
		t.Errorf("clearing the filter lost the row chosen while filtered")
	}
}
