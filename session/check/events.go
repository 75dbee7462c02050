package check

import (
	"context"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	evspec "github.com/mcpscope/mcpscope/protocol/events"
	"github.com/mcpscope/mcpscope/session"
)

// EventsCheck is what the run did with the Events extension's event types.
type EventsCheck struct {
	Types    []string `json:"types"`
	Polled   []string `json:"polled,omitempty"`
	Streamed []string `json:"streamed,omitempty"`
}

// Bounds of the events step: the types exercised, and how long a push stream is held for
// its confirmation and first occurrence.
const (
	maxEventTypes = 20
	streamHold    = 3 * time.Second
)

// eventsStep exercises the Events extension when the server declares it (revision
// 2026-07-28 and later, which the extension needs): events/list, then for each type one
// poll from now where poll is offered, and a short push stream where push is. Payloads
// are validated against each type's payloadSchema; the findings go on the frames, where
// evidence collects them. Webhook delivery needs a receiver the server can reach and is
// not exercised.
func (r *runner) eventsStep() {
	if !r.s.HasEvents() {
		return
	}
	if !r.rev.Stateless() {
		r.note("events: the server declares the Events extension at %s; the extension is defined from 2026-07-28, so check exercises it only there", r.rev)
		return
	}
	types, err := r.s.EventTypes(r.ctx)
	if err != nil {
		r.note("events: events/list failed: %v", err)
		return
	}
	ec := &EventsCheck{}
	r.run.Events = ec
	for i, t := range types {
		ec.Types = append(ec.Types, t.Name)
		for _, f := range t.Findings {
			r.add(f)
		}
		if i == maxEventTypes {
			r.note("events: only the first %d of %d event types were exercised", maxEventTypes, len(types))
			break
		}
		if t.Name == "" || len(t.Findings) > 0 && t.Delivery == nil {
			continue
		}
		if t.Offers(evspec.ModePoll) {
			if _, _, err := r.s.PollEvents(r.ctx, session.EventSub{Name: t.Name}, 0, evspec.NewTracker(t)); err != nil {
				r.note("events: events/poll %s failed: %v", t.Name, err)
			} else {
				ec.Polled = append(ec.Polled, t.Name)
			}
		}
		if t.Offers(evspec.ModePush) {
			r.stream(t, ec)
		}
		if t.Offers(evspec.ModeWebhook) && !t.Offers(evspec.ModePoll) && !t.Offers(evspec.ModePush) {
			r.note("events: %s is delivered by webhook only, which check does not exercise (mcpscope events webhook %s does)", t.Name, t.Name)
		}
	}
}

// stream holds a push stream of t until its first occurrence, or streamHold.
func (r *runner) stream(t evspec.Type, ec *EventsCheck) {
	ctx, cancel := context.WithTimeout(r.ctx, streamHold)
	defer cancel()
	active, occurrences := false, 0
	_, err := r.s.StreamEvents(ctx, session.EventSub{Name: t.Name}, evspec.NewTracker(t), streamHold, func(it session.StreamItem) {
		switch {
		case it.Note.Kind == evspec.NoteActive:
			active = true
		case it.Note.Occurrence != nil:
			occurrences++
			cancel()
		}
	})
	if err != nil && ctx.Err() == nil {
		r.note("events: events/stream %s: %v", t.Name, err)
		return
	}
	if !active {
		r.add(protocol.NewFinding(protocol.FindEventsStream, "events/stream %s: no notifications/events/active within %s", t.Name, streamHold))
		return
	}
	ec.Streamed = append(ec.Streamed, t.Name)
	if occurrences == 0 {
		r.note("events: %s's push stream delivered no occurrence within %s (confirmed, nothing happened)", t.Name, streamHold)
	}
}
