package ui

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
)

// writeRecording writes evs as session 1 of a new recording at path.
func writeRecording(t testing.TB, path string, evs []*session.Event) {
	t.Helper()
	w, err := recordings.Create(path, recordings.Header{Server: "mcpscope demo", Transport: "stdio", Protocol: "auto"}, recordings.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range evs {
		if err := w.WriteGen(e, 1); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// openModel opens the recording at path read-only in a w×h model and runs its start.
func openModel(t testing.TB, path string, w, h int) *Model {
	t.Helper()
	r, err := recordings.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	m := NewModel(NewCommon(nil), Options{Recording: r, Target: path, TransportName: r.Header().Transport})
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	runCmdSync(t, m, m.Init())
	return m
}

// TestOpenRecording opens a recording of the demo read-only: its rows, the server it
// recorded, the explorer's lists from its tools/list pages, the detail, and no restart.
func TestOpenRecording(t *testing.T) {
	path := filepath.Join(t.TempDir(), "session.jsonl")
	writeRecording(t, path, goldenTraffic(t))
	m := openModel(t, path, 120, 30)
	scr := plainScreen(m)
	status := strings.Split(scr, "\n")[0]
	for _, want := range []string{"recording session.jsonl (read-only)", "mcpscope-demo 1.0.0", "2026-07-28"} {
		if !strings.Contains(status, want) {
			t.Errorf("status bar lacks %q: %q", want, status)
		}
	}
	if screenRow(scr, "req", "server/discover") == "" || screenRow(scr, "res", "tools/list") == "" {
		t.Errorf("the first screen lacks the recorded rows:\n%s", scr)
	}
	if sel := m.timeline.Selected(); sel == nil || sel.Index != 0 {
		t.Errorf("the first row is not selected")
	}

	pressKey(m, "2")
	want := goldenLists(t)[session.ListTools]
	if got := m.explorer.Items(session.ListTools); got != len(want) || got == 0 {
		t.Errorf("explorer lists %d tools from the recording, want %d (both pages)", got, len(want))
	}
	pressKey(m, "1")

	if m.c.Keys.Restart.Enabled() {
		t.Errorf("restart is enabled on a recording")
	}
	if status := statusOf(pressKey(m, "R")); !strings.Contains(status, "a recording is being browsed") || m.gen != 0 || m.sess != nil {
		t.Errorf("R acted on a recording")
	}
	pressKey(m, "?")
	if scr := plainScreen(m); strings.Contains(scr, "restart server") || !strings.Contains(scr, "save session") {
		t.Errorf("help offers restart or lacks save:\n%s", scr)
	}
	pressKey(m, "?")

	pressKey(m, "/")
	typeKeys(m, "kind:erro")
	runCmdSync(t, m, pressKey(m, "r"))
	pressKey(m, "enter")
	runCmdSync(t, m, pressKey(m, "enter"))
	if scr := plainScreen(m); !strings.Contains(scr, "Unknown tool") && !strings.Contains(scr, "no_such_tool") {
		t.Errorf("the detail of the recorded error does not show:\n%s", scr)
	}
}

// TestOpenLazyBounded browses a recording much larger than the window: the history never
// holds more than a window, scrolling reaches the last event, g and G jump to the ends, and
// a filter covers the whole recording.
func TestOpenLazyBounded(t *testing.T) {
	const n = 30_000
	path := filepath.Join(t.TempDir(), "big.jsonl")
	evs := mixedTraffic(newEvWire(), n)
	writeRecording(t, path, evs)
	m := openModel(t, path, 100, 30)
	check := func(when string) {
		t.Helper()
		if l := m.hist.Len(); l > openWindow || l == 0 {
			t.Fatalf("%s: %d events in memory (window %d)", when, l, openWindow)
		}
	}
	check("first screen")
	if sel := m.timeline.Selected(); sel == nil || sel.Ev.Seq != evs[0].Seq {
		t.Fatalf("the first screen does not start at the first event")
	}
	for i := 0; ; i++ {
		runCmdSync(t, m, pressKey(m, "pgdown"))
		check(fmt.Sprintf("page %d", i))
		if sel := m.timeline.Selected(); sel != nil && sel.Ev.Seq == evs[n-1].Seq {
			break
		}
		if i > n {
			t.Fatalf("paging down never reached the last event")
		}
	}
	if !strings.Contains(plainScreen(m), fmt.Sprintf("row %d of %d", n, n)) {
		t.Errorf("status does not say the last row:\n%s", plainScreen(m))
	}
	runCmdSync(t, m, pressKey(m, "g"))
	if sel := m.timeline.Selected(); sel == nil || sel.Ev.Seq != evs[0].Seq {
		t.Errorf("g did not go to the first event")
	}
	runCmdSync(t, m, pressKey(m, "G"))
	if sel := m.timeline.Selected(); sel == nil || sel.Ev.Seq != evs[n-1].Seq {
		t.Errorf("G did not go to the last event")
	}
	check("after g and G")

	errs := 0
	for _, e := range evs {
		if e.Frame != nil && e.Frame.Kind == protocol.KindError {
			errs++
		}
	}
	pressKey(m, "/")
	typeKeys(m, "kind:erro")
	runCmdSync(t, m, pressKey(m, "r"))
	pressKey(m, "enter")
	check("filtered")
	if got := m.open.total(); got != errs {
		t.Errorf("the filter found %d rows in the whole recording, want %d", got, errs)
	}
	runCmdSync(t, m, pressKey(m, "G"))
	if sel := m.timeline.Selected(); sel == nil || sel.Index != uint64(errs-1) || sel.Ev.Frame.Kind != protocol.KindError {
		t.Errorf("G on the filtered rows is not on the last match")
	}
	pressKey(m, "/")
	runCmdSync(t, m, pressKey(m, "esc"))
	if got := m.open.total(); got != n || m.open.filtered {
		t.Errorf("clearing the filter: %d rows, want %d", got, n)
	}
	check("unfiltered")
}

// TestGoldenOpen is the first screen of a recording opened read-only, at 80×24.
func TestGoldenOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "session.jsonl")
	writeRecording(t, path, goldenTraffic(t))
	r, err := recordings.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	m := NewModel(NewCommon(nil), Options{Recording: r, Target: path, TransportName: "stdio"})
	// The start's messages, read before the program runs, are sent to it in order.
	var msgs []tea.Msg
	queue := []tea.Cmd{m.openInit()}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case tea.BatchMsg:
			queue = append(queue, msg...)
		default:
			msgs = append(msgs, msg)
		}
	}
	screen := goldenRun(t, m, 80, 24, func(tm *teatest.TestModel) {
		for _, msg := range msgs {
			tm.Send(msg)
		}
	})
	golden.RequireEqual(t, screen)
}
