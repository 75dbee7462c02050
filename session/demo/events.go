package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The demo's event types (the Events extension, SEP-3415). Their upstream is a clock: the
// k-th occurrence of a type happens period×k after the demo started, and its data is a
// function of k, so a cursor ("tick-41") names a position that can be replayed, and a
// client that reconnects gets exactly what it missed, within the type's retention.
//
//   - clock.tick: every second, poll, push and webhook, replay of the last 600.
//   - weather.changed: every 2 seconds, push and webhook, no replay (cursor null).
//   - alert.raised: on some seconds, poll and push, replay of the last 5 seconds only: a
//     client that polls less often, or resumes from an older cursor, gets truncated: true.
type eventKind struct {
	name, description string
	delivery          []string
	period            time.Duration
	retention         int64  // positions kept for replay; 0: no replay
	prefix            string // of the cursor
	nextPollMs        int64
	input, payload    string // JSON Schemas
	inputSchema       *lazySchema
	// data is occurrence k's payload, or nil when position k has none for args.
	data func(k int64, at time.Time, args map[string]any) map[string]any
}

func (e *eventKind) replays() bool { return e.retention > 0 }

// maxPollEvents caps one poll's batch (maxEvents may ask for fewer).
const maxPollEvents = 50

var eventKinds = []*eventKind{
	{
		name:        "clock.tick",
		description: "A tick of the demo's clock, every second. Replayable: resume from a cursor and get every tick you missed (the last 600 are kept).",
		delivery:    []string{"poll", "push", "webhook"},
		period:      time.Second, retention: 600, prefix: "tick-", nextPollMs: 2000,
		input: `{"type":"object","properties":{"every":{"type":"integer","minimum":1,"maximum":3600,"default":1,
			"description":"Deliver only ticks whose number is a multiple of this"}},"additionalProperties":false}`,
		payload: `{"type":"object","properties":{"n":{"type":"integer","minimum":1},"at":{"type":"string","format":"date-time"}},
			"required":["n","at"]}`,
		data: func(k int64, at time.Time, args map[string]any) map[string]any {
			if every := intArg(args, "every", 1); every > 1 && k%every != 0 {
				return nil
			}
			return map[string]any{"n": k, "at": at.UTC().Format(time.RFC3339)}
		},
	},
	{
		name:        "weather.changed",
		description: "The weather in a city changed (every 2 seconds). Emit-only: no replay, so the cursor is always null and what happens while you are away is lost.",
		delivery:    []string{"push", "webhook"},
		period:      2 * time.Second, prefix: "w-",
		input: `{"type":"object","properties":{"city":{"type":"string","enum":["Paris","Lagos","Lima"],"default":"Paris"}},
			"additionalProperties":false}`,
		payload: `{"type":"object","properties":{"city":{"type":"string"},"tempC":{"type":"number"},
			"sky":{"type":"string","enum":["clear","cloudy","rain"]}},"required":["city","tempC","sky"]}`,
		data: func(k int64, _ time.Time, args map[string]any) map[string]any {
			city, _ := args["city"].(string)
			if city == "" {
				city = "Paris"
			}
			sky := []string{"clear", "cloudy", "rain"}[k%3]
			return map[string]any{"city": city, "tempC": 12 + float64(k%9) + 0.5, "sky": sky}
		},
	},
	{
		name:        "alert.raised",
		description: "An alert, on irregular seconds. Only the last 5 seconds are kept: poll every 4 s and nothing is lost; fall further behind and the result says truncated: true.",
		delivery:    []string{"poll", "push"},
		period:      time.Second, retention: 5, prefix: "alert-", nextPollMs: 4000,
		input: `{"type":"object","properties":{"minSeverity":{"type":"string","enum":["low","high"],"default":"low"}},
			"additionalProperties":false}`,
		payload: `{"type":"object","properties":{"id":{"type":"string"},"severity":{"type":"string","enum":["low","high"]},
			"message":{"type":"string"}},"required":["id","severity","message"]}`,
		data: func(k int64, _ time.Time, args map[string]any) map[string]any {
			if (k*7919)%5 >= 3 { // two seconds in five have no alert
				return nil
			}
			sev := "low"
			if k%4 == 0 {
				sev = "high"
			}
			if min, _ := args["minSeverity"].(string); min == "high" && sev != "high" {
				return nil
			}
			return map[string]any{"id": "A" + strconv.FormatInt(k, 10), "severity": sev,
				"message": fmt.Sprintf("queue depth over threshold (%d)", 100+k%50)}
		},
	},
}

func intArg(args map[string]any, name string, def int64) int64 {
	if f, ok := args[name].(float64); ok && f >= 1 {
		return int64(f)
	}
	return def
}

func eventKindNamed(name string) *eventKind {
	for _, e := range eventKinds {
		if e.name == name {
			return e
		}
	}
	return nil
}

func init() {
	for _, e := range eventKinds {
		e.inputSchema = newLazySchema("demo:events/"+e.name, e.input)
	}
}

// eventLog is the clock the event types follow, shared by every session of one demo.
type eventLog struct {
	start time.Time
	hooks *hookRegistry // webhook subscriptions (events_webhook.go)
}

func newEventLog() *eventLog { return &eventLog{start: time.Now(), hooks: newHookRegistry()} }

// head is the last position of e that has happened by now.
func (l *eventLog) head(e *eventKind, now time.Time) int64 {
	return int64(now.Sub(l.start) / e.period)
}

// at is when position k of e happens.
func (l *eventLog) at(e *eventKind, k int64) time.Time {
	return l.start.Add(time.Duration(k) * e.period)
}

// occurrence is position k of e for args, with the cursor after it; nil when k has none.
func (l *eventLog) occurrence(e *eventKind, k int64, args map[string]any) map[string]any {
	at := l.at(e, k)
	data := e.data(k, at, args)
	if data == nil {
		return nil
	}
	return map[string]any{"eventId": e.name + "/" + strconv.FormatInt(k, 10), "name": e.name,
		"timestamp": at.UTC().Format(time.RFC3339), "data": data, "cursor": l.cursor(e, k)}
}

// cursor names position k of e; nil (JSON null) for a type without replay.
func (l *eventLog) cursor(e *eventKind, k int64) any {
	if !e.replays() {
		return nil
	}
	return e.prefix + strconv.FormatInt(k, 10)
}

// startAfter is where delivery resumes for a cursor: the first position to deliver, and
// whether positions were skipped (retention, maxAgeMs). A null cursor starts from now.
func (l *eventLog) startAfter(e *eventKind, cursor *string, maxAgeMs int64, now time.Time) (int64, bool, error) {
	head := l.head(e, now)
	if cursor == nil || !e.replays() {
		return head + 1, false, nil
	}
	k, err := strconv.ParseInt(strings.TrimPrefix(*cursor, e.prefix), 10, 64)
	if err != nil || !strings.HasPrefix(*cursor, e.prefix) || k < 0 || k > head {
		return 0, false, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("cursor %q is not one this server gave for %s", *cursor, e.name)}
	}
	from, truncated := k+1, false
	if oldest := head - e.retention + 1; from < oldest {
		from, truncated = oldest, true
	}
	if maxAgeMs > 0 {
		if floor := l.head(e, now.Add(-time.Duration(maxAgeMs)*time.Millisecond)) + 1; floor > from {
			from, truncated = floor, true
		}
	}
	return from, truncated, nil
}

// The extension's error codes (its Error Handling section).
const (
	codeNotFound    = -32023
	codeForbidden   = -32024
	codeUnsupported = -32026
	codeCallback    = -32027
)

func rpcError(code int64, msg string, data any) error {
	e := &jsonrpc.Error{Code: code, Message: msg}
	if data != nil {
		e.Data, _ = json.Marshal(data)
	}
	return e
}

// subscription is what events/poll, events/stream and events/subscribe name.
type subscription struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
	Cursor    *string         `json:"cursor,omitempty"`
	MaxAgeMs  int64           `json:"maxAgeMs,omitempty"`
}

// resolve checks a subscription against the event types: the type exists, offers mode,
// and the arguments fit its inputSchema.
func resolve(sub subscription, mode string) (*eventKind, map[string]any, error) {
	e := eventKindNamed(sub.Name)
	if e == nil {
		return nil, nil, rpcError(codeNotFound, "NotFound: no event type "+sub.Name, map[string]string{"kind": "event"})
	}
	offered := false
	for _, m := range e.delivery {
		offered = offered || m == mode
	}
	if !offered {
		return nil, nil, rpcError(codeUnsupported, fmt.Sprintf("Unsupported: %s is not delivered by %s", e.name, mode),
			map[string]string{"feature": "deliveryMode", "value": mode})
	}
	args := map[string]any{}
	raw := sub.Arguments
	if len(raw) == 0 || string(raw) == "null" {
		raw = json.RawMessage(`{}`)
	}
	if err := e.inputSchema.validate(raw); err != nil {
		return nil, nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "arguments do not fit " + e.name + "'s inputSchema: " + err.Error()}
	}
	_ = json.Unmarshal(raw, &args)
	return e, args, nil
}

type eventsListParams struct {
	mcp.ParamsBase
	Cursor string `json:"cursor,omitempty"`
}

type eventsListResult struct {
	mcp.ResultBase
	ResultType string           `json:"resultType"`
	Events     []map[string]any `json:"events"`
}

type eventsPollParams struct {
	mcp.ParamsBase
	subscription
	MaxEvents int `json:"maxEvents,omitempty"`
}

type eventsPollResult struct {
	mcp.ResultBase
	ResultType string           `json:"resultType"`
	Events     []map[string]any `json:"events"`
	Cursor     any              `json:"cursor"`
	Truncated  bool             `json:"truncated"`
	HasMore    bool             `json:"hasMore"`
	NextPollMs int64            `json:"nextPollMs"`
}

// addEvents registers the extension's methods and declares it.
func (d *demo) addEvents() {
	_ = mcp.AddReceivingCustomMethod(d.server, "events/list", func(context.Context, *mcp.ServerSession, *eventsListParams) (*eventsListResult, error) {
		res := &eventsListResult{ResultType: "complete"}
		for _, e := range eventKinds {
			res.Events = append(res.Events, map[string]any{"name": e.name, "description": e.description,
				"delivery": e.delivery, "inputSchema": json.RawMessage(e.input), "payloadSchema": json.RawMessage(e.payload)})
		}
		return res, nil
	})
	_ = mcp.AddReceivingCustomMethod(d.server, "events/poll", func(_ context.Context, _ *mcp.ServerSession, p *eventsPollParams) (*eventsPollResult, error) {
		return d.poll(p, time.Now())
	})
	d.addWebhookMethods()
}

// poll answers one events/poll.
func (d *demo) poll(p *eventsPollParams, now time.Time) (*eventsPollResult, error) {
	e, args, err := resolve(p.subscription, "poll")
	if err != nil {
		return nil, err
	}
	from, truncated, err := d.events.startAfter(e, p.Cursor, p.MaxAgeMs, now)
	if err != nil {
		return nil, err
	}
	res := &eventsPollResult{ResultType: "complete", Events: []map[string]any{}, Truncated: truncated, NextPollMs: e.nextPollMs}
	max := p.MaxEvents
	if max <= 0 || max > maxPollEvents {
		max = maxPollEvents
	}
	head := d.events.head(e, now)
	last := head
	if p.Cursor != nil {
		for k := from; k <= head; k++ {
			if len(res.Events) == max {
				last, res.HasMore = k-1, true
				break
			}
			if o := d.events.occurrence(e, k, args); o != nil {
				delete(o, "cursor") // poll carries the cursor at the response level
				res.Events = append(res.Events, o)
			}
		}
	}
	res.Cursor = d.events.cursor(e, last)
	return res, nil
}
