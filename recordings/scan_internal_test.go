package recordings

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/transport"
)

// searchRecording writes a recording of varied traffic (methods in both cases, a frame
// that is not UTF-8, stderr, states, a new HTTP session, tool errors, a batch with an
// error) with lines that are not events in between, and opens it with small chunks so a
// scan takes many steps.
func searchRecording(t *testing.T) *Reader {
	t.Helper()
	path := filepath.Join(t.TempDir(), "search.jsonl")
	w, err := Create(path, Header{Server: "search", Transport: "stdio"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	seq := uint64(0)
	add := func(e *session.Event) {
		seq++
		e.Seq, e.Time = seq, t0.Add(time.Duration(seq)*time.Millisecond)
		if err := w.WriteGen(e, 1+int(seq/400)); err != nil {
			t.Fatal(err)
		}
	}
	frame := func(dir protocol.Direction, raw string, corr session.Correlation) {
		add(&session.Event{Kind: session.EvFrame, Dir: dir, Frame: protocol.Decode([]byte(raw)), Corr: corr,
			Recv: transport.RecvInfo{Via: "stdout", Size: int64(len(raw))}})
	}
	for i := range 300 {
		method := []string{"tools/call", "tools/list", "Tools/List", "prompts/get", "notifications/tools/list_changed"}[i%5]
		if i%5 == 4 {
			frame(protocol.ServerToClient, fmt.Sprintf(`{"jsonrpc":"2.0","method":%q}`, method), session.Correlation{})
			continue
		}
		frame(protocol.ClientToServer, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":{"name":"echo","arguments":{"text":"Hello number %d"}}}`, i, method, i), session.Correlation{})
		req := seq
		corr := session.Correlation{Method: method, RequestSeq: req, Latency: time.Duration(i%37+1) * time.Millisecond}
		switch i % 7 {
		case 3:
			frame(protocol.ServerToClient, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"error":{"code":-32602,"message":"bad"}}`, i), corr)
		case 5:
			frame(protocol.ServerToClient, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"content":[],"isError":true}}`, i), corr)
		default:
			frame(protocol.ServerToClient, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":"HELLO %d"}]}}`, i, i), corr)
		}
		if i%11 == 0 {
			add(&session.Event{Kind: session.EvStderr, Text: fmt.Sprintf("server: hello %d on stderr", i)})
		}
		if i%97 == 0 {
			add(&session.Event{Kind: session.EvState, State: session.StateReady, Note: session.NoteNewSession, Text: "new session"})
		}
		if i%53 == 0 {
			// Not UTF-8: the line holds it as base64, so "hello" is not in its bytes.
			add(&session.Event{Kind: session.EvFrame, Dir: protocol.ServerToClient, Frame: protocol.Decode([]byte("\xffhello\xfe"))})
		}
	}
	frame(protocol.ServerToClient, `[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":2,"error":{"code":1,"message":"x"}}]`, session.Correlation{})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	// Lines that are not events: text, an object of another kind, one cut short.
	if _, err := f.WriteString("not json at all hello\n{\"kind\":\"nonsense\",\"text\":\"hello\"}\n{\"seq\":1,\"kind\":\"stderr\",\"text\":\"hello"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	r.chunkBytes = 2048
	return r
}

// TestSearchPrefilter compares Search, over many chunks on every CPU, with a plain loop
// over every line applying the same prefilter and test: the same matches, in order, the
// steps' progress ascending to the end.
func TestSearchPrefilter(t *testing.T) {
	r := searchRecording(t)
	isFrame := func(_ int, e Entry) bool { return e.Event.Kind == session.EvFrame }
	all := func(int, Entry) bool { return true }
	cases := []struct {
		name string
		pf   Prefilter
		test func(int, Entry) bool
	}{
		{"no prefilter", Prefilter{}, isFrame},
		{"method", Prefilter{All: [][]byte{[]byte(`"method":"tools/list"`)}}, all},
		{"two words", Prefilter{All: [][]byte{[]byte("hello"), []byte("echo")}}, all},
		{"word and base64", Prefilter{All: [][]byte{[]byte("hello")}, Any: [][]byte{[]byte(`"raw_base64":`), []byte(`"kind":"state"`)}}, all},
		{"nothing", Prefilter{All: [][]byte{[]byte("no such text")}}, all},
		{"term alone", Prefilter{Terms: []LineTerm{{Any: [][]byte{[]byte(`"frame":"error"`), []byte(`"frame":"batch"`)}}},
			Any: [][]byte{[]byte(`"kind":"state"`)}}, all},
		{"term with keep", Prefilter{Terms: []LineTerm{{Any: [][]byte{[]byte(`"request_seq":`)}, Keep: oddLine}}}, all},
		{"needle and terms", Prefilter{All: [][]byte{[]byte("hello")}, Terms: []LineTerm{
			{Any: [][]byte{[]byte(`"dir":"out"`), []byte(`"kind":"stderr"`)}}, {Any: [][]byte{[]byte("number 1")}, Keep: oddLine}}}, all},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var want []int32
			for i := range r.Len() {
				raw, err := r.Raw(i)
				if err != nil {
					t.Fatal(err)
				}
				low := bytes.ToLower(raw)
				pass := len(c.pf.All) == 0 && len(c.pf.Terms) == 0
				if !pass {
					pass = true
					for _, n := range c.pf.All {
						pass = pass && bytes.Contains(low, n)
					}
					for _, lt := range c.pf.Terms {
						in := false
						for _, a := range lt.Any {
							in = in || bytes.Contains(low, a)
						}
						pass = pass && in && (lt.Keep == nil || lt.Keep(i, low))
					}
					for _, n := range c.pf.Any {
						pass = pass || bytes.Contains(low, n)
					}
				}
				if e, err := r.Entry(i); pass && err == nil && c.test(i, e) {
					want = append(want, int32(i))
				}
			}
			var got []int32
			steps, last := 0, 0
			err := r.Search(context.Background(), 0, c.pf, c.test, func(s SearchStep) bool {
				steps++
				if s.Next <= last {
					t.Errorf("step %d: next %d after %d", steps, s.Next, last)
				}
				last = s.Next
				got = append(got, s.Matches...)
				return true
			})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Errorf("search found %d lines %v\nwant %d %v", len(got), got, len(want), want)
			}
			if last != r.Len() || steps < 10 {
				t.Errorf("%d steps ending at %d of %d lines", steps, last, r.Len())
			}
			if len(want) == 0 && c.name != "nothing" {
				t.Errorf("no line passes %s: the case tests nothing", c.name)
			}
		})
	}
}

// oddLine keeps the lines of odd index (a Keep that needs the index).
func oddLine(i int, _ []byte) bool { return i%2 == 1 }

// TestLines: Lines gives work each line holding one of the strings, as written, and
// deliver the results in the file's order, with the progress ascending to the end.
func TestLines(t *testing.T) {
	r := searchRecording(t)
	needles := [][]byte{[]byte(`"frame":"error"`), []byte("Hello number 1")}
	var want []int
	for i := range r.Len() {
		raw, _ := r.Raw(i)
		if r.unreadable(i) == "" && (bytes.Contains(raw, needles[0]) || bytes.Contains(raw, needles[1])) {
			want = append(want, i)
		}
	}
	var got []int
	last := 0
	err := Lines(context.Background(), r, needles, func(i int, line []byte, out []int) []int {
		if raw, _ := r.Raw(i); !bytes.Equal(line, raw) {
			t.Errorf("line %d is not as written: %q", i, line)
		}
		return append(out, i)
	}, func(found []int, next int) bool {
		if next <= last {
			t.Errorf("next %d after %d", next, last)
		}
		last = next
		got = append(got, found...)
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) || len(want) == 0 {
		t.Errorf("Lines gave %d lines %v\nwant %d %v", len(got), got, len(want), want)
	}
	if last != r.Len() {
		t.Errorf("progress ended at %d of %d", last, r.Len())
	}
}

// TestSearchCancel stops a search from its first step: it returns the context's error and
// reports nothing more.
func TestSearchCancel(t *testing.T) {
	r := searchRecording(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	steps := 0
	err := r.Search(ctx, 0, Prefilter{}, func(int, Entry) bool { return true }, func(s SearchStep) bool {
		steps++
		cancel()
		return true
	})
	if !errors.Is(err, context.Canceled) || steps != 1 {
		t.Errorf("cancelled search: %v after %d steps", err, steps)
	}
	// found returning false stops it too, without an error.
	steps = 0
	err = r.Search(context.Background(), 0, Prefilter{}, func(int, Entry) bool { return true }, func(SearchStep) bool {
		steps++
		return false
	})
	if err != nil || steps != 1 {
		t.Errorf("stopped search: %v after %d steps", err, steps)
	}
}

// TestStatsMatchEvents checks the line-level figures of Reader.Stats against the same
// figures counted from the decoded events.
func TestStatsMatchEvents(t *testing.T) {
	r := searchRecording(t)
	got, err := r.Stats(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var want Stats
	entries, bad := r.Events()
	for _, e := range entries {
		want.AddEvent(e.Event)
	}
	want.Unreadable = len(bad) + len(r.Problems())
	if got.Events != want.Events || got.Frames != want.Frames || got.Unreadable != want.Unreadable {
		t.Errorf("stats: %d events, %d frames, %d unreadable; events say %d, %d, %d",
			got.Events, got.Frames, got.Unreadable, want.Events, want.Frames, want.Unreadable)
	}
	if g, w := got.Methods(), want.Methods(); !reflect.DeepEqual(g, w) {
		t.Errorf("per method:\n%+v\nwant\n%+v", g, w)
	}
	tot := got.Total()
	if tot.Errors == 0 || tot.P99 < tot.P50 || tot.P50 <= 0 || tot.BytesIn == 0 || tot.BytesOut == 0 {
		t.Errorf("total: %+v", tot)
	}
	var call MethodStats
	for _, m := range got.Methods() {
		if m.Method == "tools/call" {
			call = m
		}
	}
	// 60 calls: i%7 == 3 is a JSON-RPC error, 5 a tool error.
	if call.Requests != 60 || call.Responses != 60 || call.Errors != 18 || call.P99 != 37 {
		t.Errorf("tools/call: %+v", call)
	}
}

// TestLowerASCII checks the eight-bytes-at-a-time lowering against bytes.ToLower on every
// byte value, at every alignment.
func TestLowerASCII(t *testing.T) {
	var b []byte
	for i := range 256 {
		b = append(b, byte(i))
	}
	for off := range 9 {
		in := append(bytes.Repeat([]byte{'Q'}, off), b...)
		want := slices.Clone(in)
		for i, c := range want {
			if 'A' <= c && c <= 'Z' {
				want[i] = c + 'a' - 'A'
			}
		}
		lowerASCII(in)
		if !bytes.Equal(in, want) {
			t.Fatalf("offset %d: lowered\n%q\nwant\n%q", off, in, want)
		}
	}
}
