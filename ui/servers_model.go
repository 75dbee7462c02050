package ui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// pageShown starts what a page needs when it is shown (pages).
func (m *Model) pageShown() tea.Cmd {
	if shown := pages[m.page].shown; shown != nil {
		return shown(m)
	}
	return nil
}

// statsShown starts the stats page's figures: an opened recording's counted, the live
// ones worked out again.
func (m *Model) statsShown() tea.Cmd {
	if m.open != nil {
		return m.stats.CountCmd(m.open.r)
	}
	m.stats.Refresh()
	return nil
}

// switchPlan is what the next session's start says when it is another server's: the
// marker row, and the reason the current session is closed with.
type switchPlan struct{ marker, reason string }

// connectSelected connects to the server under the picker's cursor: a switch when another
// server is connected (its session is closed first, as for a restart), a connect when none
// is, and nothing but a word when it is the one connected.
func (m *Model) connectSelected(tea.KeyPressMsg) tea.Cmd {
	list := m.opts.Servers
	i := m.servers.Selected()
	switch {
	case m.open != nil || m.live != nil:
		return statusCmd("no server to connect to: "+m.offlineReason(), true)
	case list == nil || i < 0:
		return statusCmd("no configured server to connect to", true)
	case m.life.changing():
		return statusCmd("a restart is already under way", false)
	case i == m.servers.current && m.servers.connected && m.sess != nil:
		return statusCmd("already connected to "+list.Servers[i].Name+" (R restarts it)", false)
	}
	cs := list.Servers[i]
	newSession := list.NewSession
	m.opts.NewSession = func() (*session.Session, error) { return newSession(cs, "") }
	m.opts.NewSessionIn = func(rev string) (*session.Session, error) { return newSession(cs, rev) }
	m.opts.Target = cs.Spec.Describe()
	if list.ArgsFor != nil {
		m.opts.Server = list.ArgsFor(cs)
	}
	what := fmt.Sprintf("%s (%s): %s", cs.Name, cs.Source.Host, m.opts.Target)
	plan := &switchPlan{marker: "connect to " + what, reason: "disconnected by the user"}
	if m.sess != nil {
		plan = &switchPlan{marker: "switch to " + what, reason: "switched to " + cs.Name}
	}
	var load tea.Cmd
	if i != m.servers.current {
		// The figures are the new server's: the previous one's stay behind its marker row.
		m.statsGen = m.gen + 1
		m.stats.Reset(cs.Name, time.Now())
		m.protocol = "" // an era the era key forced was the previous server's
		m.explorer.SetLastArgs(m.opts.ArgsFile, m.opts.Target)
		m.explorer.ClearDrafts() // another server's tools, whatever their names
		load = m.explorer.LoadLastArgsCmd()
	}
	m.switchTo = plan
	m.c.Keys.Enable(&m.c.Keys.Era)
	m.servers.SetCurrent(i, m.sess != nil)
	m.page = pageTraffic
	m.relayout()
	return tea.Batch(m.restartSaying("switching to "+cs.Name), load)
}

// disconnectKey closes the current session; the picker connects again.
func (m *Model) disconnectKey(tea.KeyPressMsg) tea.Cmd {
	switch {
	case m.life.changing():
		return statusCmd("a restart is under way", false)
	case m.sess == nil || m.open != nil || m.live != nil:
		return statusCmd("not connected", true)
	}
	old := m.sess
	name := m.opts.Target
	if l := m.opts.Servers; l != nil && m.servers.current >= 0 && m.servers.current < len(l.Servers) {
		name = l.Servers[m.servers.current].Name
	}
	m.hist.AddMarker(m.gen, "disconnect from "+name)
	m.timeline.Sync()
	m.servers.SetCurrent(m.servers.current, false)
	m.sess = nil
	m.step(lifeDisconnect)
	m.state, m.stateText = session.StateClosed, "disconnected by the user"
	return closeSessionCmd(old, "disconnected by the user")
}

// showStatsMethod shows the stats page's selected method in the timeline, filtered to it.
func (m *Model) showStatsMethod(tea.KeyPressMsg) tea.Cmd {
	name := m.stats.Selected()
	if name == "" || strings.HasPrefix(name, "(") {
		return statusCmd("no method to show", true)
	}
	q := "method:=" + name
	m.filter.SetValue(q)
	m.timeline.SetQuery(traffic.ParseQuery(q))
	m.page, m.focus = pageTraffic, focusTimeline
	m.relayout()
	return tea.Batch(m.detail.SetEntry(m.timeline.Selected()), m.openRefilter())
}
