package ui

import (
	"context"
	"encoding/json"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/session"
)

// The commands that start, connect, list and close a session. Each returns its result as a
// message; none touches the model.

// startSessionCmd makes session gen and subscribes to it; rec, when set, records it
// through a subscription of its own.
func startSessionCmd(newSession func() (*session.Session, error), rec *Recorder, gen int) tea.Cmd {
	return func() tea.Msg {
		s, err := newSession()
		if err != nil {
			return SessionStartedMsg{Gen: gen, Err: err}
		}
		if rec != nil {
			rec.record(s, gen)
		}
		return SessionStartedMsg{Gen: gen, Sess: s, Sub: s.Subscribe(0)}
	}
}

func connectCmd(gen int, s *session.Session) tea.Cmd {
	return func() tea.Msg {
		return ConnectedMsg{Gen: gen, Err: s.Connect(context.Background())}
	}
}

// closeSessionCmd closes the session a restart or a switch replaces, or a disconnect ends.
func closeSessionCmd(s *session.Session, reason string) tea.Cmd {
	return func() tea.Msg {
		_ = s.CloseReason(reason)
		return nil
	}
}

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
			if session.NotServed(k, err) {
				items, err = []json.RawMessage{}, nil // declared, not served: none (its row says why)
			}
			msg.Lists[k], msg.Errs[k] = items, err
		}
		if s.HasEvents() { // listed only: nothing is subscribed before the user asks
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			msg.Lists[session.ListEvents], msg.Errs[session.ListEvents] = s.List(ctx, session.ListEvents)
			cancel()
		}
		if s.HasSkills() { // listed only: no skill file is read before the user loads one
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			msg.Lists[session.ListSkills], msg.Errs[session.ListSkills] = s.List(ctx, session.ListSkills)
			cancel()
		}
		return msg
	}
}

func tickCmd() tea.Cmd {
	return tea.Tick(time.Second, func(t time.Time) tea.Msg { return TickMsg(t) })
}
