package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/session/transport"
)

// TestViewNotServedTemplates: the view of a server that declares resources but answers
// -32601 to resources/templates/list (as server-postgres does) starts without an error:
// the templates tab is empty, not failed, and the status line counts no error.
func TestViewNotServedTemplates(t *testing.T) {
	bin := sessiontest.BuildPinServer(t)
	stdio := func() (transport.Transport, error) {
		return transport.NewStdio(transport.StdioOptions{Command: bin, Env: []string{"MCPSCOPE_PINSERVER_CHANGE=notemplates"}}), nil
	}
	m := NewModel(NewCommon(nil), Options{Target: "pinserver", TransportName: "stdio", NewSession: closingSessions(t, stdio, nil)})
	d := newDriver(t, m)
	d.handle(tea.WindowSizeMsg{Width: 160, Height: 40})
	d.run(m.Init())
	d.until(60*time.Second, "the explorer's lists", func() bool {
		return m.explorer.Loaded() && m.explorer.Items(session.ListTools) > 0
	})
	d.until(30*time.Second, "the answer to resources/templates/list on the timeline", func() bool {
		for _, e := range m.hist.Entries() {
			if e.Ev != nil && e.Ev.Dir == protocol.ServerToClient && e.Ev.Corr.Method == "resources/templates/list" {
				return true
			}
		}
		return false
	})
	if errs, _ := m.hist.CountsSince(m.statsGen); errs != 0 {
		t.Errorf("the status line counts %d errors", errs)
	}
	if s := ansi.Strip(m.statusView(160)); strings.Contains(s, "error") {
		t.Errorf("the status line shows an error: %q", s)
	}
	if err := m.explorer.ListErr(session.ListTemplates); err != nil {
		t.Errorf("the templates tab failed: %v", err)
	}
}
