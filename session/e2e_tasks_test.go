package session_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/session/transport"
)

// taskSession connects to the task server under protocol (a revision or "auto"); the
// headless responder accepts elicitations with their defaults.
func taskSession(t *testing.T, protocolFlag string, checked bool) (*session.Session, *sessiontest.Recorder) {
	t.Helper()
	tr := transport.NewStdio(transport.StdioOptions{Command: sessiontest.BuildTaskServer(t), Args: []string{"-poll", "200"}})
	cfg := session.Config{Protocol: protocolFlag, Caps: session.DefaultCaps(), Responder: &session.Headless{Elicit: session.ElicitAcceptDefaults}}
	if checked {
		s, rec := connectChecked(t, tr, cfg)
		return s, rec.Recorder
	}
	cfg.Transport = tr
	s := session.New(cfg)
	rec := sessiontest.Record(t, s)
	if err := s.Connect(testCtx(t)); err != nil {
		t.Fatalf("connect: %v\n%s", err, rec.Timeline())
	}
	return s, rec
}

// updates collects what AwaitTask reports.
type updates struct {
	mu   sync.Mutex
	seen []session.Task
}

func (u *updates) add(x session.TaskUpdate) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.seen = append(u.seen, x.Task)
}

func (u *updates) statuses() string {
	u.mu.Lock()
	defer u.mu.Unlock()
	var s []string
	for _, t := range u.seen {
		if len(s) == 0 || s[len(s)-1] != t.Status {
			s = append(s, t.Status)
		}
	}
	return strings.Join(s, ",")
}

// runTask calls a tool as a task and follows it to its end.
func runTask(t *testing.T, s *session.Session, tool string, args map[string]any) (*session.Response, *updates, error) {
	t.Helper()
	resp, err := s.Call(testCtx(t), "tools/call", map[string]any{"name": tool, "arguments": args},
		session.WithTask(30*time.Second), session.WithProgress())
	if err != nil {
		t.Fatalf("tools/call %s as a task: %v", tool, err)
	}
	if _, ok := session.CreatedTask(resp.Result); !ok {
		t.Fatalf("tools/call %s: not a CreateTaskResult: %s", tool, resp.Result)
	}
	u := &updates{}
	final, err := s.FollowCreated(testCtx(t), resp, u.add)
	return final, u, err
}

// pollGaps checks that consecutive tasks/get requests for one task were at least the
// server's pollInterval (200 ms) apart, less a little for timer slack.
func pollGaps(t *testing.T, rec *sessiontest.Recorder, taskID string) {
	t.Helper()
	var last time.Time
	n := 0
	for _, e := range rec.FindAll(sessiontest.Sent("tasks/get")) {
		if !strings.Contains(string(e.Frame.Params), `"`+taskID+`"`) {
			continue
		}
		if n > 0 {
			if gap := e.Time.Sub(last); gap < 190*time.Millisecond {
				t.Errorf("tasks/get %d of %s came %s after the previous one; the server asked for 200ms", n+1, taskID, gap)
			}
		}
		last = e.Time
		n++
	}
	if n < 2 {
		t.Errorf("%s was polled %d times; want at least 2", taskID, n)
	}
}

// TestTasks20251125 runs tasks of 2025-11-25 against a real server: the task member,
// polling at the server's interval, input through tasks/result, failure, cancel, list.
func TestTasks20251125(t *testing.T) {
	s, rec := taskSession(t, "2025-11-25", true)

	resp, u, err := runTask(t, s, "sleep", map[string]any{"seconds": 0.8})
	if err != nil {
		t.Fatalf("sleep task: %v\n%s", err, rec.Timeline())
	}
	if got := contentText(t, resp.Result); got != "slept" {
		t.Errorf("sleep task result %q, want slept", got)
	}
	if u.statuses() != "working,completed" {
		t.Errorf("reported statuses %q, want working,completed", u.statuses())
	}
	rec.Reached(t, resp.Event.Seq) // what was sent before the result is recorded
	call := rec.Find(sessiontest.Sent("tools/call"))
	if call == nil {
		t.Fatalf("no tools/call recorded:\n%s", rec.Timeline())
	}
	if !strings.Contains(string(call.Frame.Params), `"task":{"ttl":30000}`) {
		t.Errorf("tools/call params lack the task member: %s", call.Frame.Params)
	}
	pollGaps(t, rec, u.seen[0].ID)
	// Progress after the CreateTaskResult still belongs to the tools/call.
	prog := rec.WaitFor(t, 5*time.Second, "progress", sessiontest.Received("notifications/progress"))
	if prog.Corr.RequestSeq != call.Seq {
		t.Errorf("progress linked to seq %d, want the tools/call %d", prog.Corr.RequestSeq, call.Seq)
	}
	if rec.Find(sessiontest.Sent("tasks/result")) == nil {
		t.Errorf("the result was not fetched with tasks/result")
	}

	inputAndFailure(t, s, rec)
	cancelAndList(t, s)
}

// inputAndFailure runs a task that asks for input (answered by the headless responder)
// and one that fails with a JSON-RPC error.
func inputAndFailure(t *testing.T, s *session.Session, rec *sessiontest.Recorder) {
	t.Helper()
	resp, u, err := runTask(t, s, "confirm", map[string]any{})
	if err != nil {
		t.Fatalf("confirm task: %v\n%s", err, rec.Timeline())
	}
	if got := contentText(t, resp.Result); !strings.Contains(got, `"ok":true`) {
		t.Errorf("confirm task result %q, want the accepted elicitation", got)
	}
	if !strings.Contains(u.statuses(), "input_required") {
		t.Errorf("reported statuses %q never showed input_required", u.statuses())
	}
	if u.seen[len(u.seen)-1].Status != session.TaskCompleted {
		t.Errorf("the last reported status is %s, want completed", u.seen[len(u.seen)-1].Status)
	}
	_, _, err = runTask(t, s, "fail", map[string]any{})
	var rpc *session.RPCError
	if !errors.As(err, &rpc) || rpc.Code != protocol.InternalError {
		t.Errorf("fail task: error %v, want JSON-RPC -32603", err)
	}
}

// cancelAndList cancels a long task, checks it ends cancelled, and lists the tasks.
func cancelAndList(t *testing.T, s *session.Session) {
	t.Helper()
	resp, err := s.Call(testCtx(t), "tools/call", map[string]any{"name": "sleep", "arguments": map[string]any{"seconds": 30}}, session.WithTask(0))
	if err != nil {
		t.Fatal(err)
	}
	task, _ := session.CreatedTask(resp.Result)
	if _, err := s.CancelTask(testCtx(t), task.ID); err != nil {
		t.Fatalf("tasks/cancel: %v", err)
	}
	got, _, err := s.GetTask(testCtx(t), task.ID)
	if err != nil || got.Status != session.TaskCancelled {
		t.Fatalf("after tasks/cancel: %+v, %v", got, err)
	}
	ctx, cancel := context.WithTimeout(testCtx(t), 10*time.Second)
	defer cancel()
	// The server answers the cancelled task's tasks/result with an error; the outcome is
	// the cancel, not a failure.
	if _, err := s.AwaitTask(ctx, got, nil); !errors.Is(err, session.ErrTaskCancelled) {
		t.Errorf("awaiting a cancelled task: %v, want ErrTaskCancelled", err)
	}
	if !s.Info().Stateless {
		tasks, err := s.List(testCtx(t), session.ListTasks)
		if err != nil || len(tasks) < 4 {
			t.Errorf("tasks/list: %d tasks, %v; want the 4 created", len(tasks), err)
		}
	}
}

// TestTasksExtension20260728 runs the 2026-07-28 tasks extension: declared per request,
// results inlined in tasks/get, input through inputRequests and tasks/update.
func TestTasksExtension20260728(t *testing.T) {
	s, rec := taskSession(t, "auto", false)
	if !s.Info().Stateless {
		t.Fatalf("the task server was not taken as 2026-07-28: %+v", s.Info())
	}
	resp, u, err := runTask(t, s, "sleep", map[string]any{"seconds": 0.8})
	if err != nil {
		t.Fatalf("sleep task: %v\n%s", err, rec.Timeline())
	}
	if got := contentText(t, resp.Result); got != "slept" {
		t.Errorf("sleep task result %q, want slept", got)
	}
	pollGaps(t, rec, u.seen[0].ID)
	for _, m := range []string{"tools/call", "tasks/get"} {
		e := rec.Find(sessiontest.Sent(m))
		var p struct {
			Meta struct {
				Caps struct {
					Extensions map[string]json.RawMessage `json:"extensions"`
				} `json:"io.modelcontextprotocol/clientCapabilities"`
			} `json:"_meta"`
		}
		_ = json.Unmarshal(e.Frame.Params, &p)
		if string(p.Meta.Caps.Extensions[protocol.TasksExtension]) != "{}" {
			t.Errorf("%s does not declare the tasks extension: %s", m, e.Frame.Params)
		}
	}
	if e := rec.Find(sessiontest.Sent("tasks/result")); e != nil {
		t.Errorf("tasks/result sent in 2026-07-28, which has no such method")
	}
	for _, e := range rec.FindAll(func(e *session.Event) bool { return e.Kind == session.EvFrame && e.Dir == protocol.ServerToClient }) {
		for _, f := range e.Frame.Findings {
			t.Errorf("finding on a frame of a well-behaved server: %s: %s", f.Code, f.Message)
		}
	}

	inputAndFailure(t, s, rec)
	if n := len(rec.FindAll(sessiontest.Sent("tasks/update"))); n != 1 {
		t.Errorf("%d tasks/update sent; the one input request should be answered once", n)
	}
	var rpc *session.RPCError

	// Without the extension a task-only tool is refused.
	_, err = s.Call(testCtx(t), "tools/call", map[string]any{"name": "confirm", "arguments": map[string]any{}})
	if !errors.As(err, &rpc) || rpc.Code != -32021 {
		t.Errorf("confirm without the extension: %v, want -32021", err)
	}
	cancelAndList(t, s)
}

// TestParseTask reads both eras' task shapes.
func TestParseTask(t *testing.T) {
	for _, tc := range []struct {
		name, raw string
		want      session.Task
		created   bool
	}{
		{"2025 create", `{"task":{"taskId":"a","status":"working","ttl":60000,"pollInterval":5000}}`,
			session.Task{ID: "a", Status: "working", TTL: time.Minute, SuggestedPoll: 5 * time.Second}, true},
		{"2026 create", `{"resultType":"task","taskId":"b","status":"working","ttlMs":null,"pollIntervalMs":250}`,
			session.Task{ID: "b", Status: "working", SuggestedPoll: 250 * time.Millisecond}, true},
		{"plain result", `{"content":[]}`, session.Task{}, false},
		{"task member not an object", `{"task":"x"}`, session.Task{}, false},
		{"no status", `{"resultType":"task","taskId":"c"}`, session.Task{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := session.CreatedTask(json.RawMessage(tc.raw))
			if ok != tc.created || got.ID != tc.want.ID || got.TTL != tc.want.TTL || got.SuggestedPoll != tc.want.SuggestedPoll {
				t.Errorf("CreatedTask = %+v, %v; want %+v, %v", got, ok, tc.want, tc.created)
			}
		})
	}
	if d := (session.Task{SuggestedPoll: time.Millisecond}).PollInterval(); d != session.TaskPollFloor {
		t.Errorf("a 1ms suggestion polls every %s, want the floor %s", d, session.TaskPollFloor)
	}
	if d := (session.Task{}).PollInterval(); d != session.TaskPollDefault {
		t.Errorf("no suggestion polls every %s, want %s", d, session.TaskPollDefault)
	}
}

// heldResponder holds every server request until its context ends, telling asked first.
type heldResponder struct{ asked chan string }

func (h heldResponder) Respond(ctx context.Context, req *session.ServerRequest) (json.RawMessage, *session.RPCError) {
	select {
	case h.asked <- req.Method:
	default:
	}
	<-ctx.Done()
	return nil, &session.RPCError{Code: -1, Message: "not answered"}
}

// TestTaskCancelledWhileResultAwaited cancels a 2025-11-25 task while its tasks/result is
// open (the task waits for input): the server answers the tasks/result with an error, and
// the outcome of following the task is ErrTaskCancelled, not that error, which stays in the
// event stream as the server sent it.
func TestTaskCancelledWhileResultAwaited(t *testing.T) {
	tr := transport.NewStdio(transport.StdioOptions{Command: sessiontest.BuildTaskServer(t), Args: []string{"-poll", "200"}})
	asked := make(chan string, 1)
	s := session.New(session.Config{Protocol: "2025-11-25", Caps: session.DefaultCaps(), Responder: heldResponder{asked}, Transport: tr})
	rec := sessiontest.Record(t, s)
	if err := s.Connect(testCtx(t)); err != nil {
		t.Fatalf("connect: %v\n%s", err, rec.Timeline())
	}
	resp, err := s.Call(testCtx(t), "tools/call", map[string]any{"name": "confirm", "arguments": map[string]any{}}, session.WithTask(30*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	task, _ := session.CreatedTask(resp.Result)
	done := make(chan error, 1)
	go func() {
		_, err := s.FollowCreated(testCtx(t), resp, nil)
		done <- err
	}()
	select {
	case m := <-asked:
		if m != "elicitation/create" {
			t.Fatalf("the task asked %s", m)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("the task never asked for input\n%s", rec.Timeline())
	}
	if _, err := s.CancelTask(testCtx(t), task.ID); err != nil {
		t.Fatalf("tasks/cancel: %v", err)
	}
	select {
	case err = <-done:
	case <-time.After(20 * time.Second):
		t.Fatalf("following the cancelled task did not end\n%s", rec.Timeline())
	}
	var rpc *session.RPCError
	if !errors.Is(err, session.ErrTaskCancelled) || errors.As(err, &rpc) {
		t.Errorf("following the cancelled task: %v, want ErrTaskCancelled and no JSON-RPC error", err)
	}
	rec.WaitFor(t, 20*time.Second, "the server's error to tasks/result", func(e *session.Event) bool {
		return e.Frame != nil && e.Frame.Kind == protocol.KindError && e.Corr.Method == "tasks/result"
	})
}
