package events

import (
	"encoding/json"
	"strings"

	"github.com/mcpscope/mcpscope/protocol"
)

// The notifications of a push stream, by the last segment of their method.
const (
	NoteActive     = "active"
	NoteHeartbeat  = "heartbeat"
	NoteEvent      = "event"
	NoteError      = "error"
	NoteTerminated = "terminated"
	NoteListChange = "list_changed" // not on a push stream: on subscriptions/listen
)

// NotePrefix starts every notification of the extension.
const NotePrefix = "notifications/events/"

// Error is the nested error of notifications/events/error and terminated, and of a
// webhook terminated envelope.
type Error struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// Note is one notifications/events/* message of a push stream.
type Note struct {
	Kind string // NoteActive, NoteHeartbeat, ...: the method's last segment
	// SubscriptionID is _meta["io.modelcontextprotocol/subscriptionId"] as sent (a JSON
	// string or number), or nil when absent.
	SubscriptionID json.RawMessage
	Cursor         *string     // active, heartbeat, event
	Truncated      bool        // active
	Occurrence     *Occurrence // event
	Error          *Error      // error, terminated
	Findings       []protocol.Finding
}

// IsNote reports whether method is one of the extension's notifications.
func IsNote(method string) bool { return strings.HasPrefix(method, NotePrefix) }

// ParseNote reads the params of a notifications/events/* notification.
func ParseNote(method string, params json.RawMessage) Note {
	n := Note{Kind: strings.TrimPrefix(method, NotePrefix)}
	meta := protocol.MetaOf(params)
	n.SubscriptionID = meta[protocol.MetaSubscriptionID]
	bad := func(format string, args ...any) {
		n.Findings = append(n.Findings, protocol.NewFinding(protocol.FindEventsStream, format, args...))
	}
	if n.Kind != NoteListChange && len(n.SubscriptionID) == 0 {
		bad("%s has no _meta[%q] naming its stream", method, protocol.MetaSubscriptionID)
	}
	var loose struct {
		Cursor    json.RawMessage `json:"cursor"`
		Truncated json.RawMessage `json:"truncated"`
		Error     json.RawMessage `json:"error"`
	}
	_ = json.Unmarshal(params, &loose)
	switch n.Kind {
	case NoteActive, NoteHeartbeat:
		n.Cursor = parseCursor(loose.Cursor, bad)
		if n.Kind == NoteActive {
			n.Truncated = parseBool(loose.Truncated, "truncated", bad)
		}
	case NoteEvent:
		o := ParseOccurrence(stripMeta(params))
		n.Occurrence = &o
		n.Cursor = o.Cursor
	case NoteError, NoteTerminated:
		var e Error
		if json.Unmarshal(loose.Error, &e) != nil || e.Message == "" {
			bad("%s has no error {code, message}", method)
		} else {
			n.Error = &e
		}
	case NoteListChange:
	default:
		bad("%s is not a notification the extension defines", method)
	}
	return n
}

// stripMeta removes _meta from an occurrence's params: it is not part of the payload.
func stripMeta(params json.RawMessage) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(params, &m) != nil {
		return params
	}
	if _, ok := m["_meta"]; !ok {
		return params
	}
	delete(m, "_meta")
	b, err := json.Marshal(m)
	if err != nil {
		return params
	}
	return b
}

// Envelope is a webhook body with a type member: a control envelope, not an occurrence.
type Envelope struct {
	Type      string `json:"type"` // gap, terminated, verification
	Cursor    *string
	Challenge string
	Error     *Error
}

// ParseWebhookBody reads a webhook POST body: a control envelope when it has a top-level
// type, an occurrence otherwise.
func ParseWebhookBody(body []byte) (*Envelope, *Occurrence) {
	var loose struct {
		Type      *string         `json:"type"`
		Cursor    json.RawMessage `json:"cursor"`
		Challenge string          `json:"challenge"`
		Error     *Error          `json:"error"`
	}
	if json.Unmarshal(body, &loose) == nil && loose.Type != nil {
		e := &Envelope{Type: *loose.Type, Challenge: loose.Challenge, Error: loose.Error}
		e.Cursor = parseCursor(loose.Cursor, func(string, ...any) {})
		return e, nil
	}
	o := ParseOccurrence(body)
	return nil, &o
}
