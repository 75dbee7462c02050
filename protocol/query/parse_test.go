package query

import (
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
)

// msg is a Subject made of plain facts, as the wire sees a message.
type msg struct {
	frame   *protocol.Frame
	dir     protocol.Direction
	method  string
	tool    string
	latency time.Duration
}

func (m msg) Frame() *protocol.Frame  { return m.frame }
func (m msg) Dir() protocol.Direction { return m.dir }
func (m msg) Event() string           { return "frame" }
func (m msg) Method() string {
	if m.method != "" {
		return m.method
	}
	return m.frame.Method
}
func (m msg) Tool() string           { return m.tool }
func (m msg) Texts() [3]string       { return [3]string{} }
func (m msg) Findings() bool         { return len(m.frame.Findings) > 0 }
func (m msg) Error() bool            { return m.frame.Kind == protocol.KindError }
func (m msg) ToolError() bool        { return false }
func (m msg) Progress() bool         { return false }
func (m msg) Latency() time.Duration { return m.latency }
func (m msg) Lane() string           { return "" }

func frameOf(t *testing.T, raw string) *protocol.Frame {
	t.Helper()
	return protocol.Decode([]byte(raw))
}

// TestParse: the terms, their fields (an alias read as its name), values and positions;
// a term not understood is left out and reported where it starts; Strict refuses it with
// its column.
func TestParse(t *testing.T) {
	cases := []struct {
		in     string
		fields string // field of each term, "_" for a word
		pos    []int
		errPos []int
		strict string // Strict's error, "" when none
	}{
		{"", "", nil, nil, ""},
		{"zebra", "_", []int{0}, nil, ""},
		{"m:=tools/list  -dir:in", "method dir", []int{0, 15}, nil, ""},
		{"tool:=search kind:req", "tool kind", []int{0, 13}, nil, ""},
		{"method:x colour:red", "method", []int{0}, []int{9}, `column 10: unknown field "colour"`},
		{"dir:sideways", "", nil, []int{0}, "column 1: dir:sideways (want in or out)"},
		{"  slow:>soon", "", nil, []int{2}, "column 3: slow:>soon"},
		{"has:x kind:y", "", nil, []int{0, 6}, "column 1: has:x"},
		{"-", "_", []int{0}, nil, ""},
		{"id:", "_", []int{0}, nil, ""},
	}
	for _, c := range cases {
		q := Parse(c.in)
		var fields []string
		var pos []int
		for _, tm := range q.Terms {
			f := tm.Field
			if f == "" {
				f = "_"
			}
			fields = append(fields, f)
			pos = append(pos, tm.Pos)
		}
		if got := strings.Join(fields, " "); got != c.fields {
			t.Errorf("%q: fields %q, want %q", c.in, got, c.fields)
		}
		if !equalInts(pos, c.pos) {
			t.Errorf("%q: positions %v, want %v", c.in, pos, c.pos)
		}
		var errPos []int
		for _, e := range q.Errs {
			errPos = append(errPos, e.Pos)
		}
		if !equalInts(errPos, c.errPos) {
			t.Errorf("%q: error positions %v, want %v", c.in, errPos, c.errPos)
		}
		_, err := Strict(c.in)
		switch {
		case c.strict == "" && err != nil:
			t.Errorf("%q: Strict refused it: %v", c.in, err)
		case c.strict != "" && (err == nil || !strings.HasPrefix(err.Error(), c.strict)):
			t.Errorf("%q: Strict says %v, want %q…", c.in, err, c.strict)
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestMatchWire: the same terms judge a message known only by its facts (what the fault
// engine sees on the wire): method, direction, tool, id, kind, latency, negation.
func TestMatchWire(t *testing.T) {
	call := msg{frame: frameOf(t, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"search"}}`),
		dir: protocol.ClientToServer, tool: "search"}
	res := msg{frame: frameOf(t, `{"jsonrpc":"2.0","id":7,"result":{}}`),
		dir: protocol.ServerToClient, method: "tools/call", tool: "search", latency: 2 * time.Second}
	note := msg{frame: frameOf(t, `{"jsonrpc":"2.0","method":"notifications/progress","params":{}}`),
		dir: protocol.ServerToClient}
	all := []msg{call, res, note}
	cases := map[string]string{
		"tool:=search":                    "call res",
		"tool:=sea":                       "",
		"tool:sea dir:out":                "call",
		"method:=tools/call kind:request": "call",
		"method:progress":                 "note",
		"id:7 -kind:response":             "call",
		"slow:>1s":                        "res",
		"kind:notification":               "note",
		"SEARCH":                          "call",
		"":                                "call res note",
	}
	names := []string{"call", "res", "note"}
	for in, want := range cases {
		q, err := Strict(in)
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		var got []string
		for i, m := range all {
			if q.Match(m) {
				got = append(got, names[i])
			}
		}
		if g := strings.Join(got, " "); g != want {
			t.Errorf("%q matches %q, want %q", in, g, want)
		}
	}
}
