package ui_test

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// TestTmuxTaskJourney calls a task-only tool from the explorer of a 2026-07-28 server: the
// task's input request opens as a dialog, the answer goes back with tasks/update, and the
// Tasks page shows the task completed and, on enter, its result.
func TestTmuxTaskJourney(t *testing.T) {
	t.Parallel()
	srv := sessiontest.BuildTaskServer(t)
	tm := startTerm(t, 120, 32, "--", srv)
	tm.waitFor("ready", ready)
	tm.keys("2")
	tm.waitFor("the task server's tools", func(s string) bool { return bodyHas(s, "confirm") })
	tm.keys("j", "Enter")
	tm.waitFor("the task's elicitation dialog", func(s string) bool { return bodyContains(s, "Proceed?") })
	tm.keys("C-s")
	tm.waitFor("the dialog closed", func(s string) bool { return !bodyContains(s, "Proceed?") })
	tm.keys("4")
	tm.waitFor("the task completed on the Tasks page", func(s string) bool {
		return bodyHas(s, "confirm", "completed")
	})
	tm.keys("Enter")
	s := tm.waitFor("the task's result", func(s string) bool { return bodyContains(s, "Result") })
	if !strings.Contains(s, "Task task-1") {
		t.Errorf("the detail does not name the task")
	}
	tm.keys("1")
	tm.waitFor("tasks/update in the timeline", func(s string) bool { return bodyContains(s, "tasks/update") })
	tm.quit()
}
