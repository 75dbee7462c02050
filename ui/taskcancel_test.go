package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/session"
)

// TestTaskCancelNotAFailure: the user cancels a task while its tasks/result waits; the
// server answers that tasks/result with an error (as server-everything does). The error row
// stays in the timeline, but the status line counts no error, and the Tasks page says the
// task was cancelled, not that it failed (the explorer's run: TestTaskCancelledRun in
// ui/explorer). A tasks/result error of a task nobody cancelled still counts.
func TestTaskCancelNotAFailure(t *testing.T) {
	m := newTimelineModel(t, Options{}, 160, 24)
	w := newEvWire()
	call := w.req(dirOut, 1, "tools/call", `{"name":"simulate-research-query","arguments":{},"task":{}}`)
	created := w.res(time.Millisecond, call, `{"task":{"taskId":"t-1","status":"working","createdAt":"2026-01-02T03:04:05Z"}}`)
	poll := w.req(dirOut, 2, "tasks/result", `{"taskId":"t-1"}`)
	cancel := w.req(dirOut, 3, "tasks/cancel", `{"taskId":"t-1"}`)
	cancelled := w.res(time.Millisecond, cancel, `{"taskId":"t-1","status":"cancelled","createdAt":"2026-01-02T03:04:05Z"}`)
	noResult := w.rpcErr(time.Millisecond, poll, -32603, "Task t-1 has no result stored")
	feedEvents(m, call, created, poll, cancel, cancelled, noResult)
	if e := m.hist.Lookup(1, noResult.Seq); e == nil || !e.IsError() {
		t.Fatalf("the server's error to tasks/result is not an error row in the timeline: %+v", e)
	}
	if errs, _ := m.hist.CountsSince(1); errs != 0 {
		t.Errorf("the error after the user's cancel counts as %d error(s)", errs)
	}
	if bar := ansi.Strip(m.statusView(160)); strings.Contains(bar, "error") {
		t.Errorf("the status line counts an error: %q", bar)
	}

	// The follower ends with the cancel.
	done := TaskUpdateMsg{Gen: 1, Task: session.Task{ID: "t-1", Status: session.TaskCancelled}, At: w.now, Done: true,
		Err: fmt.Errorf("task t-1: %w", session.ErrTaskCancelled)}
	m.tasks.add(session.Task{ID: "t-1", Status: session.TaskWorking}, w.now).following = true

	m.tasks.Update(done)
	row := m.tasks.byID["t-1"]
	if line := taskLine(row, w.now, 120); row.err != "" || !strings.Contains(line, "cancelled") || strings.Contains(line, "JSON-RPC") || strings.Contains(line, "task cancelled") {
		t.Errorf("the Tasks page's row: %q (error %q), want it cancelled and nothing more", line, row.err)
	}

	// Nobody cancelled this one: its tasks/result error counts.
	poll2 := w.req(dirOut, 4, "tasks/result", `{"taskId":"t-2"}`)
	feedEvents(m, poll2, w.rpcErr(time.Millisecond, poll2, -32603, "broken"))
	if errs, _ := m.hist.CountsSince(1); errs != 1 {
		t.Errorf("a tasks/result error without a cancel counts %d, want 1", errs)
	}
}
