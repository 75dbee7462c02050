package session

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/protocol/events"
)

// ListEvents is the Events extension's listing (events/list, member "events"). It is not in
// ListKinds: it exists only when the server declares the extension (see HasEvents).
const ListEvents ListKind = "events"

// HasEvents reports whether the server declared the Events extension
// (capabilities.extensions["io.modelcontextprotocol/events"]).
func (s *Session) HasEvents() bool {
	var caps struct {
		Extensions map[string]json.RawMessage `json:"extensions"`
	}
	_ = json.Unmarshal(s.Info().Capabilities, &caps)
	v, ok := caps.Extensions[events.Extension]
	return ok && string(v) != "null" && string(v) != "false"
}

// EventTypes fetches every page of events/list. Entries that break the extension's rules
// carry their Findings.
func (s *Session) EventTypes(ctx context.Context) ([]events.Type, error) {
	items, err := s.List(ctx, ListEvents)
	out := make([]events.Type, 0, len(items))
	for _, raw := range items {
		out = append(out, events.ParseType(raw))
	}
	return out, err
}

// EventSub names one subscription: the event type, its arguments and where to resume.
type EventSub struct {
	Name      string
	Arguments json.RawMessage // nil: {}
	Cursor    *string         // nil: start from now
	MaxAgeMs  int64           // 0: no floor
}

// params are the members every mode's request shares.
func (sub EventSub) params() map[string]any {
	args := sub.Arguments
	if len(args) == 0 {
		args = json.RawMessage(`{}`)
	}
	p := map[string]any{"name": sub.Name, "arguments": args, "cursor": sub.Cursor}
	if sub.MaxAgeMs > 0 {
		p["maxAgeMs"] = sub.MaxAgeMs
	}
	return p
}

// PollEvents sends one events/poll. tr, when not nil, follows the subscription across polls:
// its findings (payload, duplicate eventId, truncated, cursor) go on the response frame
// with the result's own.
func (s *Session) PollEvents(ctx context.Context, sub EventSub, maxEvents int, tr *events.Tracker) (events.PollResult, *Response, error) {
	p := sub.params()
	if maxEvents > 0 {
		p["maxEvents"] = maxEvents
	}
	var res events.PollResult
	check := func(result json.RawMessage) []protocol.Finding {
		res = events.ParsePoll(result)
		fs := append([]protocol.Finding(nil), res.Findings...)
		for i := range res.Events {
			o := &res.Events[i]
			fs = append(fs, o.Findings...)
			if tr != nil {
				fs = append(fs, tr.Occurrence(o)...)
			}
		}
		if sub.Cursor == nil && len(res.Events) > 0 {
			// A null cursor starts from now: no history is replayed.
			fs = append(fs, protocol.NewFinding(protocol.FindEventsCursor,
				"events/poll with cursor null returned %d events: a null cursor starts from now, and the server returns none", len(res.Events)))
		}
		if tr != nil {
			fs = append(fs, tr.Position(res.Cursor, res.Truncated, "events/poll")...)
		}
		return fs
	}
	resp, err := s.Call(ctx, "events/poll", p, withCheck(check))
	return res, resp, err
}

// StreamItem is one notification of a push stream, as it arrived: its event (whose frame
// carries the findings) and what it says.
type StreamItem struct {
	Event *Event
	Note  events.Note
	// Lost is set instead when the consumer fell behind and events were dropped.
	Lost *Gap
}

// ErrStreamSilent ends a push stream that sent neither an event nor a heartbeat for the
// silence allowed: the extension says to treat it as dead and reconnect with the cursor.
var ErrStreamSilent = errors.New("the push stream sent nothing (no event, no heartbeat) for too long; treated as dead")

// DefaultStreamSilence is twice the longest heartbeat interval the extension recommends.
const DefaultStreamSilence = 60 * time.Second

// StreamEvents opens an events/stream request and hands each of its notifications to on,
// in order, until ctx ends (the stream is cancelled: the POST aborted over HTTP,
// notifications/cancelled on stdio), the server ends it, or it is silent longer than
// silence (≤ 0: DefaultStreamSilence). The notifications are paired to the request
// (Corr.RequestSeq) and carry their findings, tr's included.
func (s *Session) StreamEvents(ctx context.Context, sub EventSub, tr *events.Tracker, silence time.Duration, on func(StreamItem)) (*Response, error) {
	if silence <= 0 {
		silence = DefaultStreamSilence
	}
	bus := s.Subscribe(0)
	defer bus.Close()
	var reqSeq atomic.Uint64
	var first sync.Once
	check := func(m *protocol.Frame) []protocol.Finding {
		n := events.ParseNote(m.Method, m.Params)
		fs := n.Findings
		first.Do(func() {
			if n.Kind != events.NoteActive {
				fs = append(fs, protocol.NewFinding(protocol.FindEventsStream,
					"the stream's first notification is %s, not notifications/events/active", m.Method))
			}
		})
		switch {
		case n.Occurrence != nil:
			fs = append(fs, n.Occurrence.Findings...)
			if tr != nil {
				fs = append(fs, tr.Occurrence(n.Occurrence)...)
				fs = append(fs, tr.Position(n.Cursor, false, "occurrence "+n.Occurrence.EventID)...)
			}
		case tr != nil && (n.Kind == events.NoteActive || n.Kind == events.NoteHeartbeat):
			fs = append(fs, tr.Position(n.Cursor, n.Truncated, m.Method)...)
		}
		return fs
	}
	callCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	type result struct {
		resp *Response
		err  error
	}
	done := make(chan result, 1)
	go func() {
		resp, err := s.Call(callCtx, "events/stream", sub.params(), WithTimeout(-1),
			func(o *callOpts) {
				o.onSent = func(ev *Event) { reqSeq.Store(ev.Seq) }
				o.noteCheck = check
			})
		done <- result{resp, err}
	}()
	lastHeard := time.Now()
	timer := time.NewTimer(silence)
	defer timer.Stop()
	evc := make(chan []*Event)
	go func() {
		defer close(evc)
		for {
			evs, ok := bus.Next(callCtx, 64)
			if !ok {
				return
			}
			select {
			case evc <- evs:
			case <-callCtx.Done():
				return
			}
		}
	}()
	for {
		select {
		case r := <-done:
			// Notifications published before the response are already queued: hand them on.
			for _, ev := range drain(bus) {
				deliverNote(ev, reqSeq.Load(), on)
			}
			return r.resp, r.err
		case evs, ok := <-evc:
			if !ok {
				evc = nil
				continue
			}
			for _, ev := range evs {
				if deliverNote(ev, reqSeq.Load(), on) {
					lastHeard = time.Now()
				}
			}
			timer.Reset(max(time.Until(lastHeard.Add(silence)), time.Millisecond))
		case <-timer.C:
			if time.Since(lastHeard) >= silence {
				cancel(ErrStreamSilent)
				r := <-done
				return r.resp, ErrStreamSilent
			}
			timer.Reset(time.Until(lastHeard.Add(silence)))
		}
	}
}

// drain takes what the subscription already holds, without waiting.
func drain(bus *Subscription) []*Event {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	bus.mu.Lock()
	ready := bus.q.Ready()
	bus.mu.Unlock()
	if !ready {
		return nil
	}
	evs, _ := bus.Next(ctx, 0)
	return evs
}

// deliverNote hands ev to on when it is a notification of the stream whose request event
// is reqSeq (or a loss); it reports whether it was one.
func deliverNote(ev *Event, reqSeq uint64, on func(StreamItem)) bool {
	if ev.Kind == EvGap {
		on(StreamItem{Lost: ev.Gap})
		return false
	}
	if ev.Kind != EvFrame || ev.Frame == nil || ev.Dir != protocol.ServerToClient || reqSeq == 0 || ev.Corr.RequestSeq != reqSeq {
		return false
	}
	f := ev.Frame
	if f.Kind != protocol.KindNotification || !events.IsNote(f.Method) {
		return false
	}
	on(StreamItem{Event: ev, Note: events.ParseNote(f.Method, f.Params)})
	return true
}

// eventNoteLocked pairs a notifications/events/* message with the events/stream request its
// _meta names, and adds that stream's findings. s.mu is held.
func (s *Session) eventNoteLocked(m *protocol.Frame, corr *Correlation, top bool) {
	if !events.IsNote(m.Method) {
		return
	}
	id := protocol.MetaOf(m.Params)[protocol.MetaSubscriptionID]
	if len(id) == 0 {
		return
	}
	key := protocol.ID{Raw: id}.Key()
	p := s.pending[key]
	if p == nil || p.method != "events/stream" {
		if f, ok := s.finished.get(key); ok && f.method == "events/stream" {
			// A stream that just ended: notifications in flight when the client aborted or
			// cancelled it still arrive. Paired, not a fault of the server's.
			if top {
				corr.RequestSeq = f.seq
			}
			return
		}
		if m.Method != "notifications/events/list_changed" {
			m.Findings = append(m.Findings, protocol.NewFinding(protocol.FindEventsStream,
				"%s names stream %s, which is not an open events/stream request", m.Method, id))
		}
		return
	}
	if top {
		corr.RequestSeq = p.seq
	}
	if p.noteCheck != nil {
		m.Findings = append(m.Findings, p.noteCheck(m)...)
	}
}
