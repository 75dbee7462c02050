package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/mcpscope/mcpscope/protocol/events"
	"github.com/mcpscope/mcpscope/session"
)

// Bounds of the events tools' results.
const (
	maxEventTypes       = 200
	maxEventSchemaBytes = 8 << 10
	maxEventDescription = 2 << 10
	defaultEventData    = 4 << 10
	maxEventData        = 64 << 10
	defaultStreamEvents = 10
	maxStreamEvents     = 100
	defaultStreamWait   = 5 * time.Second
	maxStreamWait       = 30 * time.Second
	maxStreamFindings   = 100
)

// EventsListIn is events_list's input.
type EventsListIn struct {
	Session string `json:"session"`
}

// EventTypeOut is one event type of events/list.
type EventTypeOut struct {
	Name           string          `json:"name"`
	Description    string          `json:"description,omitempty" jsonschema:"cut to 2048 bytes"`
	Delivery       []string        `json:"delivery" jsonschema:"the modes it offers: poll (events_poll), push (events_stream), webhook"`
	InputSchema    json.RawMessage `json:"input_schema,omitempty" jsonschema:"the arguments a subscription takes"`
	PayloadSchema  json.RawMessage `json:"payload_schema,omitempty" jsonschema:"what each occurrence's data holds"`
	SchemasOmitted bool            `json:"schemas_omitted,omitempty" jsonschema:"the schemas are larger than 8192 bytes: read the events/list response with frame"`
	Problems       []string        `json:"problems,omitempty" jsonschema:"the extension's rules the entry breaks"`
}

// EventsListOut is events_list's result.
type EventsListOut struct {
	Types     []EventTypeOut `json:"types"`
	More      bool           `json:"more,omitempty" jsonschema:"more than 200 types; the rest are left out"`
	Declared  bool           `json:"declared" jsonschema:"the server declared the extension (events/list is asked either way)"`
	Extension string         `json:"extension"`
	LastSeq   uint64         `json:"last_seq,omitempty" jsonschema:"the timeline holds the events/list requests up to here"`
}

// EventSubIn names a subscription: what events_poll and events_stream share.
type EventSubIn struct {
	Session   string          `json:"session"`
	Name      string          `json:"name" jsonschema:"the event type (events_list names them)"`
	Arguments json.RawMessage `json:"arguments,omitempty" jsonschema:"the subscription's arguments, an object per the type's input_schema"`
	Cursor    string          `json:"cursor,omitempty" jsonschema:"resume after this cursor, the one a previous result returned; none: start from now"`
	MaxAgeMS  int64           `json:"max_age_ms,omitempty" jsonschema:"replay nothing older than this many milliseconds (maxAgeMs)"`
	DataBytes int             `json:"data_bytes,omitempty" jsonschema:"an event's data larger than this many bytes is left out (default 4096, at most 65536); frame gives it"`
}

// EventOut is one occurrence.
type EventOut struct {
	Seq         uint64          `json:"seq" jsonschema:"the event that carried it (the poll's response, or the stream's notification): frame shows its bytes"`
	EventID     string          `json:"event_id"`
	Name        string          `json:"name"`
	Timestamp   string          `json:"timestamp"`
	Data        json.RawMessage `json:"data,omitempty" jsonschema:"the payload, as sent"`
	DataOmitted bool            `json:"data_omitted,omitempty" jsonschema:"data is larger than data_bytes: read it with frame"`
	Cursor      *string         `json:"cursor,omitempty" jsonschema:"push: the position after this event"`
}

// EventsPollIn is events_poll's input.
type EventsPollIn struct {
	EventSubIn
	MaxEvents int `json:"max_events,omitempty" jsonschema:"ask for at most this many events (maxEvents; default and most 100)"`
}

// EventsPollOut is events_poll's result.
type EventsPollOut struct {
	Events     []EventOut `json:"events"`
	Cursor     *string    `json:"cursor" jsonschema:"pass as cursor to the next poll; null: the type keeps no position"`
	Truncated  bool       `json:"truncated" jsonschema:"events between the cursor given and the first returned were lost (retention passed it)"`
	HasMore    bool       `json:"has_more,omitempty" jsonschema:"more events wait: poll again at once"`
	LeftOut    int        `json:"left_out,omitempty" jsonschema:"the server sent more than 100 events: these are left out of events (the response's frame has them) and the cursor is after them"`
	NextPollMS *int64     `json:"next_poll_ms,omitempty" jsonschema:"how long the server asks to wait before the next poll"`
	Exchange   Exchange   `json:"exchange" jsonschema:"the events/poll exchange; its findings include payloads that break payload_schema, duplicate eventIds and cursor faults"`
}

// EventsStreamIn is events_stream's input.
type EventsStreamIn struct {
	EventSubIn
	MaxEvents int `json:"max_events,omitempty" jsonschema:"stop after this many events (default 10, at most 100)"`
	WaitMS    int `json:"wait_ms,omitempty" jsonschema:"stop after this many milliseconds (default 5000, at most 30000)"`
}

// EventsStreamOut is events_stream's result.
type EventsStreamOut struct {
	Events     []EventOut `json:"events"`
	Cursor     *string    `json:"cursor" jsonschema:"pass as cursor to resume after the last event returned; null: the type keeps no position (or none was given and none came)"`
	Truncated  bool       `json:"truncated,omitempty" jsonschema:"notifications/events/active said events before the first were lost"`
	Heartbeats int        `json:"heartbeats,omitempty"`
	Errors     []string   `json:"errors,omitempty" jsonschema:"notifications/events/error and terminated, as sent"`
	Lost       []string   `json:"lost,omitempty" jsonschema:"notifications mcpscope could not keep up with"`
	Ended      string     `json:"ended" jsonschema:"why the read stopped: max_events, wait_ms, terminated (the server ended the subscription), closed (the server answered the request), silent (no heartbeat), or failed"`
	RequestSeq uint64     `json:"request_seq" jsonschema:"the events/stream request; its notifications follow it in the timeline"`
	Error      *RPCError  `json:"error,omitempty" jsonschema:"the JSON-RPC error the server answered"`
	Failure    string     `json:"failure,omitempty" jsonschema:"why the stream failed"`
	Findings   []Finding  `json:"findings" jsonschema:"findings on the request and the notifications (at most 100)"`
}

// eventTypes caches a session's events/list, by name, so that polls and streams check
// payloads against the type's payloadSchema without listing again each time.
type eventTypes struct {
	mu    sync.Mutex
	sess  *session.Session
	types map[string]events.Type
}

func (c *eventTypes) put(s *session.Session, types []events.Type) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sess, c.types = s, map[string]events.Type{}
	for _, t := range types {
		c.types[t.Name] = t
	}
}

// lookup is the type named name, listing once per session when none is cached.
func (c *eventTypes) lookup(ctx context.Context, s *session.Session, name string) events.Type {
	c.mu.Lock()
	t, ok := c.types[name]
	fresh := c.sess == s
	c.mu.Unlock()
	if ok && fresh {
		return t
	}
	if !fresh {
		types, _ := s.EventTypes(ctx) // a failed list is not asked again: payloads go unchecked
		c.put(s, types)
		c.mu.Lock()
		t, ok = c.types[name]
		c.mu.Unlock()
	}
	if !ok {
		t = events.Type{Name: name}
	}
	return t
}

func (s *Server) eventsList(ctx context.Context, in EventsListIn) (EventsListOut, error) {
	l, err := s.reg.get(in.Session)
	if err != nil {
		return EventsListOut{}, err
	}
	if err := s.ensure(ctx, l); err != nil {
		return EventsListOut{}, err
	}
	sess := l.sess()
	out := EventsListOut{Types: []EventTypeOut{}, Declared: sess.HasEvents(), Extension: events.Extension}
	types, err := sess.EventTypes(ctx)
	if err != nil {
		return out, fmt.Errorf("events/list: %w", err)
	}
	l.evTypes.put(sess, types)
	for i, t := range types {
		if i == maxEventTypes {
			out.More = true
			break
		}
		o := EventTypeOut{Name: t.Name, Description: cutUTF8(t.Description, maxEventDescription), Delivery: t.Delivery}
		if o.Delivery == nil {
			o.Delivery = []string{}
		}
		if len(t.InputSchema)+len(t.PayloadSchema) > maxEventSchemaBytes {
			o.SchemasOmitted = true
		} else {
			o.InputSchema, o.PayloadSchema = t.InputSchema, t.PayloadSchema
		}
		for _, f := range t.Findings {
			o.Problems = append(o.Problems, f.Message)
		}
		out.Types = append(out.Types, o)
	}
	l.mu.Lock()
	out.LastSeq = l.pumped
	l.mu.Unlock()
	return out, nil
}

// subscription is the session, subscription and tracker a poll or a stream starts from.
func (s *Server) subscription(ctx context.Context, in EventSubIn) (*live, session.EventSub, *events.Tracker, error) {
	l, err := s.reg.get(in.Session)
	if err != nil {
		return nil, session.EventSub{}, nil, err
	}
	if in.Name == "" {
		return nil, session.EventSub{}, nil, errors.New("name: the event type is needed (events_list names them)")
	}
	if len(in.Arguments) > 0 && !isJSONObject(in.Arguments) {
		return nil, session.EventSub{}, nil, errors.New("arguments must be a JSON object")
	}
	if err := s.ensure(ctx, l); err != nil {
		return nil, session.EventSub{}, nil, err
	}
	sub := session.EventSub{Name: in.Name, Arguments: in.Arguments, MaxAgeMs: in.MaxAgeMS}
	if in.Cursor != "" {
		c := in.Cursor
		sub.Cursor = &c
	}
	return l, sub, events.NewTracker(l.evTypes.lookup(ctx, l.sess(), in.Name)), nil
}

func isJSONObject(raw json.RawMessage) bool {
	var m map[string]json.RawMessage
	return json.Unmarshal(raw, &m) == nil && m != nil
}

// eventOut is an occurrence carried by event seq, its data left out past max bytes.
func eventOut(seq uint64, o *events.Occurrence, max int) EventOut {
	e := EventOut{Seq: seq, EventID: o.EventID, Name: o.Name, Timestamp: o.Timestamp, Cursor: o.Cursor}
	if len(o.Data) > max {
		e.DataOmitted = true
	} else {
		e.Data = o.Data
	}
	return e
}

func (s *Server) eventsPoll(ctx context.Context, in EventsPollIn) (EventsPollOut, error) {
	if in.MaxEvents < 0 || in.MaxEvents > maxStreamEvents {
		return EventsPollOut{}, fmt.Errorf("max_events %d: at most %d", in.MaxEvents, maxStreamEvents)
	}
	l, sub, tr, err := s.subscription(ctx, in.EventSubIn)
	if err != nil {
		return EventsPollOut{}, err
	}
	res, resp, err := l.sess().PollEvents(ctx, sub, clamp(in.MaxEvents, maxStreamEvents, maxStreamEvents), tr)
	a, aerr := l.answer(resp, err, Bounds{})
	if aerr != nil {
		return EventsPollOut{}, aerr
	}
	out := EventsPollOut{Events: []EventOut{}, Cursor: res.Cursor, Truncated: res.Truncated, HasMore: res.HasMore,
		NextPollMS: res.NextPollMs, Exchange: a.Exchange}
	if a.Exchange.Error != nil || a.Exchange.Failure != "" {
		out.Cursor = sub.Cursor // no result: poll again from where this one began
	}
	data := clamp(in.DataBytes, defaultEventData, maxEventData)
	for i := range res.Events {
		if i == maxStreamEvents {
			out.LeftOut = len(res.Events) - i
			break
		}
		out.Events = append(out.Events, eventOut(a.Exchange.ResponseSeq, &res.Events[i], data))
	}
	return out, nil
}

func (s *Server) eventsStream(ctx context.Context, in EventsStreamIn) (EventsStreamOut, error) {
	if in.MaxEvents < 0 || in.MaxEvents > maxStreamEvents || in.WaitMS < 0 || in.WaitMS > int(maxStreamWait/time.Millisecond) {
		return EventsStreamOut{}, fmt.Errorf("max_events is at most %d and wait_ms at most %d", maxStreamEvents, maxStreamWait/time.Millisecond)
	}
	l, sub, tr, err := s.subscription(ctx, in.EventSubIn)
	if err != nil {
		return EventsStreamOut{}, err
	}
	limit := clamp(in.MaxEvents, defaultStreamEvents, maxStreamEvents)
	wait := defaultStreamWait
	if in.WaitMS > 0 {
		wait = time.Duration(in.WaitMS) * time.Millisecond
	}
	data := clamp(in.DataBytes, defaultEventData, maxEventData)
	out := EventsStreamOut{Events: []EventOut{}, Findings: []Finding{}}
	readCtx, stop := context.WithTimeoutCause(ctx, wait, errWaited)
	defer stop()
	stopped, cancel := context.WithCancelCause(readCtx)
	defer cancel(nil)
	var last uint64
	// The cursor moves with what is returned: notifications that arrive after max_events,
	// while the stream closes, are in the timeline but not in the result, so the cursor
	// stays before them and the next read gets them.
	out.Cursor = sub.Cursor
	full := false
	resp, err := l.sess().StreamEvents(stopped, sub, tr, 0, func(it session.StreamItem) {
		if it.Lost != nil {
			if len(out.Lost) < maxStreamFindings {
				out.Lost = append(out.Lost, it.Lost.String())
			}
			return
		}
		last = max(last, it.Event.Seq)
		out.addFindings(findingsOf(it.Event))
		n := it.Note
		if full {
			return
		}
		if n.Cursor != nil {
			out.Cursor = n.Cursor
		}
		switch n.Kind {
		case events.NoteActive:
			out.Truncated = out.Truncated || n.Truncated
		case events.NoteHeartbeat:
			out.Heartbeats++
		case events.NoteEvent:
			if n.Occurrence != nil {
				out.Events = append(out.Events, eventOut(it.Event.Seq, n.Occurrence, data))
			}
			if len(out.Events) >= limit {
				full = true
				cancel(errEnough)
			}
		case events.NoteError, events.NoteTerminated:
			if len(out.Errors) < maxStreamFindings {
				out.Errors = append(out.Errors, cutUTF8(string(it.Event.Frame.Params), data))
			}
			if n.Kind == events.NoteTerminated {
				full = true
				cancel(errTerminated)
			}
		}
	})
	if resp != nil && resp.Request != nil {
		out.RequestSeq = resp.Request.Seq
		out.Findings = append(findingsOf(resp.Request), out.Findings...)
		last = max(last, resp.Request.Seq)
	}
	if resp != nil && resp.Event != nil {
		out.addFindings(findingsOf(resp.Event))
		last = max(last, resp.Event.Seq)
	}
	l.saw(last)
	var rpc *session.RPCError
	switch cause := context.Cause(stopped); {
	case errors.Is(cause, errEnough):
		out.Ended = "max_events"
	case errors.Is(cause, errTerminated):
		out.Ended = "terminated"
	case errors.Is(cause, errWaited):
		out.Ended = "wait_ms"
	case ctx.Err() != nil:
		return out, context.Cause(ctx)
	case errors.As(err, &rpc):
		out.Ended, out.Error = "closed", &RPCError{Code: rpc.Code, Message: rpc.Message, Data: rpc.Data}
	case errors.Is(err, session.ErrStreamSilent):
		out.Ended, out.Failure = "silent", err.Error()
	case err != nil:
		if resp == nil || resp.Request == nil {
			return out, err
		}
		out.Ended, out.Failure = "failed", err.Error()
	default:
		out.Ended = "closed"
	}
	return out, nil
}

// Why a stream's read stopped, when serve stopped it.
var (
	errEnough     = errors.New("max_events arrived")
	errTerminated = errors.New("the server terminated the subscription")
	errWaited     = errors.New("wait_ms passed")
)

// addFindings keeps findings up to maxStreamFindings.
func (o *EventsStreamOut) addFindings(fs []Finding) {
	o.Findings = append(o.Findings, fs[:min(len(fs), max(0, maxStreamFindings-len(o.Findings)))]...)
}
