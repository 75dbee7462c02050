package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
)

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
	m.protocol = msg.rev
	m.c.Log.Printf("restart in %s requested", msg.rev)
	return tea.Batch(m.restart(), statusCmd("restarting with --protocol "+string(msg.rev), false))
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
