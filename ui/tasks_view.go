package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
)

// View renders the page: exactly h lines of w cells. The list takes the top; with the
// result shown, the selected task's state and result take the lower half.
func (p *TasksPage) View() string {
	if p.w <= 0 || p.h <= 0 {
		return ""
	}
	s := p.c.Styles
	listH := p.h
	if p.showResult {
		listH = max(3, p.h/2)
	}
	lines := []string{" " + s.PaneTitleFocused.Render(fmt.Sprintf("Tasks (%d)", len(p.rows)))}
	if len(p.rows) == 0 {
		lines = append(lines, "   "+s.Muted.Render("no tasks yet: call a task-capable tool from the explorer (2),"),
			"   "+s.Muted.Render("or `mcpscope call --task` for the same server; r lists the server's tasks (2025-11-25)"))
		return textfmt.FitBlock(strings.Join(lines, "\n"), p.w, p.h)
	}
	lines = append(lines, s.Muted.Render(taskColumns("TASK", "TOOL", "STATUS", "UPDATED", "POLL", "MESSAGE", p.w)))
	room := max(1, listH-len(lines))
	p.off = min(max(p.off, p.cursor-room+1), p.cursor)
	now := time.Now()
	for i := p.off; i < len(p.rows) && i < p.off+room; i++ {
		line := taskLine(p.rows[i], now, p.w)
		if i == p.cursor {
			line = s.SelectRow(textfmt.Pad(line, p.w))
		} else {
			line = p.statusStyle(p.rows[i]).Render(line)
		}
		lines = append(lines, line)
	}
	list := textfmt.FitBlock(strings.Join(lines, "\n"), p.w, listH)
	if !p.showResult {
		return list
	}
	return list + "\n" + textfmt.FitBlock(p.detail(), p.w, p.h-listH)
}

// taskColumns lays out one line of the list.
func taskColumns(id, tool, status, updated, poll, msg string, w int) string {
	col := func(s string, n int) string { return textfmt.Pad(textfmt.Clip(s, n), n) + " " }
	return textfmt.Clip(" "+col(id, 16)+col(tool, 14)+textfmt.Pad(status, 15)+" "+textfmt.Pad(updated, 9)+" "+textfmt.Pad(poll, 7)+" "+msg, w)
}

// taskLine is a task's row: the follower's error, if any, stands in for the message.
func taskLine(r *taskRow, now time.Time, w int) string {
	t := r.task
	status := t.Status
	if r.following {
		status += " ⟳"
	}
	poll := "-"
	if !t.Terminal() {
		poll = t.PollInterval().String()
	}
	msg := t.StatusMessage
	if r.err != "" {
		msg = r.err
	}
	if n := len(t.InputRequests); n > 0 {
		msg = fmt.Sprintf("[%s] %s", textfmt.Plural(n, "input request"), msg)
	}
	return taskColumns(escapeText(t.ID), escapeText(r.tool), escapeText(status), ago(now.Sub(r.at)), poll, escapeText(msg), w)
}

// ago is a short age: "3s", "2m", "1h".
func ago(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds ago", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d.Minutes()))
	}
	return fmt.Sprintf("%dh ago", int(d.Hours()))
}

func (p *TasksPage) statusStyle(r *taskRow) interface{ Render(...string) string } {
	s := p.c.Styles
	switch {
	case r.err != "" || r.task.Status == session.TaskFailed:
		return s.Error
	case r.task.Status == session.TaskInputRequired:
		return s.Finding
	case r.task.Status == session.TaskCancelled:
		return s.Muted
	case r.task.Status == session.TaskCompleted:
		return s.Response
	}
	return s.Text
}

// detail is the selected task's state and, once it ended, its result.
func (p *TasksPage) detail() string {
	s := p.c.Styles
	r := p.selected()
	if r == nil {
		return ""
	}
	t := r.task
	var b strings.Builder
	fmt.Fprintf(&b, " %s\n", s.PaneTitleFocused.Render("Task "+escapeText(t.ID)))
	field := func(k, v string) {
		if v != "" {
			fmt.Fprintf(&b, "   %s %s\n", s.Muted.Render(fmt.Sprintf("%-14s", k)), escapeText(v))
		}
	}
	field("status", t.Status)
	field("message", t.StatusMessage)
	field("created", t.CreatedAt)
	field("last update", t.LastUpdatedAt)
	if t.TTL > 0 {
		field("ttl", t.TTL.String())
	}
	if t.SuggestedPoll > 0 {
		field("pollInterval", t.SuggestedPoll.String())
	}
	field("error", r.err)
	switch {
	case len(r.result) > 0:
		b.WriteString(" " + s.PaneTitleFocused.Render("Result") + "\n")
		b.WriteString(ColorizeJSON(s, r.result, true))
	case !t.Terminal():
		b.WriteString("   " + s.Muted.Render("the result appears here when the task ends") + "\n")
	}
	return b.String()
}
