package traffic

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
)

// Query is a parsed timeline filter: free words and field:value terms, all of which must
// match; a term can be negated with a leading '-'. The fields and what they match are the
// table Fields.
type Query struct {
	terms []term
	Err   string // why part of the query was not understood (that part is ignored)
}

type term struct {
	neg   bool
	match func(e *Entry) bool
	pre   prefilterTerm // what a recording's line must hold to match (see filter_prefilter.go)
	rel   *relation     // the term needs the rows around an event (see filter_relate.go)
}

// Empty reports whether the query matches everything.
func (q Query) Empty() bool { return len(q.terms) == 0 }

// Match reports whether e passes the query.
func (q Query) Match(e *Entry) bool {
	if e.Marker != "" {
		return true
	}
	for _, t := range q.terms {
		if t.match(e) == t.neg {
			return false
		}
	}
	return true
}

// ParseQuery parses the filter text.
func ParseQuery(s string) Query {
	var q Query
	var errs []string
	for _, w := range strings.Fields(s) {
		neg := false
		if len(w) > 1 && w[0] == '-' {
			neg, w = true, w[1:]
		}
		field, value, ok := strings.Cut(w, ":")
		if !ok || value == "" {
			q.terms = append(q.terms, term{neg: neg, match: wordMatcher(w), pre: wordPrefilter(w)})
			continue
		}
		field = strings.ToLower(field)
		m, err := fieldMatcher(field, value)
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		field = lookupField(field).Name // the prefilter and the relations know fields by name, not alias
		q.terms = append(q.terms, term{neg: neg, match: m, pre: fieldPrefilter(field, value), rel: relationOf(field, value)})
	}
	q.Err = strings.Join(errs, "; ")
	return q
}

func wordMatcher(w string) func(*Entry) bool {
	lw := []byte(strings.ToLower(w))
	return func(e *Entry) bool {
		ev := e.Ev
		if ev.Frame != nil {
			if containsFold([]byte(ev.Frame.Method), lw) || containsFold([]byte(ev.Corr.Method), lw) {
				return true
			}
			return containsFold(ev.Frame.Raw, lw)
		}
		if containsFold([]byte(ev.Text), lw) || containsFold([]byte(ev.Note), lw) {
			return true
		}
		return ev.HTTP != nil && containsFold([]byte(ev.HTTP.URL), lw)
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
func fieldMatcher(field, value string) (func(*Entry) bool, error) {
	f := lookupField(field)
	if f == nil || f.parse == nil {
		return nil, fmt.Errorf("unknown field %q (%s)", field, strings.Join(fieldNames(), ", "))
	}
	return f.parse(value)
}

// wantValues is the end of a value's error: what the field takes.
func wantValues(field string) string {
	f := lookupField(field)
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

func methodMatcher(value string) (func(*Entry) bool, error) {
	// A substring while typing; method:=tools/list is exactly that method.
	lv := strings.ToLower(value)
	exact := strings.HasPrefix(lv, "=")
	lv = strings.TrimPrefix(lv, "=")
	return func(e *Entry) bool {
		if e.Ev.Frame == nil {
			return false
		}
		m := e.Ev.Frame.Method
		if m == "" {
			m = e.Ev.Corr.Method
		}
		if exact {
			return strings.ToLower(m) == lv
		}
		return strings.Contains(strings.ToLower(m), lv)
	}, nil
}

func dirMatcher(value string) (func(*Entry) bool, error) {
	var want protocol.Direction
	switch strings.ToLower(value) {
	case "in", "<", "s2c", "server":
		want = protocol.ServerToClient
	case "out", ">", "c2s", "client":
		want = protocol.ClientToServer
	default:
		return nil, fmt.Errorf("dir:%s (%s)", value, wantValues("dir"))
	}
	return func(e *Entry) bool { return e.Ev.Frame != nil && e.Ev.Dir == want }, nil
}

func hasMatcher(value string) (func(*Entry) bool, error) {
	switch strings.ToLower(value) {
	case "finding", "findings":
		return func(e *Entry) bool { return e.HasFindings() }, nil
	case "error", "errors":
		return func(e *Entry) bool { return e.IsError() }, nil
	case "tool-error", "tool-errors":
		return func(e *Entry) bool { return e.ToolErr }, nil
	case "progress":
		return func(e *Entry) bool { return e.Progress != nil || (e.Ev.Corr.Progress != nil) }, nil
	}
	return nil, fmt.Errorf("has:%s (%s)", value, wantValues("has"))
}

func toolMatcher(value string) (func(*Entry) bool, error) {
	lv := strings.ToLower(value)
	exact := strings.HasPrefix(lv, "=")
	lv = strings.TrimPrefix(lv, "=")
	return func(e *Entry) bool {
		if e.Ev.Frame == nil || EntryMethod(e) != MethodToolsCall {
			return false
		}
		rf := TargetRequest(e)
		if rf == nil {
			return false
		}
		return toolNamed(strings.ToLower(RequestTarget(MethodToolsCall, rf.Params)), lv, exact)
	}, nil
}

func idMatcher(value string) (func(*Entry) bool, error) {
	return func(e *Entry) bool {
		f := e.Ev.Frame
		if f == nil {
			return false
		}
		id := strings.Trim(f.ID.String(), `"`)
		return id == value || f.ID.String() == value
	}, nil
}

func slowMatcher(value string) (func(*Entry) bool, error) {
	test, err := slowTest(value)
	if err != nil {
		return nil, err
	}
	return func(e *Entry) bool { return test(e.Latency()) }, nil
}

func kindMatcher(value string) (func(*Entry) bool, error) {
	v := strings.ToLower(value)
	frame := func(k ...protocol.Kind) func(*Entry) bool {
		return func(e *Entry) bool {
			if e.Ev.Frame == nil {
				return false
			}
			for _, x := range k {
				if e.Ev.Frame.Kind == x {
					return true
				}
			}
			return false
		}
	}
	event := func(k session.EventKind) func(*Entry) bool {
		return func(e *Entry) bool { return e.Ev.Kind == k }
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
		return func(e *Entry) bool { return e.IsError() }, nil
	case "batch":
		return frame(protocol.KindBatch), nil
	case "invalid", "bad":
		return frame(protocol.KindInvalid), nil
	case "stderr":
		return event(session.EvStderr), nil
	case "http":
		return event(session.EvHTTP), nil
	case "transport", "net":
		return event(session.EvTransport), nil
	case "state":
		return event(session.EvState), nil
	case "exit":
		return event(session.EvExit), nil
	case "frame":
		return event(session.EvFrame), nil
	case "gap":
		return event(session.EvGap), nil
	}
	return nil, fmt.Errorf("kind:%s (%s)", value, wantValues("kind"))
}

// slowTest is slow:'s test of a latency (responses, and requests whose response arrived,
// are matched by theirs): >DUR or <DUR (>= and <= are read as > and <); a bare duration
// means >, a bare number is milliseconds. An unknown latency (0) never passes.
func slowTest(v string) (func(time.Duration) bool, error) {
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
