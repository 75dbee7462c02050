package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/internal/common"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
)

// appNoteRow is the kind and label of a note of the app lane that is a row of its own
// (the address of a hosted app, what its policy blocked); kind and label as they are for
// any other event.
func appNoteRow(p *common.RowPaints, ev *session.Event, kind, label string) (string, string) {
	if name, url, ok := session.AppHostedURL(ev); ok {
		return p.Accent.Paint(textfmt.FitRow("app", colKind)), p.Accent.Paint(cleanText(name) + " hosted at " + cleanText(url))
	}
	if ev.Note == session.NoteAppCSPViolation {
		return p.Finding.Paint(textfmt.FitRow("csp", colKind)), p.Finding.Paint(cleanText(ev.Text))
	}
	return kind, label
}

// laneNote reports whether ev is a note of the app lane the transport rows' toggle keeps.
func laneNote(ev *session.Event) bool {
	return ev.Note == session.NoteAppHosted || ev.Note == session.NoteAppCSPViolation
}

// copyAppURL copies the address of a hosted app when the copy key is pressed on its row
// of the app lane (session.NoteAppHosted) in the timeline: a row cut at the screen's edge
// still gives the whole address, token included.
func (m *Model) copyAppURL(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if m.page != pageTraffic || m.focus != focusTimeline || !key.Matches(msg, m.c.Keys.Copy) {
		return nil, false
	}
	sel := m.timeline.Selected()
	if sel == nil {
		return nil, false
	}
	_, url, ok := session.AppHostedURL(sel.Ev)
	if !ok {
		return nil, false
	}
	return copyURLCmd(url), true
}
