package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
)

// restart closes the current session and then starts a new one; the history stays, with a
// marker. The new session starts once the old one's last events are in (its pump ended), so
// its shutdown (exit, close, DELETE) is shown before the marker, where the recording puts it
// by its generation, not inside the new session.
func (m *Model) restart() tea.Cmd {
	if m.opts.NewSession == nil {
		return statusCmd("no server to restart: pick one on the servers page (5)", true)
	}
	return m.restartSaying(restartStatus)
}

// restartStatus begins the status line's text while the old server closes.
const restartStatus = "restarting"

// restartSaying is restart with what the status line says while the old server closes.
func (m *Model) restartSaying(what string) tea.Cmd {
	if m.life.changing() {
		return statusCmd("a restart is already under way", false)
	}
	m.c.Log.Printf("restart requested (session %d)", m.gen)
	old := m.sess
	m.sess = nil
	m.connErr = nil
	m.detail.SetFailure("")
	reason := "restarted by the user"
	if m.switchTo != nil {
		reason = m.switchTo.reason
	}
	switch {
	case m.life == lifeDraining:
		// Disconnected, and the old session's last events are still coming.
		m.step(lifeRestart)
		return nil
	case old == nil:
		return m.startNext()
	case m.life != lifeLive:
		return tea.Batch(closeSessionCmd(old, reason), m.startNext())
	}
	m.step(lifeRestart)
	return tea.Batch(closeSessionCmd(old, reason), statusCmd(what+": closing the server…", false))
}

// startNext starts the next session after a restart, under its marker; the status line's
// word about closing the old server goes.
func (m *Model) startNext() tea.Cmd {
	marker := fmt.Sprintf("restart #%d of %s", m.gen, m.opts.Target)
	if sw := m.switchTo; sw != nil {
		marker, m.switchTo = sw.marker, nil
	}
	if m.opts.Servers != nil {
		m.servers.SetCurrent(m.servers.current, true)
	}
	m.hist.AddMarker(m.gen+1, marker)
	m.timeline.Sync()
	m.step(lifeStart)
	if strings.HasPrefix(m.status.Text, restartStatus) {
		m.status = StatusMsg{}
	}
	return startSessionCmd(m.newSession(), m.opts.Recorder, m.gen+1)
}

// eraRestartMsg asks for a restart that forces protocol revision rev (the server page's
// era key).
type eraRestartMsg struct{ rev protocol.Revision }

// otherEra is the revision the era key restarts in: the newest stateful revision when the
// session is in the stateless era, else the stateless revision; "" before the handshake.
func otherEra(info session.ServerInfo) protocol.Revision {
	switch {
	case info.Revision == "":
		return ""
	case info.Stateless:
		return protocol.LatestStateful
	}
	return protocol.Revisions[len(protocol.Revisions)-1]
}

// eraRestartCmd asks the model to restart in rev.
func eraRestartCmd(rev protocol.Revision) tea.Cmd {
	return func() tea.Msg { return eraRestartMsg{rev} }
}

// restartInEra restarts the server forcing the revision of msg; later restarts (R) keep it.
func (m *Model) restartInEra(msg eraRestartMsg) tea.Cmd {
	if m.opts.NewSessionIn == nil || msg.rev == "" {
		return nil
	}
	if m.life.changing() {
		return statusCmd("a restart is already under way", false)
	}
	m.protocol = msg.rev
	m.c.Log.Printf("restart in %s requested", msg.rev)
	return m.restartSaying(restartStatus + " with --protocol " + string(msg.rev))
}

// newSession is how the next session is made: Options.NewSession, or NewSessionIn with the
// revision the era key chose.
func (m *Model) newSession() func() (*session.Session, error) {
	if m.protocol == "" || m.opts.NewSessionIn == nil {
		return m.opts.NewSession
	}
	rev, in := string(m.protocol), m.opts.NewSessionIn
	return func() (*session.Session, error) { return in(rev) }
}

// initEra turns the era key off where no session can be made with another revision.
func (m *Model) initEra() {
	switch {
	case m.offlineReason() != "":
		m.c.Keys.Disable(&m.c.Keys.Era, m.offlineReason())
	case m.opts.NewSessionIn == nil:
		m.c.Keys.Disable(&m.c.Keys.Era, "this view cannot choose the protocol revision")
	}
}
