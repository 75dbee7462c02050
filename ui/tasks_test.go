package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/session/transport"
)

// taskModel runs the model against the task server (2025-11-25) until its lists are in.
func taskModel(t *testing.T) (*Model, *driver) {
	t.Helper()
	return taskModelIn(t, "2025-11-25")
}

// taskModelIn runs the model against the task server in protocol revision rev.
func taskModelIn(t *testing.T, rev string) (*Model, *driver) {
	t.Helper()
	bin := sessiontest.BuildTaskServer(t)
	var sessions []*session.Session
	t.Cleanup(func() {
		for _, s := range sessions {
			_ = s.Close()
		}
	})
	m := NewModel(NewCommon(nil), Options{Target: "taskserver", TransportName: "stdio",
		NewSession: func() (*session.Session, error) {
			s := session.New(session.Config{Protocol: rev, Caps: session.DefaultCaps(),
				Responder: &session.Headless{Elicit: session.ElicitAcceptDefaults},
				Transport: transport.NewStdio(transport.StdioOptions{Command: bin})})
			sessions = append(sessions, s)
			return s, nil
		}})
	d := newDriver(t, m)
	d.handle(tea.WindowSizeMsg{Width: 120, Height: 30})
	d.run(m.Init())
	d.until(60*time.Second, "the explorer's lists", func() bool {
		return m.explorer.Loaded() && m.explorer.Items(session.ListTools) > 0
	})
	return m, d
}

// TestTasksPage calls a task-only tool from the explorer: the call goes out as a task, the
// Tasks page lists and follows it (its input answered through the responder), shows its
// status and, on enter, its result; c cancels a running task.
func TestTasksPage(t *testing.T) {
	m, d := taskModel(t)
	d.keys("2")
	d.selectItem(0, "confirm")
	d.keys("enter", "4")
	t.Cleanup(func() {
		if t.Failed() {
			for _, e := range m.hist.Entries() {
				if e.Ev != nil {
					t.Log(e.Ev.Summary())
				}
			}
		}
	})
	d.until(30*time.Second, "the confirm task to complete", func() bool {
		return m.tasks.Len() == 1 && m.tasks.rows[0].task.Status == session.TaskCompleted && len(m.tasks.rows[0].result) > 0
	})
	screen := m.Render()
	if row := screenRow(screen, "task-1", "confirm", "completed"); row == "" {
		t.Errorf("no row for the completed task:\n%s", screen)
	}
	call := m.hist.Entries()
	sent := false
	for _, e := range call {
		if e.Ev != nil && e.Ev.Frame != nil && e.Ev.Frame.Method == "tools/call" && strings.Contains(string(e.Ev.Frame.Params), `"task":{}`) {
			sent = true
		}
	}
	if !sent {
		t.Errorf("the explorer did not call the task-only tool as a task")
	}
	d.keys("enter")
	if screen := m.Render(); !strings.Contains(screen, "Result") || !strings.Contains(m.tasks.detail(), "confirmed:") {
		t.Errorf("enter did not show the result:\n%s", screen)
	}

	// A long task, cancelled from the page.
	d.keys("2")
	d.selectItem(0, "sleep")
	d.keys("enter", "enter")
	d.typeText("30")
	d.keys("ctrl+s")
	d.until(30*time.Second, "the sleep task to be followed", func() bool {
		return m.tasks.Len() == 2 && m.tasks.rows[1].following && !m.explorer.FormOpen()
	})
	d.keys("4", "G")
	if screen := m.Render(); screenRow(screen, m.tasks.rows[1].task.ID, "sleep", "working", "200ms") == "" {
		t.Errorf("the running task's row lacks status or poll interval:\n%s", screen)
	}
	d.keys("c")
	d.until(30*time.Second, "the sleep task to end cancelled", func() bool {
		r := m.tasks.rows[1]
		return r.task.Status == session.TaskCancelled && !r.following
	})
}
