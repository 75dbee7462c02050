package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
)

// Standard JSON-RPC 2.0 error codes, and the codes MCP revisions define.
const (
	ParseError     int64 = -32700
	InvalidRequest int64 = -32600
	MethodNotFound int64 = -32601
	InvalidParams  int64 = -32602
	InternalError  int64 = -32603

	// ResourceNotFound is resources/read's "resource not found" in 2025-11-25 and earlier;
	// 2026-07-28 uses InvalidParams instead and reserves this code.
	ResourceNotFound int64 = -32002
	// URLElicitationRequired (2025-11-25 only) tells the client a URL mode elicitation must
	// complete before the request can be retried.
	URLElicitationRequired int64 = -32042
	// HeaderMismatch (2026-07-28): HTTP headers disagree with the request body.
	HeaderMismatch int64 = -32020
	// MissingRequiredClientCapability (2026-07-28): the request needs a client capability
	// that was not declared.
	MissingRequiredClientCapability int64 = -32021
	// UnsupportedProtocolVersion (2026-07-28): the requested protocol version is not
	// supported by the server.
	UnsupportedProtocolVersion int64 = -32022
)

// ErrorCodeName returns a short name for a JSON-RPC or MCP error code: "Method not found",
// "Server error" for other codes in the implementation-defined range -32000..-32099, and ""
// for codes neither JSON-RPC nor MCP defines.
func ErrorCodeName(code int64) string {
	switch code {
	case ParseError:
		return "Parse error"
	case InvalidRequest:
		return "Invalid request"
	case MethodNotFound:
		return "Method not found"
	case InvalidParams:
		return "Invalid params"
	case InternalError:
		return "Internal error"
	case ResourceNotFound:
		return "Resource not found"
	case URLElicitationRequired:
		return "URL elicitation required"
	case HeaderMismatch:
		return "Header mismatch"
	case MissingRequiredClientCapability:
		return "Missing required client capability"
	case UnsupportedProtocolVersion:
		return "Unsupported protocol version"
	}
	if code >= -32099 && code <= -32000 {
		return "Server error"
	}
	if code >= -32768 && code <= -32000 {
		return "Reserved"
	}
	return ""
}

// EncodeRequest writes a request: {"jsonrpc":"2.0","id":…,"method":…,"params":…}. params
// may be any value json.Marshal accepts, a json.RawMessage, or nil to leave params out.
// The output is compact and has no trailing newline.
func EncodeRequest(id ID, method string, params any) ([]byte, error) {
	if id.IsZero() {
		return nil, errors.New("encode request: a request needs an id")
	}
	b, err := appendHead(nil, id)
	if err != nil {
		return nil, fmt.Errorf("encode request %s: %w", method, err)
	}
	if b, err = appendMethodParams(append(b, ','), method, params); err != nil {
		return nil, fmt.Errorf("encode request %s: %w", method, err)
	}
	return append(b, '}'), nil
}

// EncodeNotification writes {"jsonrpc":"2.0","method":…,"params":…}; nil params are left out.
func EncodeNotification(method string, params any) ([]byte, error) {
	b := append(make([]byte, 0, 64), `{"jsonrpc":"2.0",`...)
	b, err := appendMethodParams(b, method, params)
	if err != nil {
		return nil, fmt.Errorf("encode notification %s: %w", method, err)
	}
	return append(b, '}'), nil
}

// EncodeResult writes {"jsonrpc":"2.0","id":…,"result":…}. A nil result is written as {},
// the empty result MCP uses for methods like ping.
func EncodeResult(id ID, result any) ([]byte, error) {
	if id.IsZero() {
		return nil, errors.New("encode result: a result needs the id of its request")
	}
	b, err := appendHead(nil, id)
	if err != nil {
		return nil, fmt.Errorf("encode result: %w", err)
	}
	b = append(b, `,"result":`...)
	if isNil(result) {
		b = append(b, "{}"...)
	} else if b, err = appendValue(b, result); err != nil {
		return nil, fmt.Errorf("encode result: %w", err)
	}
	return append(b, '}'), nil
}

// EncodeError writes {"jsonrpc":"2.0","id":…,"error":{"code":…,"message":…,"data":…}}. A
// zero id is written as null, as JSON-RPC requires when the request's id could not be read;
// nil data is left out.
func EncodeError(id ID, code int64, message string, data any) ([]byte, error) {
	if id.IsZero() {
		id = ID{Raw: json.RawMessage("null")}
	}
	b, err := appendHead(nil, id)
	if err != nil {
		return nil, fmt.Errorf("encode error: %w", err)
	}
	b = append(b, `,"error":{"code":`...)
	b = strconv.AppendInt(b, code, 10)
	b = append(b, `,"message":`...)
	b = appendString(b, message)
	if !isNil(data) {
		b = append(b, `,"data":`...)
		if b, err = appendValue(b, data); err != nil {
			return nil, fmt.Errorf("encode error data: %w", err)
		}
	}
	return append(b, "}}"...), nil
}

func appendHead(b []byte, id ID) ([]byte, error) {
	raw := bytes.TrimSpace(id.Raw)
	if end, err := skipValue(raw, 0); err != nil || end != len(raw) {
		return nil, fmt.Errorf("id %q is not a JSON value", id.Raw)
	}
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	return append(b, raw...), nil
}

func appendMethodParams(b []byte, method string, params any) ([]byte, error) {
	b = append(b, `"method":`...)
	b = appendString(b, method)
	if isNil(params) {
		return b, nil
	}
	b = append(b, `,"params":`...)
	return appendValue(b, params)
}

// Marshal is json.Marshal without HTML escaping: `&`, `<` and `>` stay as they are, as a
// user typed them, instead of becoming \u0026, \u003c and \u003e. Everything mcpscope
// builds to send goes through it (or through the encoders above), so the bytes on the wire
// are what the user gave. The output is compact.
func Marshal(v any) ([]byte, error) { return appendValue(nil, v) }

// appendValue appends v as compact JSON without HTML escaping.
func appendValue(b []byte, v any) ([]byte, error) {
	if raw, ok := v.(json.RawMessage); ok {
		var buf bytes.Buffer
		if err := json.Compact(&buf, raw); err != nil {
			return nil, err
		}
		return append(b, buf.Bytes()...), nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return append(b, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...), nil
}

func appendString(b []byte, s string) []byte {
	out, _ := appendValue(b, s) // a string always encodes
	return out
}

// isNil reports whether v means "absent": nil, an empty json.RawMessage, or a nil pointer,
// map, slice or interface value.
func isNil(v any) bool {
	if v == nil {
		return true
	}
	if raw, ok := v.(json.RawMessage); ok {
		return len(raw) == 0
	}
	switch rv := reflect.ValueOf(v); rv.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Interface:
		return rv.IsNil()
	}
	return false
}
