package ui

import (
	"encoding/json"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// maxTaskParams bounds the params read for a taskId when a tasks/* row is selected.
const maxTaskParams = traffic.MaxTaskParams

// cancelTarget is what the cancel key (Act.Cancel) acts on where the user is: a request
// mcpscope sent that still awaits its answer (notifications/cancelled, or nothing on the
// wire in 2026-07-28, where ending the request is the cancel), or an unfinished task
// (tasks/cancel: a task outlives its request, and the spec cancels it only that way).
type cancelTarget struct {
	entry *traffic.Entry // the request in flight
	task  string         // the task's id
	why   string         // why there is nothing to cancel, when both are empty
}

// cancelApplies reports whether the cancel key is the inspector's on this page: the
// timeline and the detail (the selected row), the explorer (the selected item's call).
// The Tasks page has its own (KeyMap.TaskCancel).
func (m *Model) cancelApplies() bool { return m.page == pageTraffic || m.page == pageExplorer }

// cancelTarget finds what the cancel key would cancel.
func (m *Model) cancelTarget() cancelTarget {
	if m.sess == nil {
		return cancelTarget{why: "there is no live session"}
	}
	if m.page == pageExplorer {
		task, entry, why := m.explorer.CancelTarget(m.gen)
		return cancelTarget{task: task, entry: entry, why: why}
	}
	return m.rowCancelTarget(m.timeline.Selected())
}

// rowCancelTarget is what cancelling a timeline row means: the task the row's request
// created or names, while it runs, or the request while it awaits its answer.
func (m *Model) rowCancelTarget(e *traffic.Entry) cancelTarget {
	switch {
	case e == nil || e.Ev == nil || e.Ev.Frame == nil:
		return cancelTarget{why: "select a request mcpscope sent, or a row of a running task"}
	case e.Gen != m.gen:
		return cancelTarget{why: "that row belongs to an earlier session"}
	}
	if id := m.tasks.taskOfEntry(e); id != "" {
		return cancelTarget{task: id}
	}
	if e.IsRequest() && e.Ev.Dir == protocol.ClientToServer && e.Waiting() {
		return cancelTarget{entry: e}
	}
	return cancelTarget{why: "not in flight: the row is neither a request awaiting its answer nor a running task's"}
}

// taskOfEntry is the unfinished task a timeline row belongs to: the row of the request
// that created it or of its CreateTaskResult, or a tasks/* request or task notification
// that names it. It is "" for any other row.
func (p *TasksPage) taskOfEntry(e *traffic.Entry) string {
	id := p.bySeq[e.Ev.Seq]
	if f := e.Ev.Frame; id == "" && f.Method != "" && len(f.Params) <= maxTaskParams &&
		(strings.HasPrefix(f.Method, "tasks/") || strings.HasPrefix(f.Method, "notifications/tasks")) {
		var params struct {
			TaskID string `json:"taskId"`
		}
		_ = json.Unmarshal(f.Params, &params)
		id = params.TaskID
	}
	if r := p.byID[id]; r != nil && !r.task.Terminal() {
		return id
	}
	return ""
}

// cancelKey is the cancel binding as it applies here: described for what it cancels, or
// disabled when there is nothing (help then leaves it out).
func (m *Model) cancelKey() key.Binding {
	b := m.c.Keys.Act.Cancel
	if !b.Enabled() || !m.cancelApplies() {
		b.SetEnabled(false)
		return b
	}
	switch t := m.cancelTarget(); {
	case t.task != "":
		b.SetHelp(b.Help().Key, "cancel task (tasks/cancel)")
	case t.entry != nil:
		b.SetHelp(b.Help().Key, "cancel request")
	default:
		b.SetEnabled(false)
	}
	return b
}

// withCancel puts the cancel key first in a help line when it applies.
func (m *Model) withCancel(ks []key.Binding) []key.Binding {
	if b := m.cancelKey(); b.Enabled() {
		return append([]key.Binding{b}, ks...)
	}
	return ks
}

// cancel cancels what cancelTarget names, or says why there is nothing to cancel.
func (m *Model) cancel() tea.Cmd {
	t := m.cancelTarget()
	switch {
	case t.task != "":
		return tea.Batch(statusCmd("tasks/cancel "+t.task+" sent", false), cancelTaskCmd(m.gen, m.sess, t.task))
	case t.entry != nil:
		s, gen, seq := m.sess, m.gen, t.entry.Ev.Seq
		return func() tea.Msg {
			return cancelledMsg{Gen: gen, Seq: seq, OK: s.Cancel(seq, "cancelled by the user")}
		}
	}
	h := m.c.Keys.Act.Cancel.Help()
	return statusCmd(h.Key+" ("+h.Desc+") is off: "+t.why, false)
}
