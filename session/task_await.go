package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"time"
)

// Polling bounds of AwaitTask.
const (
	// TaskPollDefault is the interval between polls when the server suggests none.
	TaskPollDefault = time.Second
	// TaskPollFloor keeps a zero or tiny suggestion from turning polling into a busy loop.
	TaskPollFloor = 50 * time.Millisecond
	// maxTaskInputs bounds the input requests one task may ask for.
	maxTaskInputs = 4096
)

// PollInterval is how long to wait before the next tasks/get: the server's suggestion,
// TaskPollDefault without one, never less than TaskPollFloor.
func (t Task) PollInterval() time.Duration {
	d := t.SuggestedPoll
	if d == 0 {
		d = TaskPollDefault
	}
	return max(d, TaskPollFloor)
}

// FollowCreated follows the task a task-augmented request created (its response holds a
// CreateTaskResult) until it ends, like AwaitTask, and keeps the request's progress
// notifications linked to it while the task runs (the progress token stays valid for the
// task's lifetime).
func (s *Session) FollowCreated(ctx context.Context, created *Response, onUpdate func(TaskUpdate)) (*Response, error) {
	t, ok := CreatedTask(created.Result)
	if !ok {
		return created, fmt.Errorf("the response is not a CreateTaskResult")
	}
	if created.Request != nil && created.Request.Frame != nil {
		if tok := paramsProgressToken(created.Request.Frame.Params); tok != "" {
			link := &pending{seq: created.Request.Seq, method: created.Request.Frame.Method}
			s.mu.Lock()
			if s.progress[tok] == nil {
				s.progress[tok] = link
			}
			s.mu.Unlock()
			defer func() {
				s.mu.Lock()
				if s.progress[tok] == link {
					delete(s.progress, tok)
				}
				s.mu.Unlock()
			}()
		}
	}
	if onUpdate != nil {
		onUpdate(TaskUpdate{Task: t, Event: created.Event})
	}
	return s.AwaitTask(ctx, t, onUpdate)
}

// taskOutcome is the answer to a tasks/result request in flight.
type taskOutcome struct {
	resp *Response
	err  error
}

// AwaitTask follows a task until it ends and returns its result, the way the spec asks a
// requestor to: it polls tasks/get at the server's pollInterval (status notifications
// count as polls), and reports every change to onUpdate. When the task needs input it
// answers through the Responder: in 2025-11-25 by calling tasks/result, on which the server
// sends its requests; in 2026-07-28 by answering each new inputRequests entry once and
// sending the answers with tasks/update. The result is the tasks/result response
// (2025-11-25) or the result inlined in the final tasks/get (2026-07-28); a failed task
// gives its *RPCError, a cancelled one without a result ErrTaskCancelled (also when the
// server answers its tasks/result with an error). A task still
// unfinished after its ttl gives ErrTimeout. AwaitTask does not cancel the task when ctx
// ends: that is the caller's decision (CancelTask).
func (s *Session) AwaitTask(ctx context.Context, t Task, onUpdate func(TaskUpdate)) (*Response, error) {
	notes, stop := s.watchTask(t.ID)
	defer stop()
	stateless := s.Info().Stateless
	answered := map[string]bool{}
	var results chan taskOutcome // the 2025-11-25 tasks/result in flight
	var lastEv *Event
	deadline := ttlDeadline(t, time.Now())
	for !t.Terminal() {
		if t.Status == TaskInputRequired {
			if stateless {
				if err := s.answerTaskInputs(ctx, t, answered, lastEv); err != nil {
					return nil, err
				}
			} else if results == nil {
				results = make(chan taskOutcome, 1)
				go func(id string) {
					resp, err := s.TaskResult(ctx, id)
					results <- taskOutcome{resp, err}
				}(t.ID)
			}
		}
		if !deadline.IsZero() && time.Now().After(deadline) {
			return nil, fmt.Errorf("task %s is still %s after its ttl of %s: %w", t.ID, t.Status, t.TTL, ErrTimeout)
		}
		timer := time.NewTimer(t.PollInterval())
		select {
		case <-ctx.Done():
			timer.Stop()
			return nil, ctx.Err()
		case r := <-results:
			timer.Stop()
			t = s.finalPoll(ctx, t, onUpdate)
			return cancelledOutcome(t, r.resp, r.err)
		case u := <-notes:
			timer.Stop()
			t, lastEv = s.taskChanged(t, u, onUpdate), u.Event
			continue
		case <-timer.C:
		}
		nt, resp, err := s.GetTask(ctx, t.ID)
		if err != nil {
			return resp, fmt.Errorf("task %s: %w", t.ID, err)
		}
		t, lastEv = s.taskChanged(t, TaskUpdate{Task: nt, Event: resp.Event}, onUpdate), resp.Event
		if d := ttlDeadline(t, time.Now()); !d.IsZero() && d.After(deadline) {
			deadline = d // the server may extend a task's ttl
		}
	}
	if results != nil {
		select {
		case r := <-results:
			return cancelledOutcome(t, r.resp, r.err)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if !stateless {
		resp, err := s.TaskResult(ctx, t.ID)
		return cancelledOutcome(t, resp, err)
	}
	return inlineOutcome(t, lastEv)
}

// finalPoll reports the state of a task whose tasks/result arrived before polling saw it
// end, so the last update a watcher gets is the terminal one; it returns that state (t when
// the poll fails).
func (s *Session) finalPoll(ctx context.Context, t Task, onUpdate func(TaskUpdate)) Task {
	if nt, resp, err := s.GetTask(ctx, t.ID); err == nil {
		return s.taskChanged(t, TaskUpdate{Task: nt, Event: resp.Event}, onUpdate)
	}
	return t
}

// cancelledOutcome is the outcome of a task's tasks/result: as it came, except that a
// server's error to it for a task that ended cancelled is ErrTaskCancelled, not a failure:
// a cancelled task has no result to give (servers answer with various errors, such as
// -32603 "has no result stored"), and the error itself stays in the event stream.
func cancelledOutcome(t Task, resp *Response, err error) (*Response, error) {
	var rpc *RPCError
	if t.Status != TaskCancelled || !errors.As(err, &rpc) {
		return resp, err
	}
	if t.StatusMessage != "" {
		return resp, fmt.Errorf("task %s: %w: %s", t.ID, ErrTaskCancelled, t.StatusMessage)
	}
	return resp, fmt.Errorf("task %s: %w", t.ID, ErrTaskCancelled)
}

// taskChanged reports u to onUpdate when it says something new and returns the new state.
func (s *Session) taskChanged(old Task, u TaskUpdate, onUpdate func(TaskUpdate)) Task {
	n := u.Task
	same := n.Status == old.Status && n.StatusMessage == old.StatusMessage &&
		n.SuggestedPoll == old.SuggestedPoll && n.LastUpdatedAt == old.LastUpdatedAt && len(n.InputRequests) == len(old.InputRequests)
	if !same && onUpdate != nil {
		onUpdate(u)
	}
	return n
}

// ttlDeadline is when a task's ttl runs out (from createdAt when it can be read), or zero.
func ttlDeadline(t Task, now time.Time) time.Time {
	if t.TTL <= 0 {
		return time.Time{}
	}
	start := now
	if c, err := time.Parse(time.RFC3339Nano, t.CreatedAt); err == nil && c.Before(now) {
		start = c
	}
	// A poll's worth of grace: the final state may be on its way.
	return start.Add(t.TTL + t.PollInterval())
}

// inlineOutcome turns a terminal 2026-07-28 task into AwaitTask's answer.
func inlineOutcome(t Task, ev *Event) (*Response, error) {
	resp := &Response{Event: ev, Result: t.Result}
	switch t.Status {
	case TaskCompleted:
		if len(t.Result) == 0 {
			return resp, fmt.Errorf("task %s completed without a result", t.ID)
		}
		return resp, nil
	case TaskFailed:
		if t.Error != nil {
			return resp, t.Error
		}
		return resp, fmt.Errorf("task %s failed without an error object: %s", t.ID, t.StatusMessage)
	}
	if t.StatusMessage != "" {
		return resp, fmt.Errorf("task %s: %w: %s", t.ID, ErrTaskCancelled, t.StatusMessage)
	}
	return resp, fmt.Errorf("task %s: %w", t.ID, ErrTaskCancelled)
}

// answerTaskInputs answers the input requests of a 2026-07-28 task that have not been
// answered yet, through the Responder, and delivers the answers with tasks/update. A
// request the Responder refuses ends the wait with its error (an inputResponses entry
// cannot carry an error); the task is left for the caller to cancel.
func (s *Session) answerTaskInputs(ctx context.Context, t Task, answered map[string]bool, ev *Event) error {
	keys := make([]string, 0, len(t.InputRequests))
	for k := range t.InputRequests {
		if !answered[k] {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return nil
	}
	if len(answered)+len(keys) > maxTaskInputs {
		return fmt.Errorf("task %s asked for more than %d inputs; giving up", t.ID, maxTaskInputs)
	}
	sort.Strings(keys)
	rev := s.Info().Revision
	answers := map[string]json.RawMessage{}
	for _, k := range keys {
		in := t.InputRequests[k]
		res, rerr := s.cfg.Responder.Respond(ctx, &ServerRequest{Method: in.Method, Params: in.Params, Key: k, Event: ev, Revision: rev})
		if rerr != nil {
			s.errorEvent("task %s: input request %q (%s) not answered: %s", t.ID, k, in.Method, rerr.Message)
			return fmt.Errorf("task %s: input request %q (%s): %w", t.ID, k, in.Method, rerr)
		}
		answers[k] = res
	}
	if err := s.UpdateTask(ctx, t.ID, answers); err != nil {
		var rpc *RPCError
		if errors.As(err, &rpc) {
			return fmt.Errorf("task %s: tasks/update: %w", t.ID, err)
		}
		return err
	}
	for _, k := range keys {
		answered[k] = true
	}
	return nil
}
