package ui

import (
	"context"
	"encoding/json"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/session"
)

// connectCmd runs session gen's handshake.
func connectCmd(gen int, s *session.Session) tea.Cmd {
	return func() tea.Msg {
		return ConnectedMsg{Gen: gen, Err: s.Connect(context.Background())}
	}
}

// restartCloseCmd closes the session a restart replaces.
func restartCloseCmd(s *session.Session) tea.Cmd {
	return func() tea.Msg {
		_ = s.CloseReason("restarted by the user")
		return nil
	}
}

// listAllCmd lists every kind the server declared, every page.
func listAllCmd(gen int, s *session.Session) tea.Cmd {
	return func() tea.Msg {
		msg := ListsMsg{Gen: gen, Lists: map[session.ListKind][]json.RawMessage{}, Errs: map[session.ListKind]error{}}
		caps := map[session.ListKind]string{session.ListTools: "tools", session.ListResources: "resources",
			session.ListTemplates: "resources", session.ListPrompts: "prompts"}
		var have map[string]json.RawMessage
		_ = json.Unmarshal(s.Info().Capabilities, &have)
		for _, k := range session.ListKinds {
			if _, ok := have[caps[k]]; !ok {
				continue
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			items, err := s.List(ctx, k)
			cancel()
			msg.Lists[k], msg.Errs[k] = items, err
		}
		if s.HasSkills() { // listed only: no skill file is read before the user loads one
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			msg.Lists[session.ListSkills], msg.Errs[session.ListSkills] = s.List(ctx, session.ListSkills)
			cancel()
		}
		return msg
	}
}

// tickCmd ticks once a second, for the timers of waiting requests.
func tickCmd() tea.Cmd {
	return tea.Tick(time.Second, func(t time.Time) tea.Msg { return TickMsg(t) })
}
