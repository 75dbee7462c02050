package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/explorer"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// Bounds of the tasks page.
const (
	maxTaskRows     = 1000 // rows kept; the oldest finished ones leave first
	maxTaskFollowed = 32   // tasks polled at once
	taskFeedBound   = 64   // updates queued between the followers and the program
	// maxTaskResult bounds the result a row keeps; a larger one stays in the timeline only.
	maxTaskResult = 1 << 20
)

// TasksPage lists the session's tasks (2025-11-25 tasks and the 2026-07-28 tasks
// extension): each task's status, when it last changed, and the polling interval the
// server asked for. A task appears when a CreateTaskResult passes by (whoever sent the
// request) or when tasks/list reports it; unfinished tasks are followed by a command each
// (session.AwaitTask), whose updates come back as TaskUpdateMsg through one feed. Input a
// task asks for goes through the sessions' Responder, like any server request.
type TasksPage struct {
	c    *Common
	w, h int

	gen  int
	sess *session.Session
	rows []*taskRow
	byID map[string]*taskRow
	// bySeq names the task of a creating request's or CreateTaskResult's event.
	bySeq map[uint64]string

	cursor, off int
	showResult  bool // the selected task's state and result fill the lower half
	feed        chan TaskUpdateMsg
	waiting     bool // a waitTaskCmd is outstanding
}

// taskRow is one task as last seen.
type taskRow struct {
	task      session.Task
	tool      string
	at        time.Time // when the state last changed
	following bool
	result    json.RawMessage
	err       string
	// reqSeq and respSeq are the events of the request that created the task and of its
	// CreateTaskResult (0 for a task only listed), so a timeline row can name its task.
	reqSeq, respSeq uint64
}

// Messages of the tasks page.
type (
	// TasksListedMsg: tasks/list answered.
	TasksListedMsg struct {
		Gen   int
		Tasks []session.Task
		Err   error
	}
	// TaskCancelledMsg: tasks/cancel answered.
	TaskCancelledMsg struct {
		Gen int
		ID  string
		Err error
	}
)

// NewTasksPage makes the tasks page.
func NewTasksPage(c *Common) *TasksPage {
	return &TasksPage{c: c, byID: map[string]*taskRow{}, bySeq: map[uint64]string{}, feed: make(chan TaskUpdateMsg, taskFeedBound)}
}

// SetSize sets the page size.
func (p *TasksPage) SetSize(w, h int) { p.w, p.h = w, h }

// SetSession starts over with session gen: tasks of an earlier session are no longer polled.
func (p *TasksPage) SetSession(s *session.Session, gen int) {
	p.sess, p.gen = s, gen
	p.rows, p.byID, p.bySeq, p.cursor, p.off = nil, map[string]*taskRow{}, map[uint64]string{}, 0, 0
}

// TaskState is what the page knows of task id in session gen: the explorer's TaskLookup.
func (p *TasksPage) TaskState(gen int, id string) (explorer.TaskState, bool) {
	r := p.byID[id]
	if r == nil || p.gen != gen {
		return explorer.TaskState{}, false
	}
	return explorer.TaskState{Task: r.task, At: r.at, Following: r.following, Result: r.result, Err: r.err}, true
}

// Len is the number of tasks listed.
func (p *TasksPage) Len() int { return len(p.rows) }

// Keys are the page's bindings for the help line; those that do not apply are disabled.
func (p *TasksPage) Keys() []key.Binding {
	k := p.c.Keys
	sel := p.selected()
	k.TaskCancel.SetEnabled(sel != nil && !sel.task.Terminal())
	k.TaskAnswer.SetEnabled(sel != nil && !sel.task.Terminal() && !sel.following)
	k.TaskList.SetEnabled(p.sess != nil && !p.sess.Info().Stateless)
	return []key.Binding{k.Up, k.Down, k.Open, k.TaskCancel, k.TaskAnswer, k.TaskList}
}

func (p *TasksPage) selected() *taskRow {
	if p.cursor < 0 || p.cursor >= len(p.rows) {
		return nil
	}
	return p.rows[p.cursor]
}

// Observe picks the CreateTaskResults out of a batch of events and starts following them.
// h links each response to its request (for the tool's name and progress).
func (p *TasksPage) Observe(gen int, evs []*session.Event, h *traffic.History) tea.Cmd {
	if gen != p.gen || p.sess == nil {
		return nil
	}
	var cmds []tea.Cmd
	for _, ev := range evs {
		if ev.Kind != session.EvFrame || ev.Dir != protocol.ServerToClient || ev.Frame.Kind != protocol.KindResult {
			continue
		}
		t, ok := session.CreatedTask(ev.Frame.Result)
		if !ok || p.byID[t.ID] != nil {
			continue
		}
		created := &session.Response{Event: ev, Result: ev.Frame.Result}
		tool := ""
		if req := h.Lookup(gen, ev.Corr.RequestSeq); req != nil && req.Ev != nil && req.Ev.Frame != nil {
			created.Request = req.Ev
			var params struct {
				Name string `json:"name"`
			}
			_ = json.Unmarshal(req.Ev.Frame.Params, &params)
			tool = params.Name
		}
		r := p.add(t, ev.Time)
		r.tool, r.reqSeq, r.respSeq = tool, ev.Corr.RequestSeq, ev.Seq
		p.bySeq[r.reqSeq], p.bySeq[r.respSeq] = t.ID, t.ID
		cmds = append(cmds, p.follow(r, created),
			statusCmd(fmt.Sprintf("task %s created (%s): followed where it was called and on the Tasks page (4); c cancels it", t.ID, t.Status), false))
	}
	return tea.Batch(cmds...)
}

// add lists a task (or updates its row) and returns its row.
func (p *TasksPage) add(t session.Task, at time.Time) *taskRow {
	if r := p.byID[t.ID]; r != nil {
		r.task, r.at = t, at
		return r
	}
	if len(p.rows) >= maxTaskRows {
		for i, r := range p.rows {
			if !r.following {
				delete(p.byID, r.task.ID)
				delete(p.bySeq, r.reqSeq)
				delete(p.bySeq, r.respSeq)
				p.rows = append(p.rows[:i], p.rows[i+1:]...)
				p.cursor = max(0, p.cursor-1)
				break
			}
		}
	}
	r := &taskRow{task: t, at: at}
	p.rows = append(p.rows, r)
	p.byID[t.ID] = r
	return r
}

// follow starts polling r's task unless it is finished or too many are followed already.
func (p *TasksPage) follow(r *taskRow, created *session.Response) tea.Cmd {
	if r.task.Terminal() || r.following || p.sess == nil {
		return nil
	}
	n := 0
	for _, x := range p.rows {
		if x.following {
			n++
		}
	}
	if n >= maxTaskFollowed {
		r.err = fmt.Sprintf("not polled: %d tasks are followed already (press a to follow it later)", n)
		return nil
	}
	r.following, r.err = true, ""
	cmd := followTaskCmd(p.gen, p.sess, created, r.task, p.feed)
	if p.waiting {
		return cmd
	}
	p.waiting = true
	return tea.Batch(cmd, waitTaskCmd(p.feed))
}

// followTaskCmd follows one task to its end, sending each change and the outcome to feed.
// It changes no state: the messages do, in Update.
func followTaskCmd(gen int, s *session.Session, created *session.Response, t session.Task, feed chan<- TaskUpdateMsg) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go func() {
			select {
			case <-s.Done():
				cancel()
			case <-ctx.Done():
			}
		}()
		send := func(m TaskUpdateMsg) {
			select {
			case feed <- m:
			case <-ctx.Done():
			}
		}
		last := t
		on := func(u session.TaskUpdate) {
			last = u.Task
			send(TaskUpdateMsg{Gen: gen, Task: u.Task, At: time.Now()})
		}
		var resp *session.Response
		var err error
		if created != nil && created.Request != nil {
			resp, err = s.FollowCreated(ctx, created, on)
		} else {
			resp, err = s.AwaitTask(ctx, t, on)
		}
		done := TaskUpdateMsg{Gen: gen, Task: last, At: time.Now(), Done: true, Err: err}
		if resp != nil {
			done.Result = resp.Result
		}
		if ctx.Err() == nil {
			feed <- done // the program drains the feed while the session lives
		}
		return nil
	}
}

// waitTaskCmd delivers the next update of any followed task; Update issues it again.
func waitTaskCmd(feed <-chan TaskUpdateMsg) tea.Cmd {
	return func() tea.Msg { return <-feed }
}

// listTasksCmd asks for every page of tasks/list.
func listTasksCmd(gen int, s *session.Session) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		items, err := s.List(ctx, session.ListTasks)
		msg := TasksListedMsg{Gen: gen, Err: err}
		for _, it := range items {
			if t, err := session.ParseTask(it); err == nil {
				msg.Tasks = append(msg.Tasks, t)
			}
		}
		return msg
	}
}

// cancelTaskCmd sends tasks/cancel.
func cancelTaskCmd(gen int, s *session.Session, id string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_, err := s.CancelTask(ctx, id)
		return TaskCancelledMsg{Gen: gen, ID: id, Err: err}
	}
}

// Update handles the page's keys and messages.
func (p *TasksPage) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case TaskUpdateMsg:
		return p.updated(msg)
	case TasksListedMsg:
		if msg.Gen != p.gen {
			return nil
		}
		if msg.Err != nil {
			return statusCmd("tasks/list: "+msg.Err.Error(), true)
		}
		var cmds []tea.Cmd
		for _, t := range msg.Tasks {
			cmds = append(cmds, p.follow(p.add(t, time.Now()), nil))
		}
		return tea.Batch(append(cmds, statusCmd(fmt.Sprintf("tasks/list: %s", textfmt.Plural(len(msg.Tasks), "task")), false))...)
	case TaskCancelledMsg:
		if msg.Gen != p.gen {
			return nil
		}
		if msg.Err != nil {
			return statusCmd(fmt.Sprintf("tasks/cancel %s: %v", msg.ID, msg.Err), true)
		}
		return statusCmd("tasks/cancel "+msg.ID+": acknowledged", false)
	case tea.KeyPressMsg:
		return p.key(msg)
	}
	return nil
}

// updated takes in a follower's update and waits for the next one.
func (p *TasksPage) updated(msg TaskUpdateMsg) tea.Cmd {
	next := waitTaskCmd(p.feed)
	if msg.Gen != p.gen {
		return next
	}
	r := p.add(msg.Task, msg.At)
	if !msg.Done {
		return next
	}
	r.following = false
	r.result = msg.Result
	switch {
	case errors.Is(msg.Err, session.ErrTaskCancelled):
		r.err = "" // the status says it; the server's answers are in the timeline
	case msg.Err != nil:
		r.err = msg.Err.Error()
	case len(msg.Result) > maxTaskResult:
		r.result = nil
		r.err = fmt.Sprintf("the result (%d bytes) is too large to keep here: see its response in the timeline", len(msg.Result))
	case len(msg.Result) > 0:
		r.err = ""
	}
	return next
}

func (p *TasksPage) key(msg tea.KeyPressMsg) tea.Cmd {
	k := p.c.Keys
	sel := p.selected()
	switch {
	case key.Matches(msg, k.Up):
		p.cursor = max(0, p.cursor-1)
	case key.Matches(msg, k.Down):
		p.cursor = min(max(0, len(p.rows)-1), p.cursor+1)
	case key.Matches(msg, k.Top):
		p.cursor = 0
	case key.Matches(msg, k.Bottom):
		p.cursor = max(0, len(p.rows)-1)
	case key.Matches(msg, k.Open):
		p.showResult = !p.showResult
	case key.Matches(msg, k.TaskCancel):
		if sel == nil || sel.task.Terminal() || p.sess == nil {
			return statusCmd("no unfinished task selected", true)
		}
		return cancelTaskCmd(p.gen, p.sess, sel.task.ID)
	case key.Matches(msg, k.TaskAnswer):
		if sel == nil || sel.task.Terminal() {
			return statusCmd("no unfinished task selected", true)
		}
		if sel.following {
			return statusCmd("task "+sel.task.ID+" is followed: its input requests open as dialogs", false)
		}
		return p.follow(sel, nil)
	case key.Matches(msg, k.TaskList):
		if p.sess == nil || p.sess.Info().Stateless {
			return statusCmd("tasks/list does not exist in 2026-07-28", true)
		}
		return listTasksCmd(p.gen, p.sess)
	}
	return nil
}
