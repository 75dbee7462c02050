package ui

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// searchTraffic writes a recording of three sessions: the demo's real traffic twice (each
// with its handshake), then mixed traffic with tools/list near both ends, text in both
// cases, and a new HTTP session's marker; n events of mixed traffic.
func searchTraffic(t *testing.T, n int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "search.jsonl")
	w, err := recordings.Create(path, recordings.Header{Server: "mcpscope demo", Transport: "stdio", Protocol: "auto"}, recordings.Options{})
	if err != nil {
		t.Fatal(err)
	}
	write := func(gen int, evs []*session.Event) {
		for _, e := range evs {
			if err := w.WriteGen(e, gen); err != nil {
				t.Fatal(err)
			}
		}
	}
	write(1, goldenTraffic(t))
	write(2, goldenTraffic(t))
	wire := newEvWire()
	list := func() []*session.Event {
		r := wire.req(dirOut, 900_000+int(wire.seq), "tools/list", `{}`)
		return []*session.Event{r, wire.res(3*time.Millisecond, r, `{"tools":[]}`)}
	}
	evs := append(list(), wire.stderr("SERVER SAYS HELLO"))
	evs = append(evs, mixedTraffic(wire, n/2)...)
	evs = append(evs, relatedTraffic(wire)...)
	evs = append(evs, mixedTraffic(wire, n-n/2)...)
	evs = append(evs, wire.ev(time.Millisecond, &session.Event{Kind: session.EvState, State: session.StateReady,
		Note: session.NoteNewSession, Text: "the server ended the HTTP session: a new one starts"}))
	evs = append(evs, list()...)
	write(3, evs)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// relatedTraffic is what the terms judged by the rows around an event look for, with the
// rows they must not take: a tool call of another name (mixed case) with progress and a
// slow answer, answered twice; a request that gets progress but no answer; the server's
// requests answered by the client slowly and quickly (their answers carry no latency of
// their own); a tools/call whose name is not plain ASCII.
func relatedTraffic(w *evWire) []*session.Event {
	rare := w.req(dirOut, 800_001, "tools/call", `{"name":"Rare_Tool","arguments":{}}`)
	evs := []*session.Event{rare, w.progress(rare, 1, 2, "half")}
	evs = append(evs, w.res(1500*time.Millisecond, rare, `{"content":[]}`))
	evs = append(evs, w.frame(time.Millisecond, dirIn, `{"jsonrpc":"2.0","id":800001,"result":{"content":[]}}`,
		session.Correlation{Method: "tools/call", RequestSeq: rare.Seq, Latency: 5 * time.Millisecond}))
	lone := w.req(dirOut, 800_002, "resources/read", `{"uri":"file:///a"}`)
	evs = append(evs, lone, w.progress(lone, 1, 0, "reading"))
	ask := w.req(dirIn, 1, "sampling/createMessage", `{"messages":[],"maxTokens":5}`)
	evs = append(evs, ask, w.res(1200*time.Millisecond, ask, `{"role":"assistant","content":{"type":"text","text":"ok"},"model":"m"}`))
	ping := w.req(dirIn, 2, "ping", `{}`)
	evs = append(evs, ping, w.res(4*time.Millisecond, ping, `{}`))
	odd := w.req(dirOut, 800_003, "tools/call", `{"name":"caf\u00e9","arguments":{}}`)
	evs = append(evs, odd, w.res(7*time.Millisecond, odd, `{"content":[]}`))
	return evs
}

// scanAll puts every event of the recording into the live view's history (which keeps
// every row here, so that each response finds its request), then judges each row as the
// live view does once the recording's last event is in: the matches for query q and the
// handshakes' events. It is what the search must find.
func scanAll(r *recordings.Reader, q string) (src, hs []int32) {
	pred := &Timeline{query: traffic.ParseQuery(q)}
	h := traffic.NewHistory(r.Len() + 1)
	h.MaxBytes, h.TruncateOver = 1<<62, 1<<62
	tracks := handshakes{}
	rows := map[int32]*traffic.Entry{}
	for i := range r.Len() {
		e, err := r.Entry(i)
		if err != nil {
			continue
		}
		if tracks.take(max(1, e.Gen), e.Event) {
			hs = append(hs, int32(i))
		}
		rows[int32(i)], _ = h.Add(max(1, e.Gen), e.Event)
	}
	for i := range int32(r.Len()) {
		if ent := rows[i]; ent != nil && pred.passes(ent) {
			src = append(src, i)
		}
	}
	return src, hs
}

// searchAll runs the parallel search for query q to its end.
func searchAll(t *testing.T, r *recordings.Reader, q string) (src, hs []int32) {
	t.Helper()
	ch := make(chan openSearchMsg, 1)
	go runSearch(context.Background(), r, 0, &Timeline{query: traffic.ParseQuery(q)}, ch)
	for msg := range ch {
		src = append(src, msg.matches...)
		if msg.done {
			if msg.err != nil {
				t.Fatal(msg.err)
			}
			hs = msg.hsIdx
		}
	}
	return src, hs
}

// TestOpenSearchSameAsScan checks that the parallel search with its byte prefilter finds
// exactly what the live view's history finds judging each event in turn (the rows and each
// session's handshake), for queries of every term, those needing the rows around an event
// included, negated and combined.
func TestOpenSearchSameAsScan(t *testing.T) {
	path := searchTraffic(t, 3000)
	r, err := recordings.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, q := range []string{
		"method:=tools/list", "method:tools", "METHOD:=Tools/List", "hello", "Hello server", "-method:tools",
		"dir:in kind:notification", "kind:stderr", "kind:error", "has:finding", "has:error", "has:tool-error",
		"id:7", "kind:state", "kind:http 127.0.0.1", "no-such-text", `"jsonrpc":"1.0"`,
		"slow:>5ms", "slow:>1s", "slow:<3ms", "slow:>=800", "-slow:>100ms", "slow:>1s dir:in", "slow:>1s kind:request",
		"tool:slow", "tool:=rare_tool", "tool:RARE", "tool:caf", "tool:=café", "-tool:slow", "method:=tools/call tool:slow",
		"tool:rare slow:>1s", "tool:=nosuch", "has:progress", "-has:progress", "has:progress method:=resources/read",
		"has:progress tool:rare kind:request", "has:progress slow:>1s -tool:slow",
	} {
		want, wantHS := scanAll(r, q)
		got, gotHS := searchAll(t, r, q)
		if !slices.Equal(got, want) {
			t.Errorf("%q: the search found %d rows, the scan %d", q, len(got), len(want))
		}
		if !slices.Equal(gotHS, wantHS) {
			t.Errorf("%q: handshake rows %v, the scan's %v", q, gotHS, wantHS)
		}
	}
	if pf := traffic.ParseQuery("method:=tools/list").Prefilter(); len(pf.All) != 1 || string(pf.All[0]) != `"method":"tools/list"` {
		t.Errorf("method:=tools/list: prefilter %q", pf.All)
	}
}

// TestOpenSearchStreams filters a recording of several chunks: the first match is on
// screen while the search still runs (the status says so), the rest follow, and the
// background line check waits for the search; a new filter cancels the search under way,
// whose late results are dropped.
func TestOpenSearchStreams(t *testing.T) {
	path := searchTraffic(t, 30_000)
	m := openModel(t, path, 120, 30)
	o := m.open
	m.timeline.SetQuery(traffic.ParseQuery("method:=tools/list"))
	first, ok := m.openRefilter()().(openSearchMsg)
	if !ok || first.done || first.next >= o.r.Len() || len(first.matches) == 0 {
		t.Fatalf("first message: done %v, next %d of %d, %d matches", first.done, first.next, o.r.Len(), len(first.matches))
	}
	m.Update(first)
	// The background check of every line waits while the search runs.
	o.checkNext = 0
	if _, cmd := m.Update(openCheckMsg{next: 1}); cmd != nil || !o.checkPaused {
		t.Errorf("the line check goes on during the search")
	}
	m.Update(o.loadCmd(0, 0)())
	scr := plainScreen(m)
	if screenRow(scr, "req", "tools/list") == "" || !strings.Contains(scr, "searching") {
		t.Fatalf("the first match is not on screen while searching:\n%s", scr)
	}
	runCmdSync(t, m, waitSearch(first.ch))
	if want, _ := scanAll(o.r, "method:=tools/list"); o.total() != len(want) || o.scanNext != o.r.Len() {
		t.Errorf("after the search: %d rows, scanned to %d of %d", o.total(), o.scanNext, o.r.Len())
	}
	if strings.Contains(plainScreen(m), "searching") {
		t.Errorf("the status still says searching")
	}
	if o.checkPaused || o.checkNext != o.r.Len() {
		t.Errorf("the line check did not go on after the search: at %d of %d", o.checkNext, o.r.Len())
	}

	// A search under way, then another filter: the first stops and its results are dropped.
	m.timeline.SetQuery(traffic.ParseQuery("kind:stderr"))
	old := m.openRefilter()().(openSearchMsg)
	m.Update(old)
	m.timeline.SetQuery(traffic.ParseQuery("SERVER SAYS"))
	cmd := m.openRefilter()
	deadline := time.After(30 * time.Second)
	for closed := false; !closed; {
		select {
		case late, ok := <-old.ch:
			if !ok {
				closed = true
				break
			}
			m.Update(late)
		case <-deadline:
			t.Fatal("the cancelled search did not end")
		}
	}
	runCmdSync(t, m, cmd)
	if o.total() != 2 { // and the new session's marker, which every filter shows
		t.Errorf("after the second filter: %d rows, want the stderr line and the marker", o.total())
	}
	if sel := m.timeline.Selected(); sel == nil || sel.Ev.Kind != session.EvStderr {
		t.Errorf("the selected row is not the stderr line: %v", sel)
	}
	if !strings.Contains(plainScreen(m), "row 1 of 2") {
		t.Errorf("status:\n%s", plainScreen(m))
	}
}
