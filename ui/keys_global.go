package ui

import (
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// globalKey is a key of the inspector itself, whatever pane has focus: its binding, the
// state it applies in, and what it does. The first entry of globalKeys that matches wins.
type globalKey struct {
	binding func(k *KeyMap) *key.Binding
	when    func(m *Model) bool // nil: always
	do      func(m *Model, msg tea.KeyPressMsg) tea.Cmd
}

// globalKeys are the inspector's keys in order of precedence. Dialogs and the panes that
// capture keys come before them (Model.key); the focused pane gets what none takes.
var globalKeys = slices.Concat([]globalKey{
	{func(k *KeyMap) *key.Binding { return &k.Quit }, nil, (*Model).quit},
	{func(k *KeyMap) *key.Binding { return &k.Help }, nil, func(m *Model, _ tea.KeyPressMsg) tea.Cmd {
		m.pushDialog(&helpDialog{})
		return nil
	}},
}, pageKeys(), []globalKey{
	{func(k *KeyMap) *key.Binding { return &k.Connect }, onPage(pageServers), (*Model).connectSelected},
	{func(k *KeyMap) *key.Binding { return &k.Disconnect }, onPage(pageServers), (*Model).disconnectKey},
	{func(k *KeyMap) *key.Binding { return &k.StatsShow }, onPage(pageStats), (*Model).showStatsMethod},
	{func(k *KeyMap) *key.Binding { return &k.NextPane }, nil, cyclePane(false)},
	{func(k *KeyMap) *key.Binding { return &k.PrevPane }, nil, cyclePane(true)},
	{func(k *KeyMap) *key.Binding { return &k.Restart }, nil, func(m *Model, _ tea.KeyPressMsg) tea.Cmd { return m.restart() }},
	{func(k *KeyMap) *key.Binding { return &k.SaveSession }, nil, func(m *Model, _ tea.KeyPressMsg) tea.Cmd { return m.startSave() }},
	{func(k *KeyMap) *key.Binding { return &k.Filter }, onTraffic, func(m *Model, _ tea.KeyPressMsg) tea.Cmd { return m.openFilter() }},
	{func(k *KeyMap) *key.Binding { return &k.Break.Set }, onTimeline, (*Model).setBreakpoint},
	{func(k *KeyMap) *key.Binding { return &k.Break.List }, nil, (*Model).openBreakpoints},
	{func(k *KeyMap) *key.Binding { return &k.Open }, onTimeline, (*Model).openDetail},
	{func(k *KeyMap) *key.Binding { return &k.Maximize }, onTraffic, (*Model).maximizeDetail},
	{func(k *KeyMap) *key.Binding { return &k.Back }, func(m *Model) bool { return !onTimeline(m) }, (*Model).back},
})

// globalKey handles the inspector's own keys; ok is false for a key it does not take.
func (m *Model) globalKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := m.c.Keys
	if cmd := k.DisabledKeyCmd(msg, &k.Restart); cmd != nil {
		return cmd, true
	}
	for _, g := range globalKeys {
		if key.Matches(msg, *g.binding(k)) && (g.when == nil || g.when(m)) {
			return g.do(m, msg), true
		}
	}
	return nil, false
}

func onTraffic(m *Model) bool         { return m.page == pageTraffic }
func onPage(p page) func(*Model) bool { return func(m *Model) bool { return m.page == p } }
func onTimeline(m *Model) bool        { return m.page == pageTraffic && m.focus == focusTimeline }

// toPage shows page p.
func toPage(p page) func(*Model, tea.KeyPressMsg) tea.Cmd {
	return func(m *Model, _ tea.KeyPressMsg) tea.Cmd {
		m.page = p
		m.relayout()
		return m.pageShown()
	}
}

// cyclePane moves the focus to the next pane, or the previous one.
func cyclePane(back bool) func(*Model, tea.KeyPressMsg) tea.Cmd {
	return func(m *Model, _ tea.KeyPressMsg) tea.Cmd {
		m.cycle(back)
		m.relayout()
		return nil
	}
}

// quit ends the program, after asking when requests are in flight or the session is not
// recorded and not saved (ctrl+c does not ask).
func (m *Model) quit(msg tea.KeyPressMsg) tea.Cmd {
	if msg.String() == "ctrl+c" {
		return tea.Quit
	}
	d := &confirmDialog{unsaved: m.unsaved()}
	if m.hist.InFlight() > 0 {
		d.inFlight = m.inFlightText()
	}
	if d.inFlight != "" || d.unsaved {
		m.pushDialog(d)
		return nil
	}
	return tea.Quit
}

// openDetail opens the selected row in the detail pane.
func (m *Model) openDetail(tea.KeyPressMsg) tea.Cmd {
	m.focus = focusDetail
	m.relayout()
	return m.detail.Pick(m.timeline.Selected())
}

// back goes back a step: from the detail to the timeline, from the explorer's item to its
// list, from another page to the traffic page.
func (m *Model) back(tea.KeyPressMsg) tea.Cmd {
	switch {
	case m.page == pageTraffic && m.detailMax:
		m.detailMax = false // restore first; esc again goes back to the timeline
	case m.page == pageTraffic:
		m.focus = focusTimeline
	case m.page == pageExplorer && m.explorer.Back():
	default:
		m.page = pageTraffic
	}
	m.relayout()
	return nil
}

// maximizeDetail gives the detail pane the whole body (the selected row's detail, from
// the timeline too), or restores the layout.
func (m *Model) maximizeDetail(tea.KeyPressMsg) tea.Cmd {
	m.detailMax = !m.detailMax
	var cmd tea.Cmd
	if m.detailMax {
		m.focus = focusDetail
		cmd = m.detail.Pick(m.timeline.Selected())
	}
	m.relayout()
	return tea.Batch(cmd, m.detail.Refresh())
}

// offlineReason says why the keys that act on a server are off, or is "" on a live session
// of mcpscope's own.
func (m *Model) offlineReason() string {
	switch {
	case m.open != nil:
		return "a recording is being browsed, there is no server to act on"
	case m.live != nil:
		return "a tap only watches its host's session with the server, it does not send"
	}
	return ""
}
