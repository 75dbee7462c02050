package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/session/transport"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// TestModelRestartOrdersShutdown restarts the demo server with R, over stdio and over
// Streamable HTTP in the stateful era (whose close is a DELETE): the old session's shutdown
// (its close "restarted by the user", the server's exit, the DELETE) comes before the
// restart marker, and every row after the marker belongs to the new session, as the
// recording attributes them by generation.
func TestModelRestartOrdersShutdown(t *testing.T) {
	url, _ := sessiontest.StartDemoHTTP(t)
	for _, tc := range []struct {
		name string
		opts Options
	}{
		{"stdio", demoOptions(t, nil)},
		{"http", Options{Target: url, TransportName: "http", NewSession: func() (*session.Session, error) {
			s := session.New(session.Config{Protocol: "2025-11-25", Transport: transport.NewStreamableHTTP(transport.HTTPOptions{URL: url})})
			t.Cleanup(func() { _ = s.Close() })
			return s, nil
		}}},
	} {
		t.Run(tc.name, func(t *testing.T) { restartOrder(t, tc.opts, tc.name == "http") })
	}
}

// restartOrder restarts a session of opts once (R twice: the second does nothing) and checks
// that the history is ordered by generation around the marker.
func restartOrder(t *testing.T, opts Options, wantDelete bool) {
	m := NewModel(NewCommon(nil), opts)
	d := newDriver(t, m)
	d.handle(tea.WindowSizeMsg{Width: 160, Height: 40})
	d.run(m.Init())
	listed := func() bool {
		return m.state == session.StateReady && screenRow(plainScreen(m), "res", "tools/list") != ""
	}
	d.until(60*time.Second, "the first session's tools/list", listed)
	d.handle(tea.KeyPressMsg{Code: 'R', Text: "R"})
	d.handle(tea.KeyPressMsg{Code: 'R', Text: "R"}) // a second R while the first is under way does nothing
	d.until(60*time.Second, "the second session's tools/list", func() bool { return m.gen == 2 && listed() })

	marker, closed, deleted, markers := -1, -1, -1, 0
	for i, e := range m.hist.Entries() {
		switch {
		case strings.HasPrefix(e.Marker, "restart #"):
			marker = i
			markers++
		case e.Ev != nil && e.Gen == 1 && e.Ev.Kind == session.EvState && e.Ev.State == session.StateClosed:
			closed = i
			if !strings.Contains(e.Ev.Text, "restarted by the user") {
				t.Errorf("the old session closed with %q, want the restart named", e.Ev.Text)
			}
		case e.Ev != nil && e.Gen == 1 && e.Ev.Kind == session.EvHTTP && e.Ev.HTTP.Method == "DELETE":
			deleted = i
		}
		if marker >= 0 && i > marker && e.Gen != 2 {
			t.Errorf("row %d after the restart marker belongs to session %d: %s", i, e.Gen, rowPlain(m, e))
		}
	}
	if markers != 1 {
		t.Errorf("%d restart markers after R R, want 1", markers)
	}
	if marker < 0 || closed < 0 || closed > marker {
		t.Errorf("the old session's close is row %d, the restart marker row %d: want the close first", closed, marker)
	}
	if wantDelete && (deleted < 0 || deleted > marker) {
		t.Errorf("the old session's DELETE is row %d, the restart marker row %d: want the DELETE first", deleted, marker)
	}
}

// rowPlain is an entry's row as text.
func rowPlain(m *Model, e *traffic.Entry) string {
	return ansi.Strip(rowText(m.c.Styles, e, 120, m.hist.Start, time.Now()))
}
