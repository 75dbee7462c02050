package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/session"
)

// TestModelRestartOrdersShutdown restarts the demo server with R: the old session's
// shutdown (its close "restarted by the user", the server's exit) comes before the restart
// marker, and every row after the marker belongs to the new session, as the recording
// attributes them by generation.
func TestModelRestartOrdersShutdown(t *testing.T) {
	m := NewModel(NewCommon(nil), demoOptions(t, nil))
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
	markers := 0
	for _, e := range m.hist.Entries() {
		if strings.HasPrefix(e.Marker, "restart #") {
			markers++
		}
	}
	if markers != 1 {
		t.Errorf("%d restart markers after R R, want 1", markers)
	}

	marker, closed := -1, -1
	for i, e := range m.hist.Entries() {
		switch {
		case e.Marker != "" && strings.HasPrefix(e.Marker, "restart #1"):
			marker = i
		case e.Ev != nil && e.Gen == 1 && e.Ev.Kind == session.EvState && e.Ev.State == session.StateClosed:
			closed = i
			if !strings.Contains(e.Ev.Text, "restarted by the user") {
				t.Errorf("the old session closed with %q, want the restart named", e.Ev.Text)
			}
		}
		if marker >= 0 && i > marker && e.Gen != 2 {
			t.Errorf("row %d after the restart marker belongs to session %d: %s", i, e.Gen, rowPlain(m, e))
		}
	}
	if marker < 0 || closed < 0 || closed > marker {
		t.Errorf("the old session's close is row %d, the restart marker row %d: want the close first", closed, marker)
	}
}

// rowPlain is an entry's row as text.
func rowPlain(m *Model, e *Entry) string {
	return ansi.Strip(rowText(m.c.Styles, e, 120, m.hist.Start, time.Now()))
}
