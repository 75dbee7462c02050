package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/session"
)

// exDetail is the explorer's detail of the selected item as plain text.
func exDetail(m *Model) string {
	return m.explorer.DetailText(100)
}

// callSleep calls the task server's sleep tool from the explorer for seconds.
func callSleep(d *driver, seconds string) {
	d.t.Helper()
	d.keys("2")
	d.selectItem(0, "sleep")
	d.keys("enter", "enter")
	d.typeText(seconds)
	d.keys("ctrl+s")
}

// TestExplorerFollowsTask calls task-augmented tools from the explorer in both eras: the
// explorer's result follows the task (its status while it runs, counted in flight in the
// status bar) and ends with the task's result, or its error.
func TestExplorerFollowsTask(t *testing.T) {
	for _, rev := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(rev, func(t *testing.T) {
			m, d := taskModelIn(t, rev)

			callSleep(d, "2")
			d.until(30*time.Second, "the explorer to show the running task", func() bool {
				return strings.Contains(exDetail(m), "Task task-1 working")
			})
			if bar := ansi.Strip(m.statusView(120)); !strings.Contains(bar, "(1 task)") {
				t.Errorf("the status bar does not count the running task: %q", bar)
			}
			d.until(30*time.Second, "the task's result in the explorer", func() bool {
				return strings.Contains(exDetail(m), "slept")
			})
			if got := exDetail(m); !strings.Contains(got, "task task-1 completed") || strings.Contains(got, `"resultType"`) {
				t.Errorf("the explorer's result is not the task's:\n%s", got)
			}
			d.until(10*time.Second, "nothing in flight", func() bool {
				return strings.Contains(ansi.Strip(m.statusView(120)), "0 in flight")
			})

			// Input through the responder, then the result where the call was made.
			d.selectItem(0, "confirm")
			d.keys("enter")
			d.until(30*time.Second, "the confirmed result in the explorer", func() bool {
				return strings.Contains(exDetail(m), "confirmed:")
			})

			// A failed task's error.
			d.selectItem(0, "fail")
			d.keys("enter")
			d.until(30*time.Second, "the failed task's error in the explorer", func() bool {
				return strings.Contains(exDetail(m), "failed: JSON-RPC error")
			})
			if got := exDetail(m); !strings.Contains(got, "the job broke") {
				t.Errorf("the failure does not say why:\n%s", got)
			}
		})
	}
}

// TestTasksPageTaskState: the Tasks page answers the explorer's TaskLookup from its rows,
// only for its own session, with the state its follower keeps.
func TestTasksPageTaskState(t *testing.T) {
	p := NewTasksPage(NewCommon(nil))
	p.gen = 2
	row := p.add(session.Task{ID: "t-2", Status: session.TaskWorking}, time.Now())
	if _, ok := p.TaskState(1, "t-2"); ok {
		t.Errorf("the Tasks page answered for another session's task")
	}
	if st, ok := p.TaskState(2, "t-2"); !ok || st.Task.Status != session.TaskWorking || st.Following {
		t.Errorf("TaskState(2, t-2) = %+v, %v", st, ok)
	}
	row.following = true
	row.task.Status = session.TaskInputRequired
	row.task.InputRequests = map[string]session.InputRequest{"a": {Method: "elicitation/create"}}
	if st, ok := p.TaskState(2, "t-2"); !ok || !st.Following || st.Task.Status != session.TaskInputRequired || len(st.Task.InputRequests) != 1 {
		t.Errorf("TaskState(2, t-2) after the follower's update = %+v, %v", st, ok)
	}
}
