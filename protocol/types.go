package protocol

import "encoding/json"

// Kind classifies a decoded frame.
type Kind uint8

const (
	KindInvalid      Kind = iota // not a JSON-RPC message (non-JSON, wrong shape, ...)
	KindRequest                  // has method and id
	KindNotification             // has method, no id
	KindResult                   // response carrying result
	KindError                    // response carrying error
	KindBatch                    // JSON array of messages
)

// String names the kind for display ("request", "result", …).
func (k Kind) String() string {
	switch k {
	case KindRequest:
		return "request"
	case KindNotification:
		return "notification"
	case KindResult:
		return "result"
	case KindError:
		return "error"
	case KindBatch:
		return "batch"
	}
	return "invalid"
}

// IsResponse reports whether k is a result or an error response.
func (k Kind) IsResponse() bool { return k == KindResult || k == KindError }

// Direction is which way a frame travels.
type Direction uint8

const (
	ClientToServer Direction = iota + 1 // "out" from mcpscope's point of view
	ServerToClient                      // "in"
)

// String is "out" for client→server and "in" for server→client.
func (d Direction) String() string {
	switch d {
	case ClientToServer:
		return "out"
	case ServerToClient:
		return "in"
	}
	return "?"
}

// ID is a JSON-RPC id exactly as written on the wire. The zero value means "absent".
type ID struct {
	Raw json.RawMessage // exact text, e.g. `7`, `"abc"`, `1.5`, `null`
}

// IDKind is the JSON type of an id.
type IDKind uint8

const (
	IDAbsent     IDKind = iota // no id member (notifications)
	IDString                   // a JSON string
	IDInteger                  // a number without fraction or exponent part
	IDFractional               // a number with a fraction or exponent part (1.5, 1.0, 1e3)
	IDNull                     // null: forbidden by MCP except on some error responses
	IDOther                    // object, array, bool: forbidden by JSON-RPC
)

// Severity of a finding.
type Severity uint8

const (
	SevWarning Severity = iota // a spec violation the session survives
	SevError                   // the frame could not be understood
	SevInfo                    // notable but legal
)

// String names the severity ("warning", "error", "info").
func (s Severity) String() string {
	switch s {
	case SevError:
		return "error"
	case SevInfo:
		return "info"
	}
	return "warning"
}

// Finding is one spec violation attached to a frame, as data.
type Finding struct {
	Code     string   `json:"code"`    // stable, e.g. "jsonrpc.version"
	Message  string   `json:"message"` // plain words for a person
	Severity Severity `json:"-"`
}

// ErrorObject is a JSON-RPC error member, leniently decoded.
type ErrorObject struct {
	Code      int64  // valid only if CodeOK
	CodeOK    bool   // code present and an integer
	Message   string // valid only if MessageOK
	MessageOK bool
	Data      json.RawMessage // nil when absent
	Raw       json.RawMessage // the whole error member as written
}

// Frame is one message as it crossed the wire. Raw is the source of truth; every other field
// is a view of it. A Frame is never nil after Decode and Decode never panics. The
// json.RawMessage fields are sub-slices of Raw (capacity clipped), not copies.
type Frame struct {
	Raw      []byte // exact bytes (without the line terminator for stdio)
	Kind     Kind
	ID       ID                         // zero when absent
	Method   string                     // requests and notifications
	Params   json.RawMessage            // nil when absent
	Result   json.RawMessage            // nil when absent
	Error    *ErrorObject               // nil when absent
	JSONRPC  json.RawMessage            // the "jsonrpc" member as written, nil when absent
	Extra    map[string]json.RawMessage // unknown top-level members, kept
	Batch    []*Frame                   // members of a batch, each decoded on its own
	Findings []Finding
}
