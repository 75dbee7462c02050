package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
)

// Task statuses (both eras).
const (
	TaskWorking       = "working"
	TaskInputRequired = "input_required"
	TaskCompleted     = "completed"
	TaskFailed        = "failed"
	TaskCancelled     = "cancelled"
)

// ListTasks is the tasks/list listing of 2025-11-25 (List(ctx, ListTasks) fetches every page).
// It is not one of ListKinds: the explorer does not show it.
const ListTasks ListKind = "tasks"

// ErrTaskCancelled is returned by AwaitTask when the task ends cancelled without a result.
var ErrTaskCancelled = errors.New("task cancelled")

// Task is a task's state as the server last reported it, read from either era's shape:
// 2025-11-25 (ttl, pollInterval, result through tasks/result) and the 2026-07-28 tasks
// extension (ttlMs, pollIntervalMs, result, error and inputRequests inlined in tasks/get).
type Task struct {
	ID            string
	Status        string
	StatusMessage string
	CreatedAt     string
	LastUpdatedAt string
	TTL           time.Duration           // 0 when unlimited or not given
	SuggestedPoll time.Duration           // the server's pollInterval; 0 when it suggests none
	Result        json.RawMessage         // 2026-07-28: a completed task's result
	Error         *RPCError               // 2026-07-28: a failed task's JSON-RPC error
	InputRequests map[string]InputRequest // 2026-07-28: outstanding requests of an input_required task
}

// InputRequest is one entry of an inputRequests map: a server→client request by value.
type InputRequest struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// Terminal reports whether the task has reached a status it can no longer leave.
func (t Task) Terminal() bool {
	return t.Status == TaskCompleted || t.Status == TaskFailed || t.Status == TaskCancelled
}

// wireTask is a Task as either era writes it.
type wireTask struct {
	ID             string                  `json:"taskId"`
	Status         string                  `json:"status"`
	StatusMessage  string                  `json:"statusMessage"`
	CreatedAt      string                  `json:"createdAt"`
	LastUpdatedAt  string                  `json:"lastUpdatedAt"`
	TTL            *float64                `json:"ttl"`
	TTLMs          *float64                `json:"ttlMs"`
	PollInterval   *float64                `json:"pollInterval"`
	PollIntervalMs *float64                `json:"pollIntervalMs"`
	Result         json.RawMessage         `json:"result"`
	Error          *RPCError               `json:"error"`
	InputRequests  map[string]InputRequest `json:"inputRequests"`
}

// ParseTask reads a Task object: a tasks/get or tasks/cancel result, a status
// notification's params, or an element of tasks/list. It needs taskId and status.
func ParseTask(raw json.RawMessage) (Task, error) {
	var w wireTask
	if err := json.Unmarshal(raw, &w); err != nil {
		return Task{}, fmt.Errorf("not a task object: %w", err)
	}
	if w.ID == "" || w.Status == "" {
		return Task{}, fmt.Errorf("not a task object: taskId and status are required")
	}
	t := Task{ID: w.ID, Status: w.Status, StatusMessage: w.StatusMessage, CreatedAt: w.CreatedAt,
		LastUpdatedAt: w.LastUpdatedAt, InputRequests: w.InputRequests, Error: w.Error}
	if len(w.Result) > 0 && string(w.Result) != "null" {
		t.Result = w.Result
	}
	t.TTL = millis(w.TTLMs, w.TTL)
	t.SuggestedPoll = millis(w.PollIntervalMs, w.PollInterval)
	return t, nil
}

// millis is the first of the given millisecond counts that is set, as a duration.
func millis(vs ...*float64) time.Duration {
	for _, v := range vs {
		if v != nil && *v > 0 && !math.IsInf(*v, 0) {
			return time.Duration(min(*v, float64(math.MaxInt64/int64(time.Millisecond))) * float64(time.Millisecond))
		}
	}
	return 0
}

// CreatedTask reports whether a result is a CreateTaskResult and returns its task: the
// 2025-11-25 shape {"task": {...}}, or the 2026-07-28 shape, flat with resultType "task".
// The members are read by their exact keys, in place: a result of many megabytes is scanned,
// never decoded.
func CreatedTask(result json.RawMessage) (Task, bool) {
	vals := protocol.MemberValues(result, "resultType", "task")
	if vals == nil {
		return Task{}, false
	}
	var resultType string
	if vals[0] != nil && json.Unmarshal(vals[0], &resultType) == nil && resultType == "task" {
		t, err := ParseTask(result)
		return t, err == nil
	}
	if task := vals[1]; len(task) > 0 && task[0] == '{' {
		t, err := ParseTask(task)
		return t, err == nil
	}
	return Task{}, false
}

// WithTask makes a call task-augmented. In 2025-11-25 the params get a task member (with
// ttl when ttl > 0); in 2026-07-28 the request's capabilities declare the tasks extension
// and the server decides whether to answer with a task.
func WithTask(ttl time.Duration) CallOption {
	return func(o *callOpts) { o.task, o.taskTTL = true, ttl }
}

// withTaskParam adds the 2025-11-25 task member to params, keeping what is there.
func withTaskParam(params json.RawMessage, ttl time.Duration) (json.RawMessage, error) {
	if len(params) == 0 {
		params = json.RawMessage(`{}`)
	}
	ms, ok := protocol.ObjectMembers(params)
	if !ok {
		return nil, fmt.Errorf("cannot add a task: params are not an object")
	}
	for _, m := range ms {
		if m.Key == "task" {
			return params, nil // the caller wrote one: send it as written
		}
	}
	task := json.RawMessage(`{}`)
	if ttl > 0 {
		task = mustJSON(map[string]int64{"ttl": ttl.Milliseconds()})
	}
	return protocol.EncodeObject(append(ms, protocol.Member{Key: "task", Value: task})), nil
}

// withExtension returns a capabilities object that also declares extension id.
func withExtension(caps json.RawMessage, id string) json.RawMessage {
	m := map[string]json.RawMessage{}
	_ = json.Unmarshal(caps, &m)
	ext := map[string]json.RawMessage{}
	_ = json.Unmarshal(m["extensions"], &ext)
	if _, ok := ext[id]; !ok {
		ext[id] = json.RawMessage(`{}`)
	}
	m["extensions"] = mustJSON(ext)
	return mustJSON(m)
}

// taskParams is the params of tasks/get, tasks/result and tasks/cancel.
func taskParams(id string) map[string]string { return map[string]string{"taskId": id} }

// GetTask polls a task once (tasks/get).
func (s *Session) GetTask(ctx context.Context, id string) (Task, *Response, error) {
	resp, err := s.Call(ctx, "tasks/get", taskParams(id))
	if err != nil {
		return Task{}, resp, err
	}
	t, err := ParseTask(resp.Result)
	if err != nil {
		return Task{}, resp, fmt.Errorf("tasks/get: %w", err)
	}
	return t, resp, nil
}

// TaskResult asks for a task's result (tasks/result, 2025-11-25). The server holds the
// answer until the task is terminal and may meanwhile send the requests the task needs
// answered; those go to the Responder. The request has no timeout of its own: ctx bounds it.
func (s *Session) TaskResult(ctx context.Context, id string) (*Response, error) {
	return s.Call(ctx, "tasks/result", taskParams(id), WithTimeout(-1))
}

// CancelTask asks the server to cancel a task (tasks/cancel). In 2025-11-25 the answer is
// the task, now cancelled; in 2026-07-28 an empty acknowledgement (the returned task is nil).
func (s *Session) CancelTask(ctx context.Context, id string) (*Task, error) {
	resp, err := s.Call(ctx, "tasks/cancel", taskParams(id))
	if err != nil {
		return nil, err
	}
	if t, err := ParseTask(resp.Result); err == nil {
		return &t, nil
	}
	return nil, nil
}

// UpdateTask delivers answers to a task's input requests (tasks/update, 2026-07-28).
func (s *Session) UpdateTask(ctx context.Context, id string, answers map[string]json.RawMessage) error {
	_, err := s.Call(ctx, "tasks/update", map[string]any{"taskId": id, "inputResponses": answers})
	return err
}

// TaskUpdate is what a watcher of a task learns: a new state from a poll or a notification.
type TaskUpdate struct {
	Task  Task
	Event *Event // the frame that carried it
}

// watchTask registers a channel that receives the task's status notifications.
func (s *Session) watchTask(id string) (<-chan TaskUpdate, func()) {
	ch := make(chan TaskUpdate, 1)
	s.mu.Lock()
	if s.taskWatch == nil {
		s.taskWatch = map[string]chan TaskUpdate{}
	}
	s.taskWatch[id] = ch
	s.mu.Unlock()
	return ch, func() {
		s.mu.Lock()
		if s.taskWatch[id] == ch {
			delete(s.taskWatch, id)
		}
		s.mu.Unlock()
	}
}

// taskNotificationLocked hands a status notification (notifications/tasks/status of
// 2025-11-25, notifications/tasks of 2026-07-28) to the task's watcher, newest first.
func (s *Session) taskNotificationLocked(m *protocol.Frame, ev *Event) {
	t, err := ParseTask(m.Params)
	if err != nil {
		return
	}
	ch := s.taskWatch[t.ID]
	if ch == nil {
		return
	}
	select {
	case <-ch: // drop the older state not yet taken
	default:
	}
	ch <- TaskUpdate{Task: t, Event: ev}
}

// TaskSupport says why the server cannot be expected to run tools/call as a task, or ""
// when it declared that it can: capabilities.tasks.requests.tools.call in 2025-11-25, the
// tasks extension in 2026-07-28.
func (s *Session) TaskSupport() string {
	info := s.Info()
	c := protocol.CheckContext{Revision: info.Revision, ServerCaps: info.Capabilities}
	if info.Stateless {
		if !protocol.Declared(c, "server:extensions."+protocol.TasksExtension) {
			return "the server did not declare the " + protocol.TasksExtension + " extension"
		}
		return ""
	}
	if info.Revision != "" && info.Revision < protocol.Rev20251125 {
		return "protocol " + string(info.Revision) + " has no tasks"
	}
	if !protocol.Declared(c, "server:tasks.requests.tools.call") {
		return "the server did not declare the tasks.requests.tools.call capability"
	}
	return ""
}
