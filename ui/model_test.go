package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/session"
)

// plainScreen is the rendered screen without colours.
func plainScreen(m *Model) string { return ansi.Strip(m.Render()) }

// TestModelFilter types a filter live, shows its errors, and clears it with esc.
func TestModelFilter(t *testing.T) {
	m := newTimelineModel(t, Options{}, 100, 30)
	w := newEvWire()
	call := w.req(dirOut, 1, "tools/call", `{}`)
	list := w.req(dirOut, 2, "tools/list", `{}`)
	feedEvents(m, call, list, w.res(time.Millisecond, call, `{}`), w.res(time.Millisecond, list, `{"tools":[]}`), w.stderr("hello"))

	pressKey(m, "/")
	typeKeys(m, "method:tools/l")
	if got := m.timeline.Visible(); got != 2 {
		t.Fatalf("live filter shows %d rows, want 2 (tools/list and its response)", got)
	}
	scr := plainScreen(m)
	if strings.Contains(scr, "tools/call") || !strings.Contains(scr, "2 rows match") {
		t.Errorf("filtered screen:\n%s", scr)
	}
	typeKeys(m, " kind:nonsense")
	if scr := plainScreen(m); !strings.Contains(scr, "kind:nonsense") || !strings.Contains(scr, "want request") {
		t.Errorf("the filter's error is not shown:\n%s", scr)
	}
	pressKey(m, "enter")
	if scr := plainScreen(m); !strings.Contains(scr, "/method:tools/l kind:nonsense") || !strings.Contains(scr, "kind:nonsense (want") {
		t.Errorf("after enter the filter and its error stay in the footer:\n%s", scr)
	}
	pressKey(m, "/")
	pressKey(m, "esc")
	if got := m.timeline.Visible(); got != 5 {
		t.Errorf("esc clears the filter: %d rows, want 5", got)
	}
}

// TestModelPairJump jumps between a request and its response with p.
func TestModelPairJump(t *testing.T) {
	m := newTimelineModel(t, Options{}, 100, 30)
	w := newEvWire()
	call := w.req(dirOut, 1, "tools/call", `{}`)
	res := w.res(time.Millisecond, call, `{}`)
	feedEvents(m, call, w.stderr("between"), w.note(dirIn, "notifications/message", `{}`, session.Correlation{}), res)
	if sel := m.timeline.Selected(); sel.Ev != res {
		t.Fatalf("follow mode selects the newest row")
	}
	if scr := plainScreen(m); !strings.Contains(screenRow(scr, "#1", "req"), "◆") {
		t.Errorf("the selected response's request is not marked:\n%s", scr)
	}
	pressKey(m, "p")
	if sel := m.timeline.Selected(); sel.Ev != call {
		t.Fatalf("p did not jump to the request")
	}
	if m.timeline.Following() {
		t.Errorf("jumping up pauses follow mode")
	}
	pressKey(m, "p")
	if sel := m.timeline.Selected(); sel.Ev != res {
		t.Fatalf("p did not jump back to the response")
	}
	pressKey(m, "up")
	if got := statusOf(pressKey(m, "p")); !strings.Contains(got, "no request or response") {
		t.Errorf("p on a row without a pair says %q", got)
	}
}

// TestModelFollow pauses follow mode when the user scrolls up and resumes it at the end.
func TestModelFollow(t *testing.T) {
	m := newTimelineModel(t, Options{}, 80, 24)
	w := newEvWire()
	feedEvents(m, mixedTraffic(w, 100)...)
	if !m.timeline.Following() || m.timeline.cursor != 99 {
		t.Fatalf("following: %v, cursor %d", m.timeline.Following(), m.timeline.cursor)
	}
	pressKey(m, "up")
	pressKey(m, "up")
	sel := m.timeline.Selected()
	if m.timeline.Following() || !strings.Contains(plainScreen(m), "paused") {
		t.Fatalf("scrolling up does not pause follow mode")
	}
	feedEvents(m, mixedTraffic(w, 50)...)
	if m.timeline.Selected() != sel || m.timeline.Following() {
		t.Fatalf("new rows moved the paused selection")
	}
	scr := plainScreen(m)
	if !strings.Contains(scr, "▶") {
		t.Errorf("the paused selection scrolled off screen:\n%s", scr)
	}
	pressKey(m, "down")
	pressKey(m, "down")
	if m.timeline.Following() {
		t.Fatalf("follow resumed before the end")
	}
	pressKey(m, "G")
	if !m.timeline.Following() || m.timeline.Selected() != m.timeline.visible[149] {
		t.Fatalf("G does not resume follow mode at the end")
	}
	feedEvents(m, mixedTraffic(w, 10)...)
	if m.timeline.Selected() != m.timeline.visible[159] {
		t.Errorf("follow mode does not track new rows")
	}
	pressKey(m, "up")
	for range 3 {
		pressKey(m, "j")
	}
	if !m.timeline.Following() {
		t.Errorf("moving down to the end does not resume follow mode")
	}
}

// TestModelToggles hides and shows stderr, transport and HTTP rows, and says so.
func TestModelToggles(t *testing.T) {
	m := newTimelineModel(t, Options{}, 120, 30)
	w := newEvWire()
	call := w.req(dirOut, 1, "ping", `{}`)
	feedEvents(m, w.state(session.StateConnecting, "stdio"), w.transport("spawn", "demo"), call,
		w.stderr("log line"), w.http(200, "http://h/mcp"), w.res(time.Millisecond, call, `{}`))
	cases := []struct {
		key, word, hidden string
	}{{"s", "log line", "stderr hidden"}, {"t", "spawn: demo", "transport hidden"}, {"x", "POST /mcp", "http hidden"}}
	for _, c := range cases {
		if !strings.Contains(plainScreen(m), c.word) {
			t.Fatalf("%q is not shown before %s", c.word, c.key)
		}
		if got := statusOf(pressKey(m, c.key)); !strings.Contains(got, "hidden") {
			t.Errorf("%s says %q", c.key, got)
		}
		scr := plainScreen(m)
		if strings.Contains(scr, c.word) || !strings.Contains(scr, c.hidden) {
			t.Errorf("after %s:\n%s", c.key, scr)
		}
	}
	if got := m.timeline.Visible(); got != 2 {
		t.Errorf("with every toggle off %d rows show, want the 2 frames", got)
	}
	for _, c := range cases {
		pressKey(m, c.key)
	}
	if got, scr := m.timeline.Visible(), plainScreen(m); got != 6 || strings.Contains(scr, "hidden") {
		t.Errorf("toggles back on: %d rows\n%s", got, scr)
	}
}

// TestModelDropped bounds the history: the oldest entries leave memory, a counter says so,
// and a paused selection stays on its entry.
func TestModelDropped(t *testing.T) {
	m := newTimelineModel(t, Options{HistoryLimit: 100}, 100, 24)
	w := newEvWire()
	feedEvents(m, mixedTraffic(w, 150)...)
	if n := m.hist.Len(); n > 100 {
		t.Fatalf("history holds %d entries, limit 100", n)
	}
	if m.hist.Dropped == 0 || m.timeline.Visible() != m.hist.Len() {
		t.Fatalf("dropped %d, visible %d, in memory %d", m.hist.Dropped, m.timeline.Visible(), m.hist.Len())
	}
	if scr := plainScreen(m); !strings.Contains(scr, fmt.Sprintf("%d dropped from memory", m.hist.Dropped)) {
		t.Errorf("no dropped counter:\n%s", scr)
	}
	for range 5 {
		pressKey(m, "up")
	}
	sel := m.timeline.Selected()
	for range 3 {
		feedEvents(m, mixedTraffic(w, 20)...)
	}
	if m.timeline.Selected() != sel {
		t.Errorf("the selection moved when old entries were dropped")
	}
	if got := m.timeline.visible[0].Index; got != m.hist.FirstIndex() {
		t.Errorf("first visible row has index %d, the history starts at %d", got, m.hist.FirstIndex())
	}
	feedEvents(m, mixedTraffic(w, 200)...)
	if m.timeline.Selected() == nil || m.timeline.Selected().Index < m.hist.FirstIndex() {
		t.Errorf("selection left on a dropped entry")
	}

	// Events the session's stream dropped before the view took them are a row each loss,
	// and the status bar counts them all.
	gap := func(first, n uint64) *session.Event {
		return session.NewGapEvent(session.Gap{FirstSeq: first, LastSeq: first + n - 1, Events: n, Bytes: int64(n) << 20}, time.Now())
	}
	m.Update(EventsMsg{Gen: 1, Events: append([]*session.Event{gap(1000, 7)}, mixedTraffic(w, 3)...)})
	m.Update(EventsMsg{Gen: 1, Events: append([]*session.Event{gap(2000, 5)}, mixedTraffic(w, 3)...)})
	scr := plainScreen(m)
	if !strings.Contains(scr, "12 events lost") {
		t.Errorf("no lost counter:\n%s", scr)
	}
	var rows []string
	for _, e := range m.hist.Entries() {
		if e.Ev != nil && e.Ev.Kind == session.EvGap {
			rows = append(rows, ansi.Strip(rowText(m.c.Styles, e, 100, m.hist.Start, time.Now())))
		}
	}
	if len(rows) != 2 || !strings.Contains(rows[1], "gap    ⋯ 5 events dropped between #2000 and #2004 (5.0 MiB)") {
		t.Errorf("gap rows: %q", rows)
	}
}

// TestModelRestartKeepsHistory restarts with R: a marker row, the old rows kept.
func TestModelRestartKeepsHistory(t *testing.T) {
	m := newTimelineModel(t, Options{Target: "demo"}, 100, 24)
	w := newEvWire()
	call := w.req(dirOut, 1, "tools/call", `{}`)
	feedEvents(m, w.state(session.StateReady, ""), call)
	runCmdSync(t, m, pressKey(m, "R"))
	scr := plainScreen(m)
	if !strings.Contains(scr, "restart #1 of demo") || !strings.Contains(scr, "tools/call") {
		t.Fatalf("after R:\n%s", scr)
	}
	if m.gen != 2 || !strings.Contains(scr, "no server in this test") {
		t.Errorf("the new session's failure is not shown (generation %d):\n%s", m.gen, scr)
	}
	// The old session closes after the restart: its waiting request fails all the same.
	m.Update(EventsMsg{Gen: 1, Events: []*session.Event{w.state(session.StateClosed, "closed by mcpscope")}, Closed: true})
	if e := m.hist.At(1); e.Ev != call || e.Failed == "" {
		t.Errorf("the old session's request did not fail when it closed")
	}
	if m.hist.InFlight() != 0 {
		t.Errorf("in flight %d after the old session closed", m.hist.InFlight())
	}
}

// TestModelQuitConfirm asks before quitting with requests in flight.
func TestModelQuitConfirm(t *testing.T) {
	m := newTimelineModel(t, Options{}, 80, 24)
	w := newEvWire()
	call := w.req(dirOut, 1, "tools/call", `{}`)
	feedEvents(m, call)
	if quits(pressKey(m, "q")) {
		t.Fatal("q quit with a request in flight")
	}
	if !strings.Contains(plainScreen(m), "Quit anyway?") {
		t.Fatalf("no confirmation:\n%s", plainScreen(m))
	}
	pressKey(m, "n")
	if dialogOf[*confirmDialog](m) != nil {
		t.Fatal("n does not dismiss the confirmation")
	}
	pressKey(m, "q")
	if !quits(pressKey(m, "y")) {
		t.Fatal("y does not quit")
	}
	feedEvents(m, w.res(time.Millisecond, call, `{}`))
	// Not recorded (no recorder: --no-record): q asks, ctrl+w saves instead of quitting.
	if quits(pressKey(m, "q")) || !strings.Contains(plainScreen(m), "The session is not recorded (--no-record).") ||
		strings.Contains(plainScreen(m), "Requests are in flight") {
		t.Fatalf("q on an unsaved session:\n%s", plainScreen(m))
	}
	m.Update(tea.KeyPressMsg{Code: 'w', Mod: tea.ModCtrl})
	if dialogOf[*confirmDialog](m) != nil || dialogOf[*saveDialog](m) == nil {
		t.Fatal("ctrl+w in the question does not open the save prompt")
	}
	pressKey(m, "esc")
	m.Update(SavedMsg{Path: "saved.jsonl", Events: 2})
	if !quits(pressKey(m, "q")) {
		t.Error("q does not quit when nothing is in flight and the session was saved")
	}
	feedEvents(m, w.req(dirOut, 2, "ping", `{}`), w.res(time.Millisecond, call, `{}`))
	if quits(pressKey(m, "q")) {
		t.Error("q quits with frames that came after the save")
	}
}

// TestModelResize renders at several sizes: every line exactly the width, exactly the
// height in lines.
func TestModelResize(t *testing.T) {
	m := newTimelineModel(t, Options{}, 80, 24)
	w := newEvWire()
	feedEvents(m, mixedTraffic(w, 300)...)
	feedEvents(m, w.stderr("a very long line "+strings.Repeat("é中", 100)))
	for _, size := range [][2]int{{80, 24}, {160, 48}, {80, 24}, {120, 30}, {160, 48}} {
		m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		for _, paused := range []bool{false, true} {
			if paused {
				pressKey(m, "up")
			}
			lines := strings.Split(m.Render(), "\n")
			if len(lines) != size[1] {
				t.Errorf("%dx%d: %d lines", size[0], size[1], len(lines))
			}
			for i, l := range lines {
				if got := ansi.StringWidth(l); got != size[0] {
					t.Errorf("%dx%d: line %d is %d wide: %q", size[0], size[1], i, got, ansi.Strip(l))
				}
			}
		}
		pressKey(m, "G")
	}
}

// TestModelRealSession runs the model against the demo server over stdio, executing the
// commands it returns like the runtime does, until the handshake is in and the lists are
// fetched.
func TestModelRealSession(t *testing.T) {
	m := NewModel(NewCommon(nil), demoOptions(t, nil))
	d := newDriver(t, m)
	d.handle(tea.WindowSizeMsg{Width: 160, Height: 48})
	d.run(m.Init())
	d.until(60*time.Second, "the handshake and tools/list", func() bool {
		scr := plainScreen(m)
		return m.state == session.StateReady && screenRow(scr, "res ", "tools/list") != "" && strings.Contains(scr, "server/discover")
	})
	scr := plainScreen(m)
	for _, want := range []string{"ready", "server/discover", "tools/list", "via stdio"} {
		if !strings.Contains(scr, want) {
			t.Errorf("screen lacks %q:\n%s", want, scr)
		}
	}
	if r := screenRow(scr, "res ", "tools/list"); r == "" || !strings.Contains(r, "ms") && !strings.Contains(r, "µs") {
		t.Errorf("tools/list response row lacks its latency: %q", r)
	}
	// At 80 columns the server's description is cut before the timeline's state is.
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	pressKey(m, "s")
	pressKey(m, "up")
	status := strings.Split(plainScreen(m), "\n")[0]
	if !strings.Contains(status, "stderr hidden") || !strings.Contains(status, "paused") {
		t.Errorf("status bar at 80 columns: %q", status)
	}
}

// driver runs a model's commands concurrently, as the runtime does, and hands their
// messages to the model on the test's goroutine.
type driver struct {
	t    testing.TB
	m    *Model
	msgs chan tea.Msg
	ctx  context.Context
}

func newDriver(t testing.TB, m *Model) *driver {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	return &driver{t: t, m: m, msgs: make(chan tea.Msg, 64), ctx: ctx}
}

// run starts cmd; a batch's commands run concurrently, a sequence's in order.
func (d *driver) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		msg := cmd()
		if cmds, ok := seqCmds(msg); ok {
			for _, c := range cmds {
				if c != nil {
					d.send(c())
				}
			}
			return
		}
		d.send(msg)
	}()
}

func (d *driver) send(msg tea.Msg) {
	select {
	case d.msgs <- msg:
	case <-d.ctx.Done():
	}
}

// handle gives msg to the model and runs what it returns.
func (d *driver) handle(msg tea.Msg) {
	switch msg := msg.(type) {
	case nil, tea.QuitMsg:
	case tea.BatchMsg:
		for _, c := range msg {
			d.run(c)
		}
	default:
		_, cmd := d.m.Update(msg)
		d.run(cmd)
	}
}

// until handles messages until cond holds, failing the test after timeout.
func (d *driver) until(timeout time.Duration, what string, cond func() bool) {
	d.t.Helper()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for !cond() {
		select {
		case msg := <-d.msgs:
			d.handle(msg)
		case <-deadline.C:
			d.t.Fatalf("waited %s for %s; screen:\n%s", timeout, what, plainScreen(d.m))
		}
	}
}
