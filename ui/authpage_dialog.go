package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
)

var _ Dialog = (*authWaitDialog)(nil)

// authWaitDialog is up while the authorization waits for the browser (AuthPage.Waiting):
// the URL, open, copy, and esc to stop waiting. It takes every key but ctrl+c.
type authWaitDialog struct {
	_ byte // not zero-size: the stack tells dialogs apart by address
}

// Update implements Dialog.
func (*authWaitDialog) Update(m *Model, msg tea.Msg) (tea.Cmd, DialogResult) {
	kp, ok := msg.(tea.KeyPressMsg)
	if !ok || kp.String() == "ctrl+c" {
		return nil, DialogPass
	}
	cmd := m.auth.WaitKey(kp)
	if !m.auth.Waiting() {
		return cmd, DialogDone
	}
	return cmd, DialogStay
}

// Draw implements Dialog: the URL over the body, across its whole width between a top and
// a bottom rule, with no side border or padding, so that selecting the URL's lines in the
// terminal gives the URL alone.
func (*authWaitDialog) Draw(m *Model, scr *Screen) {
	l := scr.Layout.Body
	_, ih := dialogSize(l.W, l.H)
	lines := m.auth.waitView(l.W)
	if len(lines) > ih {
		lines = lines[:ih]
	}
	for i, line := range lines {
		lines[i] = textfmt.FitRow(line, l.W)
	}
	st := m.c.Styles.Dialog.BorderLeft(false).BorderRight(false).Padding(0)
	scr.Body = overlay(scr.Body, st.Render(strings.Join(lines, "\n")), l.W, l.H)
}

// Keys implements Dialog.
func (*authWaitDialog) Keys(m *Model) []key.Binding { return m.auth.WaitKeys() }

// SetSize implements Dialog.
func (*authWaitDialog) SetSize(Layout) {}

// authDialog opens the dialog when the authorization starts waiting for the browser and
// closes it when the wait ends.
func (m *Model) authDialog() tea.Cmd {
	d := dialogOf[*authWaitDialog](m)
	switch {
	case m.auth.Waiting() && d == nil:
		m.pushDialog(&authWaitDialog{})
	case !m.auth.Waiting() && d != nil:
		m.closeDialog(d)
	}
	return nil
}
