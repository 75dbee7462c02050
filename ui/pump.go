package ui

import (
	"context"
	"encoding/json"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/session"
)

// pumpInterval is the least time between two batches of events: traffic is coalesced into
// at most ~40 batches a second however fast it arrives.
const pumpInterval = 25 * time.Millisecond

// maxBatch bounds one batch, so a flood is taken in slices and keys still get through.
const maxBatch = 20_000

// EventsMsg carries a batch of session events to the model, with the state snapshots the
// events call for (taken in the pump, off the UI loop).
type EventsMsg struct {
	Gen    int
	Events []*session.Event
	Info   *session.ServerInfo                    // set when a state event arrived
	Lists  map[session.ListKind][]json.RawMessage // set when a list was refreshed
	Closed bool                                   // the session's stream ended
	// Requests counts the server→client requests: a flood of them shows in the status bar.
	Requests session.ServerRequestStats
	// URLNeeded are the batch's -32042 answers (URL elicitation required) and ElicitDone
	// the ids of its notifications/elicitation/complete, read here, off the UI loop.
	URLNeeded  []urlNeeded
	ElicitDone []string
	Sub        *session.Subscription
	Sess       *session.Session
}

// PumpCmd waits for the next batch of events of one session. The model issues it again
// after each batch (one outstanding command per session), which is the whole pump: no
// goroutine to own, nothing polled.
func PumpCmd(gen int, s *session.Session, sub *session.Subscription, last time.Time) tea.Cmd {
	return func() tea.Msg {
		if wait := pumpInterval - time.Since(last); wait > 0 {
			time.Sleep(wait)
		}
		evs, ok := sub.Next(context.Background(), maxBatch)
		msg := EventsMsg{Gen: gen, Events: evs, Closed: !ok, Sub: sub, Sess: s, Requests: s.ServerRequests()}
		for _, e := range evs {
			switch e.Kind {
			case session.EvState:
				info := s.Info()
				msg.Info = &info
			case session.EvLists:
				if msg.Lists == nil {
					msg.Lists = map[session.ListKind][]json.RawMessage{}
				}
				kind := session.ListKind(e.Note)
				msg.Lists[kind], _ = s.Cached(kind)
			}
		}
		msg.URLNeeded, msg.ElicitDone = urlElicitEvents(evs)
		return msg
	}
}
