package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/session"
)

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
