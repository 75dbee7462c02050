package ui

import (
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/ui/form"
)

// askQueue is the dialog of what the server asks and waits for, in arrival order: asks[0]
// is on screen, the others wait behind it. It is on the stack while an ask waits.
type askQueue struct {
	asks []*askDialog
}

var _ Dialog = (*askQueue)(nil)

// askInit starts receiving what the server asks, and turns off the keys that need a live
// session when a recording is browsed.
func (m *Model) askInit() tea.Cmd {
	live := m.open == nil && m.live == nil
	m.c.Keys.SetActLive(m.offlineReason())
	m.asker = m.opts.Asker
	if m.asker == nil || !live {
		return nil
	}
	m.explorer.SetAppAsk(m.asker.AskApp)
	return tea.Batch(WaitAskCmd(m.asker), WaitAppAskCmd(m.asker))
}

// interactUpdate handles the messages of acting on the server (what it asks, the outcomes
// of what was sent); ok is false for messages the rest of Update handles.
func (m *Model) interactUpdate(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case AskMsg:
		return m.askArrived(msg), true
	case askDoneMsg:
		m.removeAsk(msg.ID)
		return nil, true
	case AppAskMsg:
		return m.appAskArrived(msg), true
	case appAskDoneMsg:
		return m.appAskDone(msg), true
	case levelSetMsg:
		return m.levelSet(msg), true
	case sentMsg:
		return m.sent(msg), true
	case cancelledMsg:
		return m.cancelled(msg), true
	case rootsNotifiedMsg:
		return m.rootsNotified(msg), true
	}
	return nil, false
}

// Update implements Dialog: keys and pastes go to the ask on screen (ctrl+c passes on),
// and so do the results of its form; other messages reach its inputs and pass on.
func (q *askQueue) Update(m *Model, msg tea.Msg) (tea.Cmd, DialogResult) {
	d := q.asks[0]
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if msg.String() == "ctrl+c" {
			return nil, DialogPass
		}
		if d.kind == askElicitURL && key.Matches(msg, urlCopyBinding(m.c.Keys)) {
			return copyURLCmd(d.page.raw), DialogStay
		}
		return d.key(&m.c.Keys.Act, msg), DialogStay
	case tea.PasteMsg:
		return d.forward(msg), DialogStay
	case form.SubmitMsg:
		if d.kind == askElicitForm {
			return d.submitted(msg.Args), DialogStay
		}
	case form.CancelMsg:
		if d.kind == askElicitForm {
			return d.finish(answerCmd(d.q, []byte(`{"action":"cancel"}`), nil)), DialogStay
		}
	}
	// Cursor blinks, the form's $EDITOR and suggestions: to the ask's inputs; the rest of
	// Update sees them too.
	return d.forward(msg), DialogPass
}

// Draw implements Dialog: the ask on screen over the body.
func (q *askQueue) Draw(m *Model, scr *Screen) {
	iw, ih := bodyDialogSize(scr.Layout)
	m.overlayDialog(scr, m.askView(q.asks[0], iw, ih, len(q.asks)-1))
}

// Keys implements Dialog.
func (q *askQueue) Keys(m *Model) []key.Binding {
	k := &m.c.Keys.Act
	switch d := q.asks[0]; d.kind {
	case askSampling:
		return []key.Binding{k.Send, k.Decline, k.NextField}
	case askElicitURL:
		return askURLKeys(m.c.Keys)
	default:
		return append(d.form.KeyMap().ShortHelp(), k.Decline)
	}
}

// SetSize implements Dialog: every ask's inputs fit the dialog.
func (q *askQueue) SetSize(l Layout) {
	iw, ih := bodyDialogSize(l)
	for _, d := range q.asks {
		switch d.kind {
		case askSampling:
			d.reply.SetWidth(iw)
			d.model.SetWidth(max(10, iw-8))
		case askElicitForm:
			d.form.SetSize(iw, askFormHeight(d, iw, ih))
		}
	}
}

// askArrived queues a new ask (it shows when those before it are answered), or drops one
// the server withdrew, and waits for the next.
func (m *Model) askArrived(msg AskMsg) tea.Cmd {
	next := WaitAskCmd(m.asker)
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
	if q := dialogOf[*askQueue](m); q != nil {
		q.asks = append(q.asks, d)
		q.SetSize(ComputeLayout(m.c.Width, m.c.Height, m.detailOpen()))
	} else {
		m.pushDialog(&askQueue{asks: []*askDialog{d}})
	}
	cmds := []tea.Cmd{next}
	if !m.ticking {
		m.ticking = true
		cmds = append(cmds, tickCmd())
	}
	return tea.Batch(cmds...)
}

// removeAsk closes the dialog of ask id; it reports whether it was open or queued. The
// queue leaves the stack with its last ask.
func (m *Model) removeAsk(id uint64) bool {
	q := dialogOf[*askQueue](m)
	if q == nil {
		return false
	}
	n := len(q.asks)
	q.asks = slices.DeleteFunc(q.asks, func(d *askDialog) bool { return d.q.ID == id })
	if len(q.asks) == 0 {
		m.closeDialog(q)
	}
	return len(q.asks) < n
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
		m.pushDialog(&levelPicker{cursor: slices.Index(logLevels, "info")})
		return nil, true
	case key.Matches(msg, k.Roots):
		if m.asker == nil {
			return statusCmd("no roots editor: roots/list is answered from the command line's --root flags", true), true
		}
		m.pushDialog(newRootsEditor(m.asker))
		return nil, true
	case m.cancelApplies() && key.Matches(msg, k.Cancel):
		return m.cancel(), true
	case onRow && key.Matches(msg, k.Resend):
		return m.resendSelected(), true
	case onRow && key.Matches(msg, k.EditResend):
		return m.editSelected(), true
	case m.page == pageTraffic && key.Matches(msg, k.CopyCommand):
		return m.copyCommand(), true
	}
	offKeys := []*key.Binding{&k.Compose, &k.LogLevel, &k.Roots}
	if onRow {
		offKeys = append(offKeys, &k.Resend, &k.EditResend)
	}
	if m.cancelApplies() {
		offKeys = append(offKeys, &k.Cancel)
	}
	if cmd := m.c.Keys.DisabledKeyCmd(msg, offKeys...); cmd != nil {
		return cmd, true
	}
	return nil, false
}
