package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/session"
)

// inFlightOf is the status bar's in-flight count as shown.
func inFlightOf(m *Model) string {
	bar := ansi.Strip(m.statusView(160))
	i := strings.Index(bar, " in flight")
	if i < 0 {
		return bar
	}
	j := strings.LastIndex(bar[:i], " ") + 1
	rest := bar[i:]
	if k := strings.Index(rest, ")"); strings.HasPrefix(rest, " in flight (") && k > 0 {
		return bar[j : i+k+1]
	}
	return bar[j : i+len(" in flight")]
}

// TestInFlightCountsCalls: one task call that asks for input counts as one call in flight
// (its task), not also its tasks/result poll and the server's elicitation/create; a call
// without a task whose server asks the user counts as one too.
func TestInFlightCountsCalls(t *testing.T) {
	m := newTimelineModel(t, Options{}, 160, 24)
	w := newEvWire()
	call := w.req(dirOut, 1, "tools/call", `{"name":"simulate-research-query","arguments":{},"task":{}}`)
	created := w.res(time.Millisecond, call, `{"task":{"taskId":"t-1","status":"working","createdAt":"2026-01-02T03:04:05Z"}}`)
	feedEvents(m, call, created)
	row := m.tasks.add(session.Task{ID: "t-1", Status: session.TaskInputRequired}, w.now)
	row.following = true
	poll := w.req(dirOut, 2, "tasks/result", `{"taskId":"t-1"}`)
	ask := w.req(dirIn, 0, "elicitation/create", `{"message":"which?","requestedSchema":{"type":"object"}}`)
	feedEvents(m, poll, ask)
	if got := inFlightOf(m); got != "1 in flight (1 task)" {
		t.Errorf("while the task asks: %q, want 1 in flight (1 task)", got)
	}
	answer := w.answer(time.Millisecond, ask, `{"jsonrpc":"2.0","id":0,"result":{"action":"accept","content":{}}}`)
	feedEvents(m, answer)
	if got := inFlightOf(m); got != "1 in flight (1 task)" {
		t.Errorf("after the answer: %q, want 1 in flight (1 task)", got)
	}
	// A user's own tasks/get of another task is a call of its own.
	other := w.req(dirOut, 3, "tasks/get", `{"taskId":"t-9"}`)
	feedEvents(m, other)
	if got := inFlightOf(m); got != "2 in flight (1 task)" {
		t.Errorf("with a tasks/get of another task: %q, want 2 in flight (1 task)", got)
	}

	m = newTimelineModel(t, Options{}, 160, 24)
	w = newEvWire()
	call = w.req(dirOut, 1, "tools/call", `{"name":"trigger-url-elicitation","arguments":{}}`)
	ask = w.req(dirIn, 0, "elicitation/create", `{"mode":"url","message":"open","url":"https://example.com/x","elicitationId":"e1"}`)
	feedEvents(m, call, ask)
	if got := inFlightOf(m); got != "1 in flight" {
		t.Errorf("a call whose server asks the user: %q, want 1 in flight", got)
	}
}
