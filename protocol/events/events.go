package events

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
)

// Extension is the extension's identifier under capabilities.extensions.
const Extension = protocol.EventsExtension

// The delivery modes an event type may offer.
const (
	ModePoll    = "poll"
	ModePush    = "push"
	ModeWebhook = "webhook"
)

// Modes are the delivery modes in the extension's order.
var Modes = []string{ModePoll, ModePush, ModeWebhook}

// Type is one event type of events/list.
type Type struct {
	Name          string          `json:"name"`
	Description   string          `json:"description,omitempty"`
	Delivery      []string        `json:"delivery"`
	InputSchema   json.RawMessage `json:"inputSchema,omitempty"`
	PayloadSchema json.RawMessage `json:"payloadSchema,omitempty"`
	// Raw is the entry as the server sent it.
	Raw json.RawMessage `json:"-"`
	// Findings say what in the entry breaks the extension's rules.
	Findings []protocol.Finding `json:"-"`
}

// Offers reports whether the type lists mode in its delivery.
func (t Type) Offers(mode string) bool {
	for _, m := range t.Delivery {
		if m == mode {
			return true
		}
	}
	return false
}

// ParseType reads one entry of events/list's events.
func ParseType(raw json.RawMessage) Type {
	var t Type
	t.Raw = raw
	if !isObject(raw) {
		t.Findings = append(t.Findings, protocol.NewFinding(protocol.FindEventsType, "an events/list entry is not an object"))
		return t
	}
	var loose struct {
		Name          json.RawMessage `json:"name"`
		Description   json.RawMessage `json:"description"`
		Delivery      json.RawMessage `json:"delivery"`
		InputSchema   json.RawMessage `json:"inputSchema"`
		PayloadSchema json.RawMessage `json:"payloadSchema"`
	}
	_ = json.Unmarshal(raw, &loose)
	bad := func(format string, args ...any) {
		t.Findings = append(t.Findings, protocol.NewFinding(protocol.FindEventsType, format, args...))
	}
	if json.Unmarshal(loose.Name, &t.Name) != nil || t.Name == "" {
		bad("an event type has no name (a non-empty string)")
	}
	_ = json.Unmarshal(loose.Description, &t.Description)
	label := t.Name
	if label == "" {
		label = "(unnamed)"
	}
	if json.Unmarshal(loose.Delivery, &t.Delivery) != nil || len(t.Delivery) == 0 {
		t.Delivery = nil
		bad("event type %s: delivery is not a non-empty array of poll, push and webhook", label)
	}
	for _, m := range t.Delivery {
		if m != ModePoll && m != ModePush && m != ModeWebhook {
			bad("event type %s: delivery names %q, which is not poll, push or webhook", label, m)
		}
	}
	if isObject(loose.InputSchema) {
		t.InputSchema = loose.InputSchema
	} else {
		bad("event type %s: inputSchema is missing or not an object", label)
	}
	if isObject(loose.PayloadSchema) {
		t.PayloadSchema = loose.PayloadSchema
	} else {
		bad("event type %s: payloadSchema is missing or not an object", label)
	}
	return t
}

// Occurrence is one delivered event.
type Occurrence struct {
	EventID   string          `json:"eventId"`
	Name      string          `json:"name"`
	Timestamp string          `json:"timestamp"`
	Data      json.RawMessage `json:"data"`
	// Cursor is the position after this event (push and webhook); nil when absent or null.
	Cursor *string `json:"cursor,omitempty"`
	// Raw is the occurrence as sent.
	Raw json.RawMessage `json:"-"`
	// Findings say what in it breaks the extension's rules (shape only; the Tracker adds
	// payload, duplicate and cursor findings).
	Findings []protocol.Finding `json:"-"`
}

// ParseOccurrence reads an occurrence.
func ParseOccurrence(raw json.RawMessage) Occurrence {
	o := Occurrence{Raw: raw}
	bad := func(format string, args ...any) {
		o.Findings = append(o.Findings, protocol.NewFinding(protocol.FindEventsShape, format, args...))
	}
	if !isObject(raw) {
		bad("an event occurrence is not an object")
		return o
	}
	var loose struct {
		EventID   json.RawMessage `json:"eventId"`
		Name      json.RawMessage `json:"name"`
		Timestamp json.RawMessage `json:"timestamp"`
		Data      json.RawMessage `json:"data"`
		Cursor    json.RawMessage `json:"cursor"`
	}
	_ = json.Unmarshal(raw, &loose)
	if json.Unmarshal(loose.EventID, &o.EventID) != nil || o.EventID == "" {
		bad("an occurrence has no eventId (a non-empty string)")
	}
	if json.Unmarshal(loose.Name, &o.Name) != nil || o.Name == "" {
		bad("occurrence %s has no name", o.EventID)
	}
	if json.Unmarshal(loose.Timestamp, &o.Timestamp) != nil || !isTimestamp(o.Timestamp) {
		bad("occurrence %s: timestamp %s is not an ISO 8601 date-time", o.EventID, clip(loose.Timestamp))
	}
	if isObject(loose.Data) {
		o.Data = loose.Data
	} else {
		bad("occurrence %s: data is missing or not an object", o.EventID)
	}
	o.Cursor = parseCursor(loose.Cursor, func(format string, args ...any) {
		bad("occurrence %s: "+format, append([]any{o.EventID}, args...)...)
	})
	return o
}

// PollResult is the result of events/poll.
type PollResult struct {
	Events     []Occurrence `json:"events"`
	Cursor     *string      `json:"cursor"`
	Truncated  bool         `json:"truncated"`
	HasMore    bool         `json:"hasMore"`
	NextPollMs *int64       `json:"nextPollMs,omitempty"`
	Findings   []protocol.Finding
}

// ParsePoll reads an events/poll result.
func ParsePoll(raw json.RawMessage) PollResult {
	var r PollResult
	var loose struct {
		Events     []json.RawMessage `json:"events"`
		Cursor     json.RawMessage   `json:"cursor"`
		Truncated  json.RawMessage   `json:"truncated"`
		HasMore    json.RawMessage   `json:"hasMore"`
		NextPollMs json.RawMessage   `json:"nextPollMs"`
	}
	bad := func(format string, args ...any) {
		r.Findings = append(r.Findings, protocol.NewFinding(protocol.FindEventsShape, format, args...))
	}
	if err := json.Unmarshal(raw, &loose); err != nil {
		bad("the events/poll result is not an object with an events array: %v", err)
		return r
	}
	if loose.Events == nil {
		bad("the events/poll result has no events array")
	}
	for _, e := range loose.Events {
		r.Events = append(r.Events, ParseOccurrence(e))
	}
	r.Cursor = parseCursor(loose.Cursor, bad)
	r.Truncated = parseBool(loose.Truncated, "truncated", bad)
	r.HasMore = parseBool(loose.HasMore, "hasMore", bad)
	if len(loose.NextPollMs) > 0 && string(loose.NextPollMs) != "null" {
		var n int64
		if json.Unmarshal(loose.NextPollMs, &n) != nil || n < 0 {
			bad("nextPollMs %s is not a non-negative integer", clip(loose.NextPollMs))
		} else {
			r.NextPollMs = &n
		}
	}
	return r
}

// SubscribeResult is the result of events/subscribe.
type SubscribeResult struct {
	ID            string          `json:"id"`
	RefreshBefore *time.Time      `json:"refreshBefore"` // nil: no expiry
	Cursor        *string         `json:"cursor"`
	Truncated     bool            `json:"truncated"`
	Status        json.RawMessage `json:"deliveryStatus,omitempty"`
	Findings      []protocol.Finding
}

// ParseSubscribe reads an events/subscribe result; noExpiryAsked says the request had
// ttlMs: null, the only case a null refreshBefore is allowed.
func ParseSubscribe(raw json.RawMessage, noExpiryAsked bool) SubscribeResult {
	var r SubscribeResult
	var loose struct {
		ID            json.RawMessage `json:"id"`
		RefreshBefore json.RawMessage `json:"refreshBefore"`
		Cursor        json.RawMessage `json:"cursor"`
		Truncated     json.RawMessage `json:"truncated"`
		Status        json.RawMessage `json:"deliveryStatus"`
	}
	bad := func(format string, args ...any) {
		r.Findings = append(r.Findings, protocol.NewFinding(protocol.FindEventsSubscribe, format, args...))
	}
	if err := json.Unmarshal(raw, &loose); err != nil {
		bad("the events/subscribe result is not an object: %v", err)
		return r
	}
	if json.Unmarshal(loose.ID, &r.ID) != nil || r.ID == "" {
		bad("the events/subscribe result has no subscription id")
	}
	switch rb := loose.RefreshBefore; {
	case len(rb) == 0:
		bad("the events/subscribe result has no refreshBefore (it is always present; null means no expiry)")
	case string(rb) == "null":
		if !noExpiryAsked {
			bad("refreshBefore is null (no expiry), which a server may grant only to ttlMs: null")
		}
	default:
		var s string
		var t time.Time
		err := json.Unmarshal(rb, &s)
		if err == nil {
			t, err = time.Parse(time.RFC3339Nano, s)
		}
		if err != nil {
			bad("refreshBefore %s is not an ISO 8601 date-time", clip(rb))
		} else {
			r.RefreshBefore = &t
		}
	}
	r.Cursor = parseCursor(loose.Cursor, bad)
	r.Truncated = parseBool(loose.Truncated, "truncated", bad)
	switch {
	case isObject(loose.Status):
		r.Status = loose.Status
		checkDeliveryStatus(loose.Status, bad)
	case len(loose.Status) > 0 && string(loose.Status) != "null":
		bad("deliveryStatus %s is not an object", clip(loose.Status))
	}
	return r
}

// LastErrors are the categories deliveryStatus.lastError (and CallbackEndpointError's
// data.reason) may name: fixed strings, never an endpoint's own answer.
var LastErrors = []string{"connection_refused", "timeout", "tls_error", "http_4xx", "http_5xx", "challenge_failed"}

// checkDeliveryStatus checks the members the extension defines on deliveryStatus.
func checkDeliveryStatus(raw json.RawMessage, bad func(string, ...any)) {
	var st struct {
		Active       json.RawMessage `json:"active"`
		LastError    json.RawMessage `json:"lastError"`
		Throttled    json.RawMessage `json:"throttled"`
		RetryAfterMs json.RawMessage `json:"retryAfterMs"`
	}
	_ = json.Unmarshal(raw, &st)
	parseBool(st.Active, "deliveryStatus.active", bad)
	parseBool(st.Throttled, "deliveryStatus.throttled", bad)
	if e := st.LastError; len(e) > 0 && string(e) != "null" {
		var s string
		_ = json.Unmarshal(e, &s)
		known := false
		for _, c := range LastErrors {
			known = known || s == c
		}
		if !known {
			bad("deliveryStatus.lastError %s is not one of the categories %s: it must not carry the endpoint's own answer",
				clip(e), strings.Join(LastErrors, ", "))
		}
	}
	if n := st.RetryAfterMs; len(n) > 0 {
		var ms int64
		if json.Unmarshal(n, &ms) != nil || ms < 0 {
			bad("deliveryStatus.retryAfterMs %s is not a non-negative integer", clip(n))
		}
	}
}

// parseCursor reads a cursor: absent and null are the same (nil); a string is kept.
func parseCursor(raw json.RawMessage, bad func(string, ...any)) *string {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		bad("cursor %s is not a string or null", clip(raw))
		return nil
	}
	return &s
}

func parseBool(raw json.RawMessage, name string, bad func(string, ...any)) bool {
	if len(raw) == 0 {
		return false
	}
	var b bool
	if json.Unmarshal(raw, &b) != nil {
		bad("%s %s is not a boolean", name, clip(raw))
	}
	return b
}

func isObject(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '{' && json.Valid(raw)
}

// isTimestamp accepts RFC 3339 date-times (the ISO 8601 profile JSON uses).
func isTimestamp(s string) bool {
	_, err := time.Parse(time.RFC3339Nano, s)
	return err == nil
}

// clip shows at most 60 bytes of a value in a message.
func clip(raw json.RawMessage) string {
	s := strings.TrimSpace(string(raw))
	if s == "" {
		return "(absent)"
	}
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

// CursorText shows a cursor: "null" or the string quoted.
func CursorText(c *string) string {
	if c == nil {
		return "null"
	}
	return fmt.Sprintf("%q", *c)
}
