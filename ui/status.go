package ui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/transport"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// statusView is the always-visible status bar.
func (m *Model) statusView(w int) string {
	s := m.c.Styles
	var parts []string
	compact := w < 100 // narrow: values without their labels, so the revision still fits
	add := func(k, v string) {
		if v == "" {
			return
		}
		if compact {
			parts = append(parts, s.StatusValue.Render(v))
			return
		}
		parts = append(parts, s.StatusKey.Render(k+" ")+s.StatusValue.Render(v))
	}
	state := m.state.String()
	stateStyle := s.StatusWarn
	switch {
	case m.state == session.StateReady && m.noStdout:
		// Requests fail at once: the server is running but nothing it answers can arrive.
		state, stateStyle = "stdout closed", s.StatusBad
	case m.state == session.StateReady && m.link == transport.LinkUnreachable:
		state, stateStyle = m.link, s.StatusBad
	case m.state == session.StateReady && m.link != "" && m.link != transport.LinkReachable:
		state = m.link // reconnecting N/M
	case m.state == session.StateReady:
		stateStyle = s.StatusOK
	case m.state == session.StateClosed:
		stateStyle = s.StatusBad
		if m.stateText != "" {
			state += ": " + m.stateText
		}
	}
	if m.open != nil {
		parts = append(parts, s.StatusWarn.Render(" "+m.openTitle()))
	} else if m.live != nil {
		parts = append(parts, m.liveTitle()...)
	} else {
		parts = append(parts, stateStyle.Render(" "+state))
		add("via", m.transportName())
		add("auth", m.auth.Summary())
	}
	if m.info.Implementation.Name != "" {
		add("server", escapeText(strings.TrimSpace(m.info.Implementation.Name+" "+m.info.Implementation.Version)))
	}
	if m.info.Revision != "" {
		era := "stateful"
		if m.info.Stateless {
			era = "stateless"
		}
		add("protocol", string(m.info.Revision)+" "+era)
	}
	if m.info.SessionID != "" {
		add("session", textfmt.Clip(m.info.SessionID, 12))
	}
	left := strings.Join(parts, s.StatusKey.Render("  "))
	var right []statusPart
	put := func(rank int, text string) { right = append(right, statusPart{text, rank}) }
	if rec := m.recName(); rec != "" {
		// The file name matters less than the server and revision on a narrow screen.
		if w < 120 {
			rec = ""
		} else {
			rec = " " + rec
		}
		put(4, s.StatusBad.Render("● rec"+rec))
	}
	if m.open != nil {
		for _, p := range m.openStatus() {
			put(1, p)
		}
	} else {
		put(3, s.StatusKey.Render(m.inFlightText()))
	}
	// In a recording opened read-only these would count only the window in memory. They
	// count the server in use, across its restarts, as the live stats do: switching
	// servers starts them again.
	errs, finds := m.hist.CountsSince(m.statsGen)
	if errs > 0 && m.open == nil {
		put(2, s.StatusBad.Render(textfmt.Plural(errs, "error")))
	}
	if finds > 0 && m.open == nil {
		put(2, s.StatusWarn.Render(textfmt.Plural(finds, "finding")))
	}
	if t := m.heldText(); t != "" {
		put(0, s.StatusBad.Render(t))
	}
	if n := m.hist.FaultsSince(m.statsGen); n > 0 && m.open == nil {
		put(2, s.StatusBad.Render(textfmt.Plural(n, "fault")))
	}
	switch {
	case m.hist.Dropped == 0 || m.open != nil:
	case m.opts.Recorder != nil:
		put(4, s.StatusWarn.Render(fmt.Sprintf("%d older rows on disk", m.hist.Dropped)))
	default:
		put(4, s.StatusWarn.Render(fmt.Sprintf("%d dropped from memory", m.hist.Dropped)))
	}
	if m.hist.Lost > 0 {
		put(1, s.StatusBad.Render(textfmt.Plural(int(m.hist.Lost), "event")+" lost (view fell behind)"))
	}
	if r := m.requests; r.Floods > 0 {
		put(1, s.StatusBad.Render(fmt.Sprintf("server request flood: %d refused", r.Refused)))
	}
	if m.page == pageTraffic {
		if hidden := m.timeline.Hidden(); len(hidden) > 0 {
			put(3, s.StatusWarn.Render(strings.Join(hidden, ", ")+" hidden"))
		}
		if !m.timeline.Query().Empty() {
			put(3, s.StatusKey.Render(matchCount(m.timeline.Visible())))
		}
		if !m.timeline.Following() && m.open == nil {
			put(0, s.StatusKey.Render("paused (G follows)"))
		}
	}
	// The counts and the timeline's state come first when space runs out: the server's
	// description is cut first, then the least of the right side is left out (the
	// recording's dot, the dropped rows, the calls in flight …), never "paused".
	const leftMin = 12
	for statusWidth(right)+2+min(w, leftMin) > w {
		drop := -1
		for i, p := range right {
			if p.rank > 0 && (drop < 0 || p.rank >= right[drop].rank) {
				drop = i
			}
		}
		if drop < 0 {
			break
		}
		right = slices.Delete(right, drop, drop+1)
	}
	if statusWidth(right)+2+min(w, leftMin) > w {
		for i, p := range right {
			if strings.Contains(p.text, "paused (G follows)") {
				right[i].text = s.StatusKey.Render("paused")
			}
		}
	}
	texts := make([]string, len(right))
	for i, p := range right {
		texts[i] = p.text
	}
	rightText := strings.Join(texts, s.StatusKey.Render("  "))
	rw := ansi.StringWidth(rightText)
	if lw := w - rw - 2; lw < ansi.StringWidth(left) {
		left = ansi.Truncate(left, max(lw, min(w, leftMin)), "…")
	}
	line := left + s.StatusKey.Render("  ") + rightText
	if ansi.StringWidth(line) > w {
		line = ansi.Truncate(line, w, "…")
	}
	return s.StatusBar.Render(textfmt.Pad(line, w))
}

// statusPart is one item of the status bar's right side; when space runs out the highest
// rank is left out first, and rank 0 never.
type statusPart struct {
	text string
	rank int
}

func statusWidth(parts []statusPart) int {
	n := 0
	for i, p := range parts {
		if i > 0 {
			n += 2
		}
		n += ansi.StringWidth(p.text)
	}
	return n
}

func (m *Model) transportName() string {
	if m.info.Transport != "" {
		return m.info.Transport
	}
	return m.opts.TransportName
}

// matchCount is "1 row matches", "3 rows match".
func matchCount(n int) string {
	if n == 1 {
		return "1 row matches"
	}
	return textfmt.Plural(n, "row") + " match"
}

// runningTasks are the ids of the current session's running tasks: followed by the Tasks
// page and unfinished, or created by an explorer call whose outcome has not come back (the
// page may not have seen its CreateTaskResult yet). Each counts as one call in flight.
func (m *Model) runningTasks() map[string]bool {
	ids := map[string]bool{}
	for _, r := range m.tasks.rows {
		if r.following && !r.task.Terminal() {
			ids[r.task.ID] = true
		}
	}
	for _, id := range m.explorer.RunningTaskIDs(m.gen) {
		if row := m.tasks.byID[id]; row == nil || !row.task.Terminal() {
			ids[id] = true
		}
	}
	return ids
}

// The requests a task's follower sends about it: part of the task, not calls of their own.
const (
	methodTasksGet    = "tasks/get"
	methodTasksResult = "tasks/result"
	methodTasksUpdate = "tasks/update"
	methodTasksCancel = "tasks/cancel"
)

// ownCallsInFlight is how many of mcpscope's own requests await their answer, leaving out
// the polls (tasks/get, tasks/result, tasks/update) of a task in tasks, which counts as one call by itself.
// A request from the server waiting for the user's answer is not a call of the user's.
func (m *Model) ownCallsInFlight(tasks map[string]bool) int {
	n := 0
	for e := range m.hist.Pending() {
		if e.Ev == nil || e.Ev.Frame == nil || e.Ev.Dir != protocol.ClientToServer {
			continue
		}
		if f := e.Ev.Frame; len(tasks) > 0 && (f.Method == methodTasksGet || f.Method == methodTasksResult || f.Method == methodTasksUpdate) &&
			tasks[traffic.ParamsTaskID(f.Params)] {
			continue
		}
		n++
	}
	return n
}

// inFlightText is the status bar's count: the user's calls awaiting an answer, a running
// task being one call (not also its polls).
func (m *Model) inFlightText() string {
	tasks := m.runningTasks()
	n, t := m.ownCallsInFlight(tasks), len(tasks)
	if t == 0 {
		return fmt.Sprintf("%d in flight", n)
	}
	return fmt.Sprintf("%d in flight (%s)", n+t, textfmt.Plural(t, "task"))
}
