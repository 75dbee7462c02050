package traffic

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/session"
)

// TestFilterTerms checks every filter field, negation, combination and errors.
func TestFilterTerms(t *testing.T) {
	w := newEvWire()
	h := NewHistory(0)
	call := w.req(dirOut, 7, "tools/call", `{"name":"echo"}`)
	list := w.req(dirOut, 8, "tools/list", `{}`)
	evs := []*session.Event{
		call, list,
		w.res(600*time.Millisecond, call, `{"content":[{"type":"text","text":"Zebra"}]}`),
		w.rpcErr(20*time.Millisecond, list, -32601, "nope"),
		w.progress(call, 1, 2, ""),
		w.frame(time.Millisecond, dirIn, `{"jsonrpc":"1.0","method":"notifications/message","params":{}}`, session.Correlation{}),
		w.stderr("boot Zebra"),
		w.http(200, "http://h/mcp"),
	}
	var entries []*Entry
	for _, ev := range evs {
		e, _ := h.Add(1, ev)
		entries = append(entries, e)
	}
	names := []string{"call", "list", "callres", "listerr", "progress", "badnote", "stderr", "http"}
	cases := []struct {
		q    string
		want string // names of the matching entries
		err  bool
	}{
		{"", "call list callres listerr progress badnote stderr http", false},
		{"method:tools/call", "call callres", false},
		{"m:list", "list listerr", false},
		{"dir:in", "callres listerr progress badnote", false},
		{"dir:out", "call list", false},
		{"kind:request", "call list", false},
		{"kind:response", "callres listerr", false},
		{"kind:error", "listerr", false},
		{"kind:notification", "progress badnote", false},
		{"kind:stderr", "stderr", false},
		{"kind:http", "http", false},
		{"has:finding", "badnote", false},
		{"has:error", "listerr", false},
		{"has:progress", "call progress", false},
		{"id:7", "call callres", false},
		{"slow:>500ms", "call callres", false},
		{"slow:<100", "list listerr", false},
		{"zebra", "callres stderr", false},
		{"-zebra", "call list listerr progress badnote http", false},
		{"method:tools/call kind:response", "callres", false},
		{"dir:in -kind:notification", "callres listerr", false},
		{"kind:bogus method:tools/list", "list listerr", true},
		{"color:red", "call list callres listerr progress badnote stderr http", true},
		{"dir:sideways", "call list callres listerr progress badnote stderr http", true},
		{"slow:>soon", "call list callres listerr progress badnote stderr http", true},
	}
	for _, c := range cases {
		q := ParseQuery(c.q)
		var got []string
		for i, e := range entries {
			if q.Match(e) {
				got = append(got, names[i])
			}
		}
		if g := strings.Join(got, " "); g != c.want {
			t.Errorf("%q matches %q, want %q", c.q, g, c.want)
		}
		if (q.Err != "") != c.err {
			t.Errorf("%q: error %q, want error=%v", c.q, q.Err, c.err)
		}
	}
	if !ParseQuery("kind:request").Match(&Entry{Marker: "restart"}) {
		t.Error("markers are hidden by a filter")
	}
	gap, _ := h.Add(1, session.NewGapEvent(session.Gap{FirstSeq: 3, LastSeq: 4, Events: 2, Bytes: 10}, time.Now()))
	if !ParseQuery("kind:gap").Match(gap) || ParseQuery("kind:gap").Match(entries[0]) || !ParseQuery("dropped").Match(gap) {
		t.Error("kind:gap (and its words) find the gap rows, and only them")
	}
}

// TestFilterToolTerms: tool:NAME keeps a tool's calls and their responses; has:tool-error
// and has:error keep tool errors.
func TestFilterToolTerms(t *testing.T) {
	h := NewHistory(0)
	wi := newEvWire()
	echo := wi.req(dirOut, 1, "tools/call", `{"name":"echo","arguments":{}}`)
	add := wi.req(dirOut, 2, "tools/call", `{"name":"add","arguments":{}}`)
	other := wi.req(dirOut, 3, "prompts/get", `{"name":"echo"}`)
	var es []*Entry
	for _, ev := range []*session.Event{echo, add, other,
		wi.res(time.Millisecond, echo, `{"content":[]}`),
		wi.res(time.Millisecond, add, `{"content":[],"isError":true}`),
		wi.rpcErr(time.Millisecond, other, -32602, "no")} {
		e, _ := h.Add(1, ev)
		es = append(es, e)
	}
	cases := map[string][]int{
		"tool:echo":       {0, 3},
		"tool:ECH":        {0, 3},
		"tool:=ech":       nil,
		"tool:=add":       {1, 4},
		"has:tool-error":  {4},
		"has:error":       {4, 5},
		"-has:tool-error": {0, 1, 2, 3, 5},
	}
	for q, want := range cases {
		pq := ParseQuery(q)
		if pq.Err != "" {
			t.Fatalf("%s: %s", q, pq.Err)
		}
		var got []int
		for i, e := range es {
			if pq.Match(e) {
				got = append(got, i)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s matched %v, want %v", q, got, want)
		}
	}
	if ParseQuery("has:nonsense").Err == "" || !strings.Contains(ParseQuery("has:x").Err, "tool-error") {
		t.Errorf("has: error does not list tool-error")
	}
}
