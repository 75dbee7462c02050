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

// TestTmuxTaskResultInExplorer calls a tool that answers with a task from the explorer at
// 80×24: the explorer follows the task (status, counted in flight in the status bar) and
// shows its result where the call was made; c cancels the next one from the explorer, and
// the one after from the detail T opens, with tasks/cancel.
func TestTmuxTaskResultInExplorer(t *testing.T) {
	t.Parallel()
	srv := sessiontest.BuildTaskServer(t)
	tm := startTerm(t, 80, 24, "--", srv)
	tm.waitFor("ready", ready)
	tm.keys("2")
	tm.waitFor("the task server's tools", func(s string) bool { return bodyHas(s, "sleep") })
	call := func(seconds string) {
		tm.keys("Enter")
		tm.waitFor("the form", func(s string) bool { return bodyContains(s, "tools/call sleep") })
		tm.keys("BSpace", "BSpace", "BSpace")
		tm.typeText(seconds)
		tm.keys("C-s")
	}

	call("2")
	s := tm.waitFor("the running task in the explorer", func(s string) bool { return bodyHas(s, "Task task-1", "working") })
	if !strings.Contains(statusLine(s), "(1 task)") {
		t.Errorf("the status bar does not count the running task: %q", statusLine(s))
	}
	tm.waitFor("the task's result in the explorer", func(s string) bool {
		return bodyContains(s, "task task-1 completed") && bodyContains(s, "slept")
	})
	tm.waitFor("nothing in flight", func(s string) bool { return strings.Contains(statusLine(s), "0 in flight") })

	call("30")
	tm.waitFor("the cancel key in the footer", func(s string) bool {
		return bodyHas(s, "Task task-2", "working") && strings.Contains(footerLine(s), "c cancel task")
	})
	tm.keys("c")
	tm.waitFor("the cancelled task in the explorer", func(s string) bool { return bodyContains(s, "task task-2 cancelled") })

	call("30")
	tm.waitFor("the third task running", func(s string) bool { return bodyHas(s, "Task task-3", "working") })
	tm.keys("T")
	// T shows the call: the request, or its answer naming task-3, whichever row it lands
	// on (at 24 rows a stacked pair may hide the other half); the Tasks page then says
	// which task the c cancelled.
	tm.waitFor("the detail with the cancel key", func(s string) bool {
		return (bodyContains(s, "task-3") || bodyContains(s, "request  tools/call")) && strings.Contains(footerLine(s), "c cancel task")
	})
	tm.keys("c")
	tm.keys("4")
	tm.waitFor("the task cancelled on the Tasks page", func(s string) bool { return bodyHas(s, "task-3", "cancelled") })
	tm.quit()
}

// TestTmuxCancelExplorerCall cancels a slow call of the demo server from the explorer: the
// footer offers c while it runs, and the explorer says the call was cancelled.
func TestTmuxCancelExplorerCall(t *testing.T) {
	t.Parallel()
	tm := startTerm(t, 80, 24)
	tm.waitFor("ready", ready)
	tm.keys("2")
	tm.waitFor("the demo's tools", func(s string) bool { return bodyHas(s, "add") })
	tm.keys("/")
	tm.typeText("slow")
	tm.waitFor("slow selected", func(s string) bool { return bodyHas(s, "▶slow") })
	tm.keys("Enter", "Enter")
	tm.waitFor("the form", func(s string) bool { return bodyContains(s, "tools/call slow") })
	tm.keys("C-s")
	tm.waitFor("the call running, c in the footer", func(s string) bool {
		return bodyContains(s, "calling slow") && strings.Contains(footerLine(s), "c cancel request")
	})
	tm.keys("c")
	tm.waitFor("the cancelled call", func(s string) bool { return bodyContains(s, "cancelled by the user") })
	tm.quit()
}

// TestTmuxEverythingTask calls the reference server's task tool (simulate-research-query,
// taskSupport required) from the explorer at 80×24: the explorer shows the running task,
// then the research report the task produced.
func TestTmuxEverythingTask(t *testing.T) {
	t.Parallel()
	node := sessiontest.NodePath(t)
	index := sessiontest.Everything(t)
	tm := startTerm(t, 80, 24, "--", node, index)
	tm.waitFor("ready", ready)
	tm.keys("2")
	tm.waitFor("the tools", func(s string) bool { return bodyHas(s, "echo") })
	tm.keys("/")
	tm.typeText("simulate-research")
	tm.waitFor("the task tool selected", func(s string) bool { return bodyHas(s, "▶simulate-research") })
	tm.keys("Enter", "Enter")
	tm.waitFor("the form", func(s string) bool { return bodyContains(s, "tools/call simulate-research-query") })
	tm.keys("Enter")
	tm.typeText("go tasks")
	tm.keys("Enter", "C-s")
	s := tm.waitFor("the running task in the explorer", func(s string) bool { return bodyHas(s, "Task ", "working") })
	if !strings.Contains(statusLine(s), "(1 task)") {
		t.Errorf("the status bar does not count the running task: %q", statusLine(s))
	}
	tm.waitFor("the task's report in the explorer", func(s string) bool {
		return bodyHas(s, "completed") && bodyContains(s, "Research Report: go tasks")
	})
	tm.quit()
}
