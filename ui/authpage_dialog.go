package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
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

// Draw implements Dialog: the URL over the body.
func (*authWaitDialog) Draw(m *Model, scr *Screen) {
	iw, _ := bodyDialogSize(scr.Layout)
	m.overlayDialog(scr, m.auth.waitView(iw))
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
