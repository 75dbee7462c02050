package ui

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/session"
)

// exDetail is the explorer's detail of the selected item as plain text.
func exDetail(m *Model) string {
	return ansi.Strip(strings.Join(m.explorer.detailLines(100), "\n"))
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

// TestTaskRunInputRequest shows an input_required task's state in the explorer, read from
// the Tasks page's row, while its follower waits on the input.
func TestTaskRunInputRequest(t *testing.T) {
	c := NewCommon(nil)
	x, p := NewExplorer(c), NewTasksPage(c)
	x.gen, p.gen = 1, 1
	x.SetTaskLookup(p)
	x.SetSize(100, 30)
	x.SetLists(map[session.ListKind][]json.RawMessage{session.ListTools: {json.RawMessage(`{"name":"confirm","inputSchema":{"type":"object"}}`)}}, nil)
	created := session.Task{ID: "t-7", Status: session.TaskWorking}
	r := &callRun{id: 1, gen: 1, method: methodToolsCall, target: "confirm", tool: "confirm", start: time.Now(), done: true,
		resp: &session.Response{Result: json.RawMessage(`{"resultType":"task","taskId":"t-7","status":"working"}`)}}
	x.runs[runKey(x.selected())] = r
	x.taskStarted(r)
	if r.task == nil || r.task.id != "t-7" {
		t.Fatalf("the run did not note its task: %+v", r.task)
	}
	row := p.add(created, time.Now())
	row.following = true
	row.task.Status = session.TaskInputRequired
	row.task.StatusMessage = "waiting for the user"
	row.task.InputRequests = map[string]session.InputRequest{"a": {Method: "elicitation/create"}}
	got := ansi.Strip(strings.Join(x.detailLines(100), "\n"))
	for _, want := range []string{"Task t-7 input_required ⟳", "waiting for the user", "1 input request ([elicitation/create])", "c cancels it (tasks/cancel)"} {
		if !strings.Contains(got, want) {
			t.Errorf("the running task's section lacks %q:\n%s", want, got)
		}
	}
	if !x.running() {
		t.Errorf("a run whose task runs is not running")
	}

	// The follower ends: the outcome replaces the state.
	x.TaskUpdated(TaskUpdateMsg{Gen: 1, Task: session.Task{ID: "t-7", Status: session.TaskCompleted}, At: time.Now(), Done: true,
		Result: json.RawMessage(`{"content":[{"type":"text","text":"confirmed: yes"}]}`)})
	got = ansi.Strip(strings.Join(x.detailLines(100), "\n"))
	if !strings.Contains(got, "confirmed: yes") || strings.Contains(got, "input_required") || x.running() {
		t.Errorf("the ended task's result is not the run's:\n%s", got)
	}
}

// fakeTasks is a TaskLookup that is not the Tasks page.
type fakeTasks map[string]TaskState

func (f fakeTasks) TaskState(gen int, id string) (TaskState, bool) {
	st, ok := f[id]
	return st, ok && gen == 1
}

// TestTaskLookup: the explorer reads its calls' tasks through the lookup it is given, and
// the Tasks page answers only for its own session.
func TestTaskLookup(t *testing.T) {
	c := NewCommon(nil)
	x := NewExplorer(c)
	x.gen = 1
	x.SetTaskLookup(fakeTasks{"t-1": {Task: session.Task{ID: "t-1", Status: session.TaskCompleted}, At: time.Now(),
		Result: json.RawMessage(`{"content":[{"type":"text","text":"from the lookup"}]}`)}})
	r := &callRun{id: 1, gen: 1, method: methodToolsCall, target: "t", tool: "t", start: time.Now(), done: true,
		resp: &session.Response{Result: json.RawMessage(`{"resultType":"task","taskId":"t-1","status":"working"}`)}}
	x.taskStarted(r)
	if r.task == nil || !r.task.done || r.resp == nil || !strings.Contains(string(r.resp.Result), "from the lookup") {
		t.Fatalf("the ended task's outcome was not taken from the lookup: task %+v", r.task)
	}

	p := NewTasksPage(c)
	p.gen = 2
	p.add(session.Task{ID: "t-2", Status: session.TaskWorking}, time.Now())
	if _, ok := p.TaskState(1, "t-2"); ok {
		t.Errorf("the Tasks page answered for another session's task")
	}
	if st, ok := p.TaskState(2, "t-2"); !ok || st.Task.Status != session.TaskWorking {
		t.Errorf("TaskState(2, t-2) = %+v, %v", st, ok)
	}
}
