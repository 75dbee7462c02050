package explorer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/internal/common"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
)

// maxCreateTaskResult bounds the answer read for a CreateTaskResult in Update: a task's
// state is small, a larger answer is a result, not a task.
const maxCreateTaskResult = 64 << 10

// runTask is the task a run's request created (its answer was a CreateTaskResult). The
// Tasks page follows it (one follower per task, session.AwaitTask); the explorer reads the
// task's live state from the page's row and takes the outcome from the follower's last
// TaskUpdateMsg, so the result comes back where the call was made.
type runTask struct {
	id      string
	created session.Task // the state the CreateTaskResult gave
	done    bool         // the follower ended: the run's resp and err are the task's outcome
	status  string       // the status it ended in
	end     time.Time
}

// taskRunning reports whether r's task is still being followed to its end.
func (r *callRun) taskRunning() bool { return r.task != nil && !r.task.done }

// taskStarted notes the task r's answer created, if it created one. When the Tasks page
// already saw the task end (its follower can be faster than the call's own message), the
// outcome is taken from the page's row.
func (x *Explorer) taskStarted(r *callRun) {
	if r.err != nil || r.resp == nil || r.method != methodToolsCall || len(r.resp.Result) > maxCreateTaskResult {
		return
	}
	t, ok := session.CreatedTask(r.resp.Result)
	if !ok {
		return
	}
	r.task = &runTask{id: t.ID, created: t}
	st, ok := x.taskState(t.ID)
	if !ok || st.Following || !st.Task.Terminal() {
		return
	}
	var err error
	if st.Err != "" {
		err = errors.New(st.Err)
	}
	x.taskEnded(r, TaskUpdateMsg{Gen: r.gen, Task: st.Task, At: st.At, Done: true, Result: st.Result, Err: err})
}

// TaskState is what the Tasks page knows of one task: its last state, when that changed,
// whether a follower still follows it, and its outcome once it ended.
type TaskState struct {
	Task      session.Task
	At        time.Time
	Following bool
	Result    json.RawMessage
	Err       string
}

// TaskLookup is how the explorer reads the tasks its calls created; the Tasks page is one.
// TaskState answers for task id of session gen, ok false when it has no such task.
type TaskLookup interface {
	TaskState(gen int, id string) (TaskState, bool)
}

// SetTaskLookup makes l the place the explorer reads its calls' tasks from.
func (x *Explorer) SetTaskLookup(l TaskLookup) { x.tasks = l }

// taskState is what the explorer's lookup knows of task id in the current session.
func (x *Explorer) taskState(id string) (TaskState, bool) {
	if x.tasks == nil {
		return TaskState{}, false
	}
	return x.tasks.TaskState(x.gen, id)
}

// TaskUpdated takes in a followed task's update: the run whose call created the task
// shows its outcome once the follower ends.
func (x *Explorer) TaskUpdated(msg TaskUpdateMsg) {
	if msg.Gen != x.gen {
		return
	}
	for _, r := range x.runs {
		if r.gen == msg.Gen && r.taskRunning() && r.task.id == msg.Task.ID {
			if msg.Done {
				x.taskEnded(r, msg)
			}
			x.clampDetail()
		}
	}
}

// taskEnded makes the task's outcome the run's: its result, or why there is none.
func (x *Explorer) taskEnded(r *callRun, msg TaskUpdateMsg) {
	r.task.done, r.task.status, r.task.end = true, msg.Task.Status, msg.At
	resp := &session.Response{Result: msg.Result, Latency: max(0, msg.At.Sub(r.start))}
	if r.resp != nil {
		resp.Request, resp.Event = r.resp.Request, r.resp.Event
	}
	r.resp, r.err, r.view = resp, nil, nil
	switch {
	case errors.Is(msg.Err, session.ErrTaskCancelled), msg.Err == nil && len(msg.Result) == 0 && msg.Task.Status == session.TaskCancelled:
		r.err = fmt.Errorf("task %s was cancelled, so it has no result (what the server answered is in the timeline)", r.task.id)
	case errors.As(msg.Err, new(*session.RPCError)):
		r.err = fmt.Errorf("task %s failed: %w", r.task.id, msg.Err)
	case msg.Err != nil:
		r.err = msg.Err // it names the task
	case len(msg.Result) == 0:
		r.err = fmt.Errorf("task %s ended %s without a result", r.task.id, msg.Task.Status)
	}
}

// endTasks ends the task runs of an earlier session: nothing follows them any more.
func (x *Explorer) endTasks(gen int) {
	for _, r := range x.runs {
		if r.taskRunning() && r.gen != gen {
			r.task.done, r.task.status, r.task.end = true, "unknown", x.clock()
			r.err, r.view = fmt.Errorf("task %s: the session ended (restart); the server may still run it", r.task.id), nil
		}
	}
}

// taskLines is the section of a run whose task is still running: its status, progress,
// message, input requests and the keys that act on it.
func (x *Explorer) taskLines(r *callRun, w int) []string {
	s := x.c.Styles
	const pad = " "
	t, following, note := r.task.created, true, ""
	if st, ok := x.taskState(r.task.id); ok {
		t, following, note = st.Task, st.Following, st.Err
	}
	st := s.Accent
	switch t.Status {
	case session.TaskInputRequired:
		st = s.Finding
	case session.TaskFailed:
		st = s.Error
	case session.TaskCompleted:
		st = s.Response
	}
	status := t.Status
	if following {
		status += " ⟳"
	}
	head := pad + s.PaneTitle.Render("Task "+t.ID) + " " + st.Render(status) +
		s.Muted.Render(" ⏱ "+textfmt.Elapsed(max(0, x.now.Sub(r.start))))
	if e := x.requestEntry(r); e != nil && e.Progress != nil {
		head += " " + s.Accent.Render(common.ProgressText(e.Progress))
	}
	out := append([]string{head}, textfmt.WrapProse(s.Muted, r.method+" "+r.target+" answered with a task: its result appears here when it ends", pad, w)...)
	if t.StatusMessage != "" {
		out = append(out, textfmt.WrapProse(s.Subtle, t.StatusMessage, pad, w)...)
	}
	if t.Status == session.TaskInputRequired {
		out = append(out, textfmt.WrapProse(s.Finding, "the task needs input: "+inputRequestsText(t)+"; answer it in the dialog", pad, w)...)
	}
	if note != "" {
		out = append(out, textfmt.WrapProse(s.Error, note, pad, w)...)
	}
	k := x.c.Keys
	return append(out, textfmt.WrapProse(s.Muted, fmt.Sprintf("%s cancels it (tasks/cancel) · %s shows the call in the timeline · %s the Tasks page",
		k.Act.Cancel.Help().Key, k.ShowCall.Help().Key, k.Tasks.Help().Key), pad, w)...)
}

// inputRequestsText names what an input_required task asks for.
func inputRequestsText(t session.Task) string {
	if len(t.InputRequests) == 0 {
		return "the server sends its requests while the result is awaited"
	}
	methods := make([]string, 0, len(t.InputRequests))
	for _, in := range t.InputRequests {
		methods = append(methods, in.Method)
	}
	sort.Strings(methods)
	return textfmt.Plural(len(methods), "input request") + " (" + fmt.Sprint(methods) + ")"
}

// taskSummary is the line above a finished task run's result: which task it was and how
// it ended.
func (x *Explorer) taskSummary(r *callRun) []string {
	if r.task == nil || !r.task.done {
		return nil
	}
	s := x.c.Styles
	status := r.task.status
	st := s.Response
	switch status {
	case session.TaskCompleted:
	case session.TaskCancelled:
		st = s.Muted // not a failure: the task was cancelled
	default:
		st = s.Error
	}
	return []string{" " + s.Muted.Render("task "+r.task.id+" ") + st.Render(status)}
}

// ErrCancelledByUser is the outcome of a call the user cancelled.
var ErrCancelledByUser = errors.New("cancelled by the user; an answer that still comes is flagged late in the timeline")

// runErr is how a run's error reads: a cancel the user asked for says so.
func runErr(err error) error {
	if errors.Is(err, context.Canceled) {
		return ErrCancelledByUser
	}
	return err
}

// runErrLabel says what kind of failure a run's error is.
func runErrLabel(r *callRun) string {
	var rpc *session.RPCError
	switch {
	case r.task != nil, errors.Is(r.err, ErrCancelledByUser):
		return ""
	case errors.As(r.err, &rpc):
		return "JSON-RPC error (no result): "
	}
	return "request failed: "
}

// RunningTaskIDs are the ids of the tasks that calls of session gen created and whose
// outcome has not come back.
func (x *Explorer) RunningTaskIDs(gen int) []string {
	var ids []string
	for _, r := range x.runs {
		if r.gen == gen && r.taskRunning() {
			ids = append(ids, r.task.id)
		}
	}
	return ids
}
