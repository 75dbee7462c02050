package ui

import (
	"errors"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
)

// A recording opened read-only is checked line by line in the background, a chunk at a
// time, so the status bar can say how many lines could not be read, whatever the reason
// (not JSON, binary data, a line that is not an event, a last line cut short): each of
// them is also a row of the timeline, with its line number.

// openCheckMsg is one step of the check: lines [from, next) were read, bad of them could not
// be.
type openCheckMsg struct {
	next, bad int
}

// openCheckCmd reads one chunk of lines from from and counts those that are not events.
func openCheckCmd(r *recordings.Reader, from int) tea.Cmd {
	return func() tea.Msg {
		end := min(from+openCheckChunk, r.Len())
		bad := 0
		for i := from; i < end; i++ {
			if r.Check(i) != nil {
				bad++
			}
		}
		return openCheckMsg{next: end, bad: bad}
	}
}

// openChecked takes in one step of the check and asks for the next.
func (m *Model) openChecked(msg openCheckMsg) tea.Cmd {
	o := m.open
	o.unreadable += msg.bad
	o.checkNext = msg.next
	if msg.next < o.r.Len() {
		if o.searching {
			o.checkPaused = true // the search has every CPU; the check goes on after it
			return nil
		}
		return openCheckCmd(o.r, msg.next)
	}
	return nil
}

// resumeCheck goes on with the check where a search paused it.
func (o *openView) resumeCheck() tea.Cmd {
	if !o.checkPaused {
		return nil
	}
	o.checkPaused = false
	return openCheckCmd(o.r, o.checkNext)
}

// openCheckStatus is the check's part of the status bar: the unreadable lines found, and
// whether the check is still going.
func (m *Model) openCheckStatus() []string {
	o := m.open
	s := m.c.Styles
	switch done := o.checkNext >= o.r.Len(); {
	case o.unreadable > 0 && done:
		return []string{s.StatusBad.Render(textfmt.Plural(o.unreadable, "unreadable line"))}
	case o.unreadable > 0:
		return []string{s.StatusBad.Render(fmt.Sprintf("%s so far", textfmt.Plural(o.unreadable, "unreadable line")))}
	case !done:
		return []string{s.StatusKey.Render(fmt.Sprintf("checking lines %d%%", o.checkNext*100/max(1, o.r.Len())))}
	}
	return nil
}

// openProblem is the text of a row for a line that could not be read.
func openProblem(r *recordings.Reader, idx int, err error) string {
	var le *recordings.LineError
	if errors.As(err, &le) {
		return fmt.Sprintf("line %d could not be read: %s", le.Line, le.Why)
	}
	return fmt.Sprintf("line %d could not be read: %v", r.Line(idx), err)
}
