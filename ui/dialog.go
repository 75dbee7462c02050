package ui

import (
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// Dialog is a modal layer over the inspector: the quit confirmation, the filter and save
// prompts, the full help, what the server asks, the composer, the roots editor and the log
// level picker. Dialogs live on the model's stack; the one on top has the keys, and each is
// drawn over what lies below it, bottom first. A dialog is a pointer to a struct that is
// not zero-size: the stack tells dialogs apart by address.
type Dialog interface {
	// Update handles a message. A key or a paste reaches the top dialog first and goes on
	// down the stack only while the dialogs pass it (DialogPass); any other message is
	// offered the same way, and what every dialog passes reaches the model as well.
	Update(m *Model, msg tea.Msg) (tea.Cmd, DialogResult)
	// Draw paints the dialog on the screen as the dialogs below it left it: over the
	// body, in place of the body, or in the footer.
	Draw(m *Model, scr *Screen)
	// Keys are the help line's bindings while the dialog is on top; nil leaves the help
	// line to the page below.
	Keys(m *Model) []key.Binding
	// SetSize fits the dialog to the layout of the terminal.
	SetSize(l Layout)
}

// DialogResult is what a dialog made of a message.
type DialogResult int

// What a dialog made of a message.
const (
	// DialogStay: the dialog took the message and stays open.
	DialogStay DialogResult = iota
	// DialogDone: the dialog took the message and finished; it closes.
	DialogDone
	// DialogCancel: the dialog took the message and was cancelled; it closes.
	DialogCancel
	// DialogPass: the message is not the dialog's (or not only): it goes on down the
	// stack, and to the model.
	DialogPass
)

// String names the result (for the debug log).
func (r DialogResult) String() string {
	return [...]string{"stay", "done", "cancel", "pass"}[r]
}

// Screen is the screen being drawn: the body and the footer, as the page and the dialogs
// below have drawn them, and the layout they fill.
type Screen struct {
	Layout Layout
	Body   string // Layout.Body.H lines of Layout.Body.W cells
	Footer string // one line of Layout.Footer.W cells
}

// pushDialog opens d on top of the stack, sized to the terminal.
func (m *Model) pushDialog(d Dialog) {
	d.SetSize(ComputeLayout(m.c.Width, m.c.Height, m.detailOpen()))
	m.dialogs = append(m.dialogs, d)
	m.c.Log.Printf("dialog %T opened (%d on the stack)", d, len(m.dialogs))
}

// closeDialog takes d off the stack, wherever it is; it reports whether d was there.
func (m *Model) closeDialog(d Dialog) bool {
	i := slices.Index(m.dialogs, d)
	if i < 0 {
		return false
	}
	m.dialogs = slices.Delete(m.dialogs, i, i+1)
	m.c.Log.Printf("dialog %T closed (%d on the stack)", d, len(m.dialogs))
	return true
}

// topDialog is the dialog that has the keys, or nil.
func (m *Model) topDialog() Dialog {
	if len(m.dialogs) == 0 {
		return nil
	}
	return m.dialogs[len(m.dialogs)-1]
}

// dialogOf is the topmost dialog of type T on m's stack, or T's zero value.
func dialogOf[T Dialog](m *Model) T {
	for _, d := range slices.Backward(m.dialogs) {
		if t, ok := d.(T); ok {
			return t
		}
	}
	var zero T
	return zero
}

// dialogUpdate offers msg to the stack, top first. ok is true when a dialog took it;
// false sends it on to the rest of Update, with the commands the dialogs returned.
func (m *Model) dialogUpdate(msg tea.Msg) (cmd tea.Cmd, ok bool) {
	var cmds []tea.Cmd
	for _, d := range slices.Backward(slices.Clone(m.dialogs)) {
		if !slices.Contains(m.dialogs, d) {
			continue // closed by a dialog above it
		}
		c, res := d.Update(m, msg)
		cmds = append(cmds, c)
		switch res {
		case DialogPass:
			continue
		case DialogDone, DialogCancel:
			m.c.Log.Printf("dialog %T: %s", d, res)
			m.closeDialog(d)
		}
		return tea.Batch(cmds...), true
	}
	return tea.Batch(cmds...), false
}

// drawDialogs paints the dialogs over the screen, bottom first.
func (m *Model) drawDialogs(scr *Screen) {
	for _, d := range m.dialogs {
		d.Draw(m, scr)
	}
}

// sizeDialogs fits every dialog to layout l.
func (m *Model) sizeDialogs(l Layout) {
	for _, d := range m.dialogs {
		d.SetSize(l)
	}
}

// dialogKeys are the help line's bindings of the top dialog, or nil.
func (m *Model) dialogKeys() []key.Binding {
	if d := m.topDialog(); d != nil {
		return d.Keys(m)
	}
	return nil
}
