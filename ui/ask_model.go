package ui

import (
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/ui/form"
)

// interactive is the model's state for acting on the server: what the server asks and
// waits for (asks[0] is on screen), and the dialogs the user opens (at most one).
type interactive struct {
	asker   *Asker
	asks    []*askDialog
	compose *composer
	roots   *rootsEditor
	level   *levelPicker
}

// dialogOpen reports whether a dialog has the keys.
func (ia *interactive) dialogOpen() bool {
	return len(ia.asks) > 0 || ia.compose != nil || ia.roots != nil || ia.level != nil
}

// askInit starts receiving what the server asks, and turns off the keys that need a live
// session when a recording is browsed.
func (m *Model) askInit() tea.Cmd {
	live := m.open == nil && m.live == nil
	m.c.Keys.setActLive(m.offlineReason())
	m.ia.asker = m.opts.Asker
	if m.ia.asker == nil || !live {
		return nil
	}
	return WaitAskCmd(m.ia.asker)
}

// interactUpdate handles the messages of this feature and, while a dialog is open, the
// keys. ok is false for messages the rest of Update handles.
func (m *Model) interactUpdate(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case AskMsg:
		return m.askArrived(msg), true
	case askDoneMsg:
		m.removeAsk(msg.ID)
		return nil, true
	case levelSetMsg:
		return m.levelSet(msg), true
	case sentMsg:
		return m.sent(msg), true
	case cancelledMsg:
		return m.cancelled(msg), true
	case rootsNotifiedMsg:
		return m.rootsNotified(msg), true
	case tea.WindowSizeMsg:
		m.sizeDialogs(msg.Width, msg.Height)
		return nil, false
	case form.SubmitMsg:
		if d := m.formAsk(); d != nil {
			return d.submitted(msg.Args), true
		}
		if c := m.ia.compose; c != nil && c.form != nil {
			return m.composeSubmitted(msg.Args), true
		}
	case form.CancelMsg:
		if d := m.formAsk(); d != nil {
			return d.finish(answerCmd(d.q, []byte(`{"action":"cancel"}`), nil)), true
		}
		if c := m.ia.compose; c != nil && c.form != nil {
			m.ia.compose = nil
			return nil, true
		}
	case tea.KeyPressMsg:
		if !m.ia.dialogOpen() || msg.String() == "ctrl+c" {
			return nil, false
		}
		return m.dialogKey(msg), true
	case tea.PasteMsg:
		if m.ia.dialogOpen() {
			return m.dialogForward(msg), true
		}
	}
	if m.ia.dialogOpen() {
		// Cursor blinks, the form's $EDITOR and suggestions: to the dialog's inputs; the
		// rest of Update sees them too.
		return m.dialogForward(msg), false
	}
	return nil, false
}

// formAsk is the ask on screen when it is a form elicitation.
func (m *Model) formAsk() *askDialog {
	if len(m.ia.asks) > 0 && m.ia.asks[0].kind == askElicitForm {
		return m.ia.asks[0]
	}
	return nil
}

// askArrived queues a new ask (it shows when those before it are answered), or drops one
// the server withdrew, and waits for the next.
func (m *Model) askArrived(msg AskMsg) tea.Cmd {
	next := WaitAskCmd(m.ia.asker)
	if msg.Ask == nil {
		return next
	}
	if msg.Withdrawn {
		if m.removeAsk(msg.Ask.ID) {
			return tea.Batch(next, statusCmd("the server withdrew its "+msg.Ask.Req.Method+" request", false))
		}
		return next
	}
	d := newAskDialog(m.c, msg.Ask)
	m.ia.asks = append(m.ia.asks, d)
	m.sizeDialogs(m.c.Width, m.c.Height)
	cmds := []tea.Cmd{next}
	if !m.ticking {
		m.ticking = true
		cmds = append(cmds, tickCmd())
	}
	return tea.Batch(cmds...)
}

// removeAsk closes the dialog of ask id; it reports whether it was open or queued.
func (m *Model) removeAsk(id uint64) bool {
	n := len(m.ia.asks)
	m.ia.asks = slices.DeleteFunc(m.ia.asks, func(d *askDialog) bool { return d.q.ID == id })
	return len(m.ia.asks) < n
}

// sizeDialogs fits the dialogs' inputs to a w×h terminal.
func (m *Model) sizeDialogs(w, h int) {
	l := ComputeLayout(w, h, m.detailOpen)
	iw, ih := dialogSize(l.Body.W, l.Body.H)
	for _, d := range m.ia.asks {
		switch d.kind {
		case askSampling:
			d.reply.SetWidth(iw)
			d.model.SetWidth(max(10, iw-8))
		case askElicitForm:
			d.form.SetSize(iw, askFormHeight(d, iw, ih))
		}
	}
	if c := m.ia.compose; c != nil {
		c.setSize(iw, ih)
	}
	if r := m.ia.roots; r != nil {
		r.setSize(iw)
	}
}

// dialogKey gives a key to the dialog on top: an ask first, then the one the user opened.
func (m *Model) dialogKey(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case len(m.ia.asks) > 0:
		return m.ia.asks[0].key(&m.c.Keys.Act, msg)
	case m.ia.roots != nil:
		return m.rootsKey(msg)
	case m.ia.level != nil:
		return m.levelKey(msg)
	case m.ia.compose != nil:
		return m.composeKey(msg)
	}
	return nil
}

// dialogForward gives other messages to the inputs of the dialog on top.
func (m *Model) dialogForward(msg tea.Msg) tea.Cmd {
	switch {
	case len(m.ia.asks) > 0:
		return m.ia.asks[0].forward(msg)
	case m.ia.roots != nil:
		return m.ia.roots.forward(msg)
	case m.ia.compose != nil:
		return m.ia.compose.forward(msg)
	}
	return nil
}

// interactKey handles the keys that open dialogs or act on the selected row; ok is false
// for every other key.
func (m *Model) interactKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := &m.c.Keys.Act
	onRow := m.page == pageTraffic && m.focus == focusTimeline
	switch {
	case key.Matches(msg, k.Compose):
		return m.openComposer("", nil), true
	case key.Matches(msg, k.LogLevel):
		m.ia.level = &levelPicker{cursor: slices.Index(logLevels, "info")}
		return nil, true
	case key.Matches(msg, k.Roots):
		if m.ia.asker == nil {
			return statusCmd("no roots editor: roots/list is answered from the command line's --root flags", true), true
		}
		m.ia.roots = newRootsEditor(m.ia.asker)
		m.sizeDialogs(m.c.Width, m.c.Height)
		return nil, true
	case onRow && key.Matches(msg, k.Cancel):
		return m.cancelSelected(), true
	case onRow && key.Matches(msg, k.Resend):
		return m.resendSelected(), true
	case onRow && key.Matches(msg, k.EditResend):
		return m.editSelected(), true
	}
	offKeys := []*key.Binding{&k.Compose, &k.LogLevel, &k.Roots}
	if onRow {
		offKeys = append(offKeys, &k.Cancel, &k.Resend, &k.EditResend)
	}
	if cmd := m.c.Keys.disabledKeyCmd(msg, offKeys...); cmd != nil {
		return cmd, true
	}
	return nil, false
}

// dialogKeys are the help line's bindings while a dialog is open, or nil.
func (m *Model) dialogKeys() []key.Binding {
	k, g := &m.c.Keys.Act, m.c.Keys
	switch {
	case len(m.ia.asks) > 0:
		switch d := m.ia.asks[0]; d.kind {
		case askSampling:
			return []key.Binding{k.Send, k.Decline, k.NextField}
		case askElicitURL:
			return []key.Binding{k.OpenURL, k.Send, k.Decline, k.Dismiss}
		default:
			return append(d.form.KeyMap().ShortHelp(), k.Decline)
		}
	case m.ia.roots != nil:
		return m.ia.roots.keys(k, g)
	case m.ia.level != nil:
		return []key.Binding{g.Up, g.Down, g.Open, g.Back}
	case m.ia.compose != nil:
		return m.ia.compose.keys(k)
	case m.auth.Waiting():
		return m.auth.WaitKeys()
	}
	return nil
}
