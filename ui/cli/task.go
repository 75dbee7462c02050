package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
)

// followTask waits for the task a `call --task` created, writing each status change and
// each progress notification of the call to stderr. An interrupt cancels the task on the
// server (tasks/cancel) before returning.
func (r *runner) followTask(s *session.Session, created *session.Response) (*session.Response, error) {
	mask := r.flags.screenMasker(r.command) // a server may echo a secret the command line gave
	stopProgress := r.showProgress(s, func(e *session.Event) bool { return e.Corr.RequestSeq == created.Request.Seq })
	var id string
	resp, err := s.FollowCreated(r.ctx, created, func(u session.TaskUpdate) {
		id = u.Task.ID
		fmt.Fprintf(r.stderr, "mcpscope: task %s\n", mask.String(taskLine(u.Task)))
	})
	stopProgress()
	if err != nil && r.ctx.Err() != nil && id != "" {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if _, cerr := s.CancelTask(ctx, id); cerr != nil {
			fmt.Fprintf(r.stderr, "mcpscope: interrupted; tasks/cancel %s failed: %v\n", id, cerr)
		} else {
			fmt.Fprintf(r.stderr, "mcpscope: interrupted; task %s cancelled\n", id)
		}
	}
	var rpc *session.RPCError
	if errors.As(err, &rpc) && (resp == nil || resp.Event == nil || resp.Event.Frame.Error == nil) {
		_ = r.printJSON(rpc) // a failed task's error inlined in tasks/get: shown like an error response
	}
	return resp, err
}

// showProgress writes to stderr each progress notification linked to a request that
// mine accepts, from now until the returned stop, which returns once what came before it
// is written. The subscription is small: progress is rare, and a flood of other events may
// cost a few lines of progress, never memory.
func (r *runner) showProgress(s *session.Session, mine func(progress *session.Event) bool) (stop func()) {
	mask := r.flags.screenMasker(r.command) // a server may echo a secret the command line gave
	sub := s.SubscribeWith(session.SubscribeOptions{Events: 256, Bytes: 1 << 20})
	ctx, cancel := context.WithCancel(context.Background())
	printed := make(chan struct{})
	go func() { // progress of the call, linked to its request by the session
		defer close(printed)
		for {
			// Next hands over what is queued before it looks at ctx: the progress that came
			// before the stop is printed even when the stop ended the wait.
			evs, ok := sub.Next(ctx, 0)
			for _, e := range evs {
				if p := e.Corr.Progress; p != nil && e.Corr.RequestSeq != 0 && mine(e) {
					fmt.Fprintf(r.stderr, "mcpscope: progress %s\n", mask.String(progressText(p)))
				}
			}
			if !ok || ctx.Err() != nil {
				return
			}
		}
	}()
	return func() {
		cancel()
		<-printed
		sub.Close()
	}
}

// taskLine is a task's status in a few words: id, status, poll interval, message.
func taskLine(t session.Task) string {
	var b strings.Builder
	b.WriteString(t.ID + " " + t.Status)
	if !t.Terminal() {
		fmt.Fprintf(&b, " (polling every %s)", t.PollInterval())
	}
	if t.StatusMessage != "" {
		b.WriteString(": " + t.StatusMessage)
	}
	if n := len(t.InputRequests); n > 0 {
		fmt.Fprintf(&b, " [%d input request(s)]", n)
	}
	return b.String()
}

// progressText is a progress notification as "2/4 message".
func progressText(p *session.Progress) string {
	s := fmt.Sprintf("%g", p.Progress)
	if p.Total > 0 {
		s += fmt.Sprintf("/%g", p.Total)
	}
	if p.Message != "" {
		s += " " + p.Message
	}
	return s
}

// taskHint explains on stderr a refusal that asks for a task: the server needs the tasks
// extension (2026-07-28), or the call was not task-augmented (2025-11-25 answers -32601).
func taskHint(r *runner, asTask bool, err error) {
	var rpc *session.RPCError
	if asTask || !errors.As(err, &rpc) {
		return
	}
	if rpc.Code == protocol.MissingRequiredClientCapability && strings.Contains(string(rpc.Data), protocol.TasksExtension) {
		fmt.Fprintln(r.stderr, "mcpscope: the server runs this tool only as a task: add --task")
	}
}
