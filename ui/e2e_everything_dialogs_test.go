package ui_test

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// everythingTerm80 runs the reference server over stdio in an 80×24 terminal.
func everythingTerm80(t *testing.T) *term {
	t.Helper()
	node := sessiontest.NodePath(t)
	index := sessiontest.Everything(t)
	tm := startTerm(t, 80, 24, "--no-record", "--", node, index)
	tm.waitFor(`status "ready" and a tools/list response`, func(s string) bool {
		return ready(s) && listsAnswered(s)
	})
	return tm
}

// longPageURL is a page longer than an 80-column dialog's inner width (74 cells).
const longPageURL = "https://auth.example-service.com/oauth2/authorize-device?client-id=mcpscope-demo-client&state=a1b2c3d4e5f6g7h8&redirect=https://app.example-service.com/after-login"

// TestTmuxEverythingURLElicitation: at 80×24 the reference server's trigger-url-elicitation
// opens the URL-mode dialog: the URL is below its label in pieces of the dialog's whole
// inner width, each alone between the borders; y copy URL is offered and copies; the call
// counts as 1 in flight (the server's elicitation/create is not a call of the user's).
func TestTmuxEverythingURLElicitation(t *testing.T) {
	t.Parallel()
	tm := everythingTerm80(t)
	tm.composeCall(`{"name":"trigger-url-elicitation","arguments":{"url":"` + longPageURL + `","message":"Please log in"}}`)
	s := tm.waitFor("the URL dialog", func(s string) bool {
		return bodyContains(s, "The server asks you to open a page") && bodyContains(s, "y copy URL")
	})
	const iw = 74
	for i := 0; i < len(longPageURL); i += iw {
		piece := longPageURL[i:min(len(longPageURL), i+iw)]
		if !bodyContains(s, "│ "+piece) {
			t.Errorf("URL piece %q is not alone on a line of the dialog:\n%s", piece, s)
		}
	}
	tm.waitFor("the call counted as 1 in flight", func(s string) bool { return strings.Contains(statusLine(s), "1 in flight") })
	tm.keys("y")
	tm.waitFor("the copy's status", func(s string) bool { return strings.Contains(s, "(the URL)") })
	tm.keys("Enter")
	tm.waitFor("the dialog gone", func(s string) bool { return !bodyContains(s, "open a page") })
	tm.quit()
}

// TestTmuxEverythingTaskCancel cancels the reference server's simulate-research-query task
// from the explorer at 80×24. The server then answers the pending tasks/result with error
// -32603 ("has no result stored"): that error is a row of the timeline, but the explorer
// and the Tasks page say cancelled, not failed, and the status line counts no error.
func TestTmuxEverythingTaskCancel(t *testing.T) {
	t.Parallel()
	tm := everythingTerm80(t)
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
	// The task counts as one call: its polls are not counted again. Another request of the
	// session's own (a list refresh) may be in flight for a moment, and then counts.
	tm.waitFor("the running task in the explorer, counted as 1 in flight (1 task)", func(s string) bool {
		return bodyHas(s, "Task ", "working") && strings.Contains(statusLine(s), "1 in flight (1 task)")
	})
	tm.keys("c")
	s := tm.waitFor("the cancelled task in the explorer", func(s string) bool { return bodyHas(s, "task ", "cancelled") && bodyContains(s, "was cancelled") })
	if bodyContains(s, "failed") || bodyContains(s, "JSON-RPC") {
		t.Errorf("the explorer reads as a failure:\n%s", s)
	}
	tm.keys("1")
	s = tm.waitFor("the server's error to tasks/result in the timeline", func(s string) bool { return bodyHas(s, "error", "tasks/result", "-32603") })
	if got := statusLine(s); strings.Contains(got, "error") {
		t.Errorf("status line %q counts an error", got)
	}
	tm.keys("4")
	s = tm.waitFor("the Tasks page", func(s string) bool { return bodyHas(s, "simulate-rese", "cancelled") })
	for _, row := range body(s) {
		if strings.Contains(row, "cancelled") && (strings.Contains(row, "JSON-RPC") || strings.Contains(row, "err")) {
			t.Errorf("the Tasks page's row: %q", row)
		}
	}
	tm.quit()
}
