package explorer

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/internal/common"
)

// TestTaskRunInputRequest shows an input_required task's state in the explorer, read
// through its TaskLookup (the Tasks page's row), while its follower waits on the input.
func TestTaskRunInputRequest(t *testing.T) {
	c := common.NewCommon(nil)
	x, tasks := NewExplorer(c), fakeTasks{}
	x.gen = 1
	x.SetTaskLookup(tasks)
	x.SetSize(100, 30)
	x.SetLists(map[session.ListKind][]json.RawMessage{session.ListTools: {json.RawMessage(`{"name":"confirm","inputSchema":{"type":"object"}}`)}}, nil)
	r := &callRun{id: 1, gen: 1, method: methodToolsCall, target: "confirm", tool: "confirm", start: time.Now(), done: true,
		resp: &session.Response{Result: json.RawMessage(`{"resultType":"task","taskId":"t-7","status":"working"}`)}}
	x.runs[runKey(x.selected())] = r
	x.taskStarted(r)
	if r.task == nil || r.task.id != "t-7" {
		t.Fatalf("the run did not note its task: %+v", r.task)
	}
	tasks["t-7"] = TaskState{At: time.Now(), Following: true, Task: session.Task{ID: "t-7", Status: session.TaskInputRequired,
		StatusMessage: "waiting for the user", InputRequests: map[string]session.InputRequest{"a": {Method: "elicitation/create"}}}}
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

// TestTaskLookup: the explorer reads its calls' tasks through the lookup it is given.
func TestTaskLookup(t *testing.T) {
	c := common.NewCommon(nil)
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

}

// TestTaskCancelledRun: a run whose task the user cancelled (its follower ends with
// ErrTaskCancelled) says the task was cancelled, not that it failed.
func TestTaskCancelledRun(t *testing.T) {
	now := time.Now()
	x := NewExplorer(common.NewCommon(nil))
	x.gen = 1
	x.SetTaskLookup(fakeTasks{"t-1": {Task: session.Task{ID: "t-1", Status: session.TaskWorking}, At: now, Following: true}})
	x.SetSize(100, 30)
	x.SetLists(map[session.ListKind][]json.RawMessage{session.ListTools: {json.RawMessage(`{"name":"simulate-research-query","inputSchema":{"type":"object"}}`)}}, nil)
	r := &callRun{id: 1, gen: 1, method: methodToolsCall, target: "simulate-research-query", tool: "simulate-research-query", start: now, done: true,
		resp: &session.Response{Result: json.RawMessage(`{"task":{"taskId":"t-1","status":"working","createdAt":"2026-01-02T03:04:05Z"}}`)}}
	x.runs[runKey(x.selected())] = r
	x.taskStarted(r)
	x.TaskUpdated(TaskUpdateMsg{Gen: 1, Task: session.Task{ID: "t-1", Status: session.TaskCancelled}, At: now, Done: true,
		Err: fmt.Errorf("task t-1: %w", session.ErrTaskCancelled)})
	got := x.DetailText(100)
	if !strings.Contains(got, "task t-1 cancelled") || !strings.Contains(got, "was cancelled") || strings.Contains(got, "failed") || strings.Contains(got, "JSON-RPC") {
		t.Errorf("the explorer's outcome does not read as cancelled:\n%s", got)
	}
}
