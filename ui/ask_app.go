package ui

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/protocol/apps"
	"github.com/mcpscope/mcpscope/session/apphost"
)

// appAskTextLimit bounds the text of an app's question the view keeps (a URL or a
// ui/message's text); the frame in the timeline has all of it.
const appAskTextLimit = 4 << 10

// AppAsk is one question an MCP App run from the explorer waits on: ui/open-link or
// ui/message. The user accepts or refuses it; the app is never answered silently.
type AppAsk struct {
	ID      uint64 // tells questions apart in the program
	App     string // which app asks: its tool and ui:// resource
	Method  string // apps.MethodOpenLink or apps.MethodMessage
	Text    string // the URL, or the message's text (bounded)
	Arrived time.Time

	reply chan bool
	once  sync.Once
}

// answer delivers the user's decision (only the first one counts).
func (q *AppAsk) answer(yes bool) { q.once.Do(func() { q.reply <- yes }) }

// AppAskMsg brings an app's question to the program, or (Withdrawn) says one shown
// earlier no longer waits: the app or the session went away.
type AppAskMsg struct {
	Ask       *AppAsk
	Withdrawn bool
}

// WaitAppAskCmd waits for the next AppAskMsg; the model issues it again after each one.
// It yields nil once the Asker is closed.
func WaitAppAskCmd(a *Asker) tea.Cmd {
	return func() tea.Msg {
		select {
		case msg := <-a.appCh:
			return msg
		case <-a.done:
			return nil
		}
	}
}

// AskApp hands an app's question to the program and blocks until the user decides, ctx
// ends (the app's host or the session closed) or the Asker closes; only an accept is
// true. It is the explorer's AppAskFunc.
func (a *Asker) AskApp(ctx context.Context, app string, q apphost.Question) bool {
	text := q.Text
	if len(text) > appAskTextLimit {
		text = strings.ToValidUTF8(text[:appAskTextLimit], "") + "…"
	}
	ask := &AppAsk{ID: a.ids.Add(1), App: app, Method: q.Method, Text: text, Arrived: time.Now(), reply: make(chan bool, 1)}
	select {
	case a.appCh <- AppAskMsg{Ask: ask}:
	case <-ctx.Done():
		return false
	case <-a.done:
		return false
	}
	select {
	case yes := <-ask.reply:
		return yes
	case <-ctx.Done():
		select {
		case a.appCh <- AppAskMsg{Ask: ask, Withdrawn: true}:
		case <-a.done:
		}
		return false
	case <-a.done:
		return false
	}
}

// appAskQueue is the dialog of the apps' questions, in arrival order: asks[0] is on
// screen. It is on the stack while a question waits.
type appAskQueue struct {
	asks []*AppAsk
}

var _ Dialog = (*appAskQueue)(nil)

// appAskDoneMsg says the user decided question ID: its dialog closes.
type appAskDoneMsg struct {
	ID  uint64
	Yes bool
}

// appAskArrived queues a new question, or drops one that no longer waits, and waits for
// the next.
func (m *Model) appAskArrived(msg AppAskMsg) tea.Cmd {
	next := WaitAppAskCmd(m.asker)
	if msg.Ask == nil {
		return next
	}
	if msg.Withdrawn {
		if m.removeAppAsk(msg.Ask.ID) {
			return tea.Batch(next, statusCmd("the app "+msg.Ask.App+" no longer waits on its "+msg.Ask.Method, false))
		}
		return next
	}
	if q := dialogOf[*appAskQueue](m); q != nil {
		q.asks = append(q.asks, msg.Ask)
	} else {
		m.pushDialog(&appAskQueue{asks: []*AppAsk{msg.Ask}})
	}
	cmds := []tea.Cmd{next}
	if !m.ticking {
		m.ticking = true
		cmds = append(cmds, tickCmd())
	}
	return tea.Batch(cmds...)
}

// appAskDone closes a decided question's dialog and says what follows.
func (m *Model) appAskDone(msg appAskDoneMsg) tea.Cmd {
	q := dialogOf[*appAskQueue](m)
	var a *AppAsk
	if q != nil {
		for _, x := range q.asks {
			if x.ID == msg.ID {
				a = x
			}
		}
	}
	if a == nil || !m.removeAppAsk(msg.ID) {
		return nil
	}
	switch {
	case !msg.Yes:
		return statusCmd("refused the "+a.Method+" of the app "+a.App, false)
	case a.Method == apps.MethodOpenLink:
		return statusCmd("opening the app's link in the browser: "+m.c.Mask.String(a.Text), false)
	default:
		return statusCmd("accepted the ui/message of the app "+a.App, false)
	}
}

// removeAppAsk takes question id off the queue; the queue leaves the stack with its last
// question. It reports whether the question was there.
func (m *Model) removeAppAsk(id uint64) bool {
	q := dialogOf[*appAskQueue](m)
	if q == nil {
		return false
	}
	n := len(q.asks)
	for i, a := range q.asks {
		if a.ID == id {
			q.asks = append(q.asks[:i:i], q.asks[i+1:]...)
			break
		}
	}
	if len(q.asks) == 0 {
		m.closeDialog(q)
	}
	return len(q.asks) < n
}

// decideAppCmd answers the question and then closes its dialog.
func decideAppCmd(a *AppAsk, yes bool) tea.Cmd {
	return func() tea.Msg {
		a.answer(yes)
		return appAskDoneMsg{ID: a.ID, Yes: yes}
	}
}

// Update implements Dialog: Send accepts, Decline or Dismiss refuses; ctrl+c passes on,
// and so does every message that is not a key.
func (q *appAskQueue) Update(m *Model, msg tea.Msg) (tea.Cmd, DialogResult) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		if _, paste := msg.(tea.PasteMsg); paste {
			return nil, DialogStay
		}
		return nil, DialogPass
	}
	a, act := q.asks[0], &m.c.Keys.Act
	switch {
	case k.String() == "ctrl+c":
		return nil, DialogPass
	case key.Matches(k, act.Send):
		return decideAppCmd(a, true), DialogStay
	case key.Matches(k, act.Decline), key.Matches(k, act.Dismiss):
		return decideAppCmd(a, false), DialogStay
	}
	return nil, DialogStay
}

// Keys implements Dialog.
func (q *appAskQueue) Keys(m *Model) []key.Binding {
	act := &m.c.Keys.Act
	return []key.Binding{act.Send, act.Decline, act.Dismiss}
}

// SetSize implements Dialog: the dialog is drawn to the screen's size.
func (q *appAskQueue) SetSize(Layout) {}

// Draw implements Dialog: the question on screen over the body.
func (q *appAskQueue) Draw(m *Model, scr *Screen) {
	iw, ih := bodyDialogSize(scr.Layout)
	m.overlayDialog(scr, m.appAskView(q.asks[0], iw, ih, len(q.asks)-1))
}

// appAskView draws a question at inner width iw in at most ih lines: the keys stay on
// its last line, and the text is cut to fit above them.
func (m *Model) appAskView(a *AppAsk, iw, ih, more int) []string {
	s := m.c.Styles
	wrap := func(st func(...string) string, text string, indent int) []string {
		return m.wrapServerText(st, text, iw, indent)
	}
	wait := max(0, m.timeline.Now.Sub(a.Arrived)).Truncate(time.Second)
	title, what, accept := "The app asks to open a link", "ui/open-link", "open it in the browser"
	if a.Method != apps.MethodOpenLink {
		title, what, accept = "The app sends a message to the conversation", "ui/message", "accept it"
	}
	head := s.Bold.Render(title) + "  " + s.Accent.Render("waiting "+wait.String())
	if more > 0 {
		head += "  " + s.BadgeFinding.Render("+"+strconv.Itoa(more)+" more waiting")
	}
	out := []string{head}
	out = append(out, wrap(s.Subtle.Render, "app: "+a.App+"  ("+what+")", 0)...)
	out = append(out, "")
	out = append(out, wrap(s.Text.Render, a.Text, 2)...)
	act := m.c.Keys.Act
	keys := act.Send.Help().Key + " " + accept + " · " + act.Decline.Help().Key + "/" + act.Dismiss.Help().Key + " refuse"
	tail := append([]string{""}, wrap(s.HelpDesc.Render, keys, 0)...)
	if room := ih - len(tail); len(out) > room {
		out = append(out[:max(1, room-1)], s.Subtle.Render("  …"))
	}
	return append(out, tail...)
}
