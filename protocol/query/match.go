package query

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
)

// Subject is what a query judges: the facts about one message (or one event that is not a
// message) that the fields read. The timeline's rows and the fault engine's messages on
// the wire each answer them from what they know; an answer that costs work (the tool of a
// call, read from its params) is asked for only by the terms that need it.
type Subject interface {
	// Frame is the JSON-RPC frame, or nil for an event that is not one.
	Frame() *protocol.Frame
	// Dir is the frame's direction.
	Dir() protocol.Direction
	// Event is the event's kind as the session names it ("frame", "stderr", "http",
	// "transport", "state", "exit", "gap", "error").
	Event() string
	// Method is the frame's method, or its request's for a response ("" when unknown).
	Method() string
	// Tool is the tool a tools/call request (or its response) calls; "" otherwise.
	Tool() string
	// Texts are the words of an event that is not a frame: its text, note and URL.
	Texts() [3]string
	// Findings reports whether the message carries findings.
	Findings() bool
	// Error reports a JSON-RPC error, a tool error or an error event.
	Error() bool
	// ToolError reports a tools/call result with isError true.
	ToolError() bool
	// Progress reports a request that got progress (or a progress notification).
	Progress() bool
	// Latency is how long the response took (a request: its response's); 0 when unknown.
	Latency() time.Duration
	// Lane is the conversation a frame belongs to: LaneApp for an MCP App's messages with
	// its host, LaneFromApp for a server call made for an app, "" for the server's wire.
	Lane() string
}

// The lanes Subject.Lane names.
const (
	LaneApp     = "app"
	LaneFromApp = "from-app"
	LaneWebhook = "webhook" // the POSTs an Events webhook receiver got
)

// laneMatcher parses lane:LANE: "app" is an MCP App's postMessage conversation with the
// host, "server" the wire to the server (a server call made for an app included),
// "from-app" the server calls made for an app.
func laneMatcher(value string) (Matcher, error) {
	switch strings.ToLower(value) {
	case "app":
		return func(s Subject) bool { return s.Lane() == LaneApp }, nil
	case "server", "wire":
		return func(s Subject) bool { return s.Frame() != nil && s.Lane() != LaneApp }, nil
	case "from-app":
		return func(s Subject) bool { return s.Lane() == LaneFromApp }, nil
	case "webhook":
		return func(s Subject) bool { return s.Lane() == LaneWebhook }, nil
	}
	return nil, fmt.Errorf("lane:%s (%s)", value, wantValues("lane"))
}

// Matcher judges one subject.
type Matcher func(Subject) bool

// MatchWord is the matcher of a free word: the method, the raw frame, and the text of
// the events that are not frames, case-insensitively.
func MatchWord(w string) Matcher {
	lw := []byte(strings.ToLower(w))
	return func(s Subject) bool {
		if f := s.Frame(); f != nil {
			if containsFold([]byte(f.Method), lw) || containsFold([]byte(s.Method()), lw) {
				return true
			}
			return containsFold(f.Raw, lw)
		}
		for _, t := range s.Texts() {
			if containsFold([]byte(t), lw) {
				return true
			}
		}
		return false
	}
}

// containsFold is a case-insensitive (ASCII) substring test; needle is lower case.
func containsFold(hay, needle []byte) bool {
	if len(needle) == 0 {
		return true
	}
	first := needle[0]
	for i := 0; i+len(needle) <= len(hay); i++ {
		c := hay[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != first {
			continue
		}
		if bytes.EqualFold(hay[i:i+len(needle)], needle) {
			return true
		}
	}
	return false
}

// fieldMatcher is the matcher of field:value (field in lower case), parsed by the field's
// entry in Fields: a field the table does not hold is unknown.
func fieldMatcher(field, value string) (Matcher, error) {
	f := LookupField(field)
	if f == nil || f.parse == nil {
		return nil, fmt.Errorf("unknown field %q (%s)", field, strings.Join(FieldNames(), ", "))
	}
	return f.parse(value)
}

// wantValues is the end of a value's error: what the field takes.
func wantValues(field string) string {
	f := LookupField(field)
	names := make([]string, len(f.Values))
	for i, v := range f.Values {
		names[i] = v.Name
	}
	if len(names) > 1 {
		names[len(names)-1] = "or " + names[len(names)-1]
	}
	sep := ", "
	if len(names) == 2 {
		sep = " "
	}
	return "want " + strings.Join(names, sep)
}

func methodMatcher(value string) (Matcher, error) {
	// A substring while typing; method:=tools/list is exactly that method; method:events/*
	// is every method that starts events/.
	lv := strings.ToLower(value)
	exact := strings.HasPrefix(lv, "=")
	lv = strings.TrimPrefix(lv, "=")
	prefix, glob := strings.CutSuffix(lv, "*")
	return func(s Subject) bool {
		if s.Frame() == nil {
			return false
		}
		m := s.Method()
		switch {
		case glob:
			return strings.HasPrefix(strings.ToLower(m), prefix)
		case exact:
			return strings.ToLower(m) == lv
		}
		return strings.Contains(strings.ToLower(m), lv)
	}, nil
}

// DirOf is the direction dir: names (in, out and their synonyms).
func DirOf(value string) (protocol.Direction, bool) {
	switch strings.ToLower(value) {
	case "in", "<", "s2c", "server":
		return protocol.ServerToClient, true
	case "out", ">", "c2s", "client":
		return protocol.ClientToServer, true
	}
	return 0, false
}

func dirMatcher(value string) (Matcher, error) {
	want, ok := DirOf(value)
	if !ok {
		return nil, fmt.Errorf("dir:%s (%s)", value, wantValues("dir"))
	}
	return func(s Subject) bool { return s.Frame() != nil && s.Dir() == want }, nil
}

func hasMatcher(value string) (Matcher, error) {
	switch strings.ToLower(value) {
	case "finding", "findings":
		return Subject.Findings, nil
	case "error", "errors":
		return Subject.Error, nil
	case "tool-error", "tool-errors":
		return Subject.ToolError, nil
	case "progress":
		return Subject.Progress, nil
	}
	return nil, fmt.Errorf("has:%s (%s)", value, wantValues("has"))
}

// ToolNamed reports whether a tool's name (lower case) is the one a tool: term names: the
// whole name when exact, else a part of it.
func ToolNamed(name, want string, exact bool) bool {
	if exact {
		return name == want
	}
	return strings.Contains(name, want)
}

func toolMatcher(value string) (Matcher, error) {
	lv := strings.ToLower(value)
	exact := strings.HasPrefix(lv, "=")
	lv = strings.TrimPrefix(lv, "=")
	return func(s Subject) bool {
		if s.Frame() == nil || s.Method() != "tools/call" {
			return false
		}
		return ToolNamed(strings.ToLower(s.Tool()), lv, exact)
	}, nil
}

func idMatcher(value string) (Matcher, error) {
	return func(s Subject) bool {
		f := s.Frame()
		if f == nil {
			return false
		}
		id := strings.Trim(f.ID.String(), `"`)
		return id == value || f.ID.String() == value
	}, nil
}

func slowMatcher(value string) (Matcher, error) {
	test, err := SlowTest(value)
	if err != nil {
		return nil, err
	}
	return func(s Subject) bool { return test(s.Latency()) }, nil
}

func kindMatcher(value string) (Matcher, error) {
	v := strings.ToLower(value)
	frame := func(k ...protocol.Kind) Matcher {
		return func(s Subject) bool {
			f := s.Frame()
			if f == nil {
				return false
			}
			for _, x := range k {
				if f.Kind == x {
					return true
				}
			}
			return false
		}
	}
	event := func(k string) Matcher {
		return func(s Subject) bool { return s.Event() == k }
	}
	switch v {
	case "request", "req":
		return frame(protocol.KindRequest), nil
	case "notification", "note", "notif":
		return frame(protocol.KindNotification), nil
	case "response", "res":
		return frame(protocol.KindResult, protocol.KindError), nil
	case "result":
		return frame(protocol.KindResult), nil
	case "error", "err":
		return Subject.Error, nil
	case "batch":
		return frame(protocol.KindBatch), nil
	case "invalid", "bad":
		return frame(protocol.KindInvalid), nil
	case "stderr", "http", "state", "exit", "frame", "gap":
		return event(v), nil
	case "transport", "net":
		return event(EventTransport), nil
	}
	return nil, fmt.Errorf("kind:%s (%s)", value, wantValues("kind"))
}

// EventTransport is the session's name of a transport event (kind:transport).
const EventTransport = "transport"

// SlowTest is slow:'s test of a latency (responses, and requests whose response arrived,
// are matched by theirs): >DUR or <DUR (>= and <= are read as > and <); a bare duration
// means >, a bare number is milliseconds. An unknown latency (0) never passes.
func SlowTest(v string) (func(time.Duration) bool, error) {
	asked, less := v, false
	switch {
	case strings.HasPrefix(v, ">="), strings.HasPrefix(v, "<="):
		less, v = v[0] == '<', v[2:]
	case strings.HasPrefix(v, ">"), strings.HasPrefix(v, "<"):
		less, v = v[0] == '<', v[1:]
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		ms, err2 := strconv.ParseFloat(v, 64)
		if err2 != nil {
			return nil, fmt.Errorf("slow:%s (want e.g. slow:>500ms)", asked)
		}
		d = time.Duration(ms * float64(time.Millisecond))
	}
	return func(lat time.Duration) bool {
		if lat == 0 {
			return false
		}
		if less {
			return lat < d
		}
		return lat > d
	}, nil
}
