package explorer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/internal/common"
)

// Subscription messages.
type (
	// SubscribedMsg: a resources/subscribe or resources/unsubscribe request ended, or a
	// subscriptions/listen stream closed (Ended).
	SubscribedMsg struct {
		Gen, ID int
		URI     string
		On      bool // the request subscribed (false: unsubscribed)
		Ended   bool // a listen stream ended
		Err     error
	}
)

func (SubscribedMsg) explorerMsg() {}

// resSub is one resource the explorer is subscribed to.
type resSub struct {
	id     int
	cancel context.CancelFunc // ends a subscriptions/listen stream; nil for resources/subscribe
}

// toggleSubscription subscribes to the selected resource, or unsubscribes. In the
// 2026-07-28 era a subscriptions/listen stream lasts until it is cancelled; before it,
// resources/subscribe and resources/unsubscribe are one request each.
func (x *Explorer) toggleSubscription() tea.Cmd {
	it := x.selected()
	switch {
	case it == nil || it.kind != session.ListResources:
		return statusCmd("select a resource on the resources tab to subscribe to it", true)
	case x.sess == nil:
		return statusCmd("no live session: nothing can be sent", true)
	}
	s, gen, uri := x.sess, x.gen, it.uri
	if sub, ok := x.subs[uri]; ok {
		delete(x.subs, uri)
		delete(x.updated, uri)
		if sub.cancel != nil {
			sub.cancel()
			return statusCmd("unsubscribed from "+uri, false)
		}
		return func() tea.Msg {
			err := s.UnsubscribeResource(context.Background(), uri)
			return SubscribedMsg{Gen: gen, ID: sub.id, URI: uri, Err: err}
		}
	}
	x.subSeq++
	sub := &resSub{id: x.subSeq}
	x.subs[uri] = sub
	if s.Info().Stateless {
		ctx, cancel := context.WithCancel(context.Background())
		sub.cancel = cancel
		id := sub.id
		listen := func() tea.Msg {
			_, err := s.Listen(ctx, session.SubscriptionFilter{ResourceSubscriptions: []string{uri}})
			if errors.Is(err, context.Canceled) {
				err = nil
			}
			return SubscribedMsg{Gen: gen, ID: id, URI: uri, On: true, Ended: true, Err: err}
		}
		return tea.Batch(listen, statusCmd("listening for updates of "+uri+" (subscriptions/listen)", false))
	}
	id := sub.id
	return func() tea.Msg {
		err := s.SubscribeResource(context.Background(), uri)
		return SubscribedMsg{Gen: gen, ID: id, URI: uri, On: true, Err: err}
	}
}

// subscribed takes in the outcome of a subscription request.
func (x *Explorer) subscribed(msg SubscribedMsg) tea.Cmd {
	if msg.Gen != x.gen {
		return nil
	}
	sub, current := x.subs[msg.URI]
	current = current && sub.id == msg.ID
	switch {
	case msg.Err != nil && current:
		delete(x.subs, msg.URI)
		return statusCmd(fmt.Sprintf("subscribe to %s: %v", msg.URI, msg.Err), true)
	case msg.Err != nil:
		return statusCmd(fmt.Sprintf("unsubscribe from %s: %v", msg.URI, msg.Err), true)
	case msg.Ended && current:
		delete(x.subs, msg.URI)
		return statusCmd("the server ended the subscription to "+msg.URI, true)
	case msg.Ended:
		return nil
	case msg.On && current:
		return statusCmd("subscribed to "+msg.URI, false)
	case !msg.On:
		return statusCmd("unsubscribed from "+msg.URI, false)
	}
	return nil
}

// stopSubscriptions forgets every subscription (the session they belong to is gone) and
// ends the listen streams.
func (x *Explorer) stopSubscriptions() {
	for uri, sub := range x.subs {
		if sub.cancel != nil {
			sub.cancel()
		}
		delete(x.subs, uri)
	}
	clear(x.updated)
}

// Observe notes notifications/resources/updated about subscribed resources in a batch of
// events of session gen, so the list can mark them.
func (x *Explorer) Observe(gen int, evs []*session.Event) {
	if gen != x.gen || len(x.subs) == 0 {
		return
	}
	for _, ev := range evs {
		if ev.Kind != session.EvFrame || ev.Dir != protocol.ServerToClient || ev.Frame == nil ||
			ev.Frame.Kind != protocol.KindNotification || ev.Frame.Method != "notifications/resources/updated" {
			continue
		}
		var p struct {
			URI string `json:"uri"`
		}
		if json.Unmarshal(ev.Frame.Params, &p) == nil {
			if _, ok := x.subs[p.URI]; ok {
				x.updated[p.URI] = true
			}
		}
	}
}

// saveMedia saves every image, audio and blob of the selected run's result to files in
// the working directory.
func (x *Explorer) saveMedia() tea.Cmd {
	r := x.selectedRun()
	if r == nil || r.view == nil || len(r.view.media) == 0 {
		return statusCmd("the result shown holds no image, audio or blob to save", true)
	}
	media := r.view.media
	return func() tea.Msg {
		var paths []string
		for _, m := range media {
			p, err := common.SaveFile(".", m.name, m.data)
			if err != nil {
				return StatusMsg{Text: "save: " + err.Error(), Error: true}
			}
			paths = append(paths, p)
		}
		return StatusMsg{Text: fmt.Sprintf("saved %s", joinPaths(paths))}
	}
}

// joinPaths lists saved files for the status line: "a, b and c", at most three named.
func joinPaths(p []string) string {
	switch {
	case len(p) > 3:
		return fmt.Sprintf("%s and %d more", strings.Join(p[:3], ", "), len(p)-3)
	case len(p) > 1:
		return strings.Join(p[:len(p)-1], ", ") + " and " + p[len(p)-1]
	}
	return strings.Join(p, "")
}

// followLink reads the next resource_link of the selected run's result, as a run of the
// resource it names (on the resources tab when the list has it).
func (x *Explorer) followLink() tea.Cmd {
	r := x.selectedRun()
	if r == nil || r.view == nil || len(r.view.links) == 0 {
		return statusCmd("the result shown has no resource link to follow", true)
	}
	if x.sess == nil {
		return statusCmd("no live session: nothing can be sent", true)
	}
	uri := r.view.links[r.nextLink%len(r.view.links)]
	r.nextLink++
	it := x.resourceItem(uri)
	return tea.Batch(x.send(it, methodResourcesRead, uri, "", map[string]any{"uri": uri}),
		statusCmd("reading "+uri, false))
}

// resourceItem selects the resource with uri on the resources tab; a uri the list does not
// have is read as a run of the item on screen.
func (x *Explorer) resourceItem(uri string) *exItem {
	for i, t := range x.tabs {
		if t.kind != session.ListResources {
			continue
		}
		for j, h := range t.hits {
			if h.it.uri == uri {
				x.cur, t.sel = i, j
				x.clampList(t)
				return h.it
			}
		}
	}
	return x.selected()
}
