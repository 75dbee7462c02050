package ui

import (
	"fmt"
	"image/color"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/session"
)

// TestTimelinePairing checks how History links frames: a request and its response, the
// server's request answered by mcpscope, progress on the request's row, batches both ways,
// and requests that end without a response, all from the session's pairing (Event.Corr).
func TestTimelinePairing(t *testing.T) {
	w := newEvWire()
	h := NewHistory(0)
	add := func(ev *session.Event) *Entry { e, _ := h.Add(1, ev); return e }

	call := w.req(dirOut, 1, "tools/call", `{"name":"slow"}`)
	callE := add(call)
	if !callE.Waiting() || h.InFlight() != 1 {
		t.Fatalf("a new request waits: waiting=%v in flight=%d", callE.Waiting(), h.InFlight())
	}
	prog := add(w.progress(call, 2, 5, "half"))
	if prog.Ref != callE || callE.Progress == nil || callE.Progress.Progress != 2 {
		t.Fatalf("progress is not on its request: ref=%v progress=%v", prog.Ref, callE.Progress)
	}
	resE := add(w.res(30*time.Millisecond, call, `{"content":[]}`))
	if resE.Pair != callE || callE.Pair != resE || !callE.Answered || callE.Waiting() {
		t.Fatalf("request and response are not paired")
	}
	if got := callE.Latency(); got != 30*time.Millisecond {
		t.Errorf("request latency %v, want 30ms", got)
	}

	// The server asks, mcpscope answers: paired, latency measured from the request's arrival.
	sreq := add(w.req(dirIn, 7, "sampling/createMessage", `{}`))
	sres := add(w.res(15*time.Millisecond, sreq.Ev, `{"role":"assistant"}`))
	if sres.Pair != sreq || !sreq.Answered {
		t.Fatalf("the server's request is not paired with mcpscope's answer")
	}
	if got := sres.Latency(); got != 15*time.Millisecond {
		t.Errorf("answer latency %v, want 15ms", got)
	}

	// A batch of two requests from the server, answered one by one.
	batch := add(w.frame(time.Millisecond, dirIn,
		`[{"jsonrpc":"2.0","id":"a","method":"roots/list"},{"jsonrpc":"2.0","id":"b","method":"ping"}]`, session.Correlation{}))
	if !batch.Waiting() {
		t.Fatal("a batch of requests waits for its answers")
	}
	a1 := add(w.frame(time.Millisecond, dirOut, `{"jsonrpc":"2.0","id":"a","result":{"roots":[]}}`, session.Correlation{RequestSeq: batch.Ev.Seq}))
	if batch.Answered || !batch.Waiting() || a1.Pair != batch {
		t.Fatalf("after one of two answers: answered=%v waiting=%v", batch.Answered, batch.Waiting())
	}
	a2 := add(w.frame(time.Millisecond, dirOut, `{"jsonrpc":"2.0","id":"b","result":{}}`, session.Correlation{RequestSeq: batch.Ev.Seq}))
	if !batch.Answered || a2.Ref != batch {
		t.Fatalf("after both answers: answered=%v ref=%v", batch.Answered, a2.Ref)
	}

	// A batch mcpscope sent (raw), answered by a batch: the session names the batch in Corr;
	// the answer's two responses answer both members.
	ob := add(w.frame(time.Millisecond, dirOut,
		`[{"jsonrpc":"2.0","id":91,"method":"ping"},{"jsonrpc":"2.0","id":92,"method":"tools/list"}]`, session.Correlation{}))
	ib := add(w.frame(5*time.Millisecond, dirIn,
		`[{"jsonrpc":"2.0","id":92,"result":{"tools":[]}},{"jsonrpc":"2.0","id":91,"result":{}}]`, session.Correlation{RequestSeq: ob.Ev.Seq}))
	if ib.Pair != ob || !ob.Answered || ob.Waiting() {
		t.Fatalf("batch answered by a batch is not paired: pair=%v answered=%v", ib.Pair, ob.Answered)
	}
	// A frame the session left unpaired is not paired by id here.
	lone := add(w.frame(time.Millisecond, dirOut, `[{"jsonrpc":"2.0","id":93,"method":"ping"}]`, session.Correlation{}))
	add(w.frame(time.Millisecond, dirIn, `{"jsonrpc":"2.0","id":93,"result":{}}`, session.Correlation{}))
	if lone.Pair != nil || !lone.Waiting() {
		t.Fatalf("History paired a response the session did not: pair=%v", lone.Pair)
	}

	// Timeout, cancellation (ours and the server's), and the end of the session.
	slow := w.req(dirOut, 2, "tools/call", `{}`)
	slowE := add(slow)
	add(w.failure(slow, "tools/call (id 2) timed out after 1s"))
	if slowE.Failed == "" || slowE.Waiting() {
		t.Errorf("a timed-out request is not failed")
	}
	cancelled := add(w.req(dirOut, 3, "tools/call", `{}`))
	add(w.note(dirOut, "notifications/cancelled", `{"requestId":3,"reason":"user"}`, session.Correlation{RequestSeq: cancelled.Ev.Seq}))
	if cancelled.Failed != "cancelled: user" {
		t.Errorf("a request we cancelled: failed=%q", cancelled.Failed)
	}
	elicit := add(w.req(dirIn, 8, "elicitation/create", `{}`))
	add(w.note(dirIn, "notifications/cancelled", `{"requestId":8}`, session.Correlation{RequestSeq: elicit.Ev.Seq}))
	if !strings.Contains(elicit.Failed, "server") {
		t.Errorf("a request the server cancelled: failed=%q", elicit.Failed)
	}
	hung := add(w.req(dirOut, 4, "tools/call", `{}`))
	h.EndGeneration(1, "session closed: exit status 1")
	if hung.Failed == "" || lone.Failed == "" || h.InFlight() != 0 {
		t.Errorf("after the session closed: failed=%q in flight=%d", hung.Failed, h.InFlight())
	}
}

// TestTimelineRows checks the row of each kind: colours from the palette, the finding
// badge, latency, progress on the request's row, and the live timer that is never cached.
func TestTimelineRows(t *testing.T) {
	m := newTimelineModel(t, Options{}, 100, 30)
	s := m.c.Styles
	w := newEvWire()
	call := w.req(dirOut, 1, "tools/call", `{"name":"slow"}`)
	bad := w.req(dirOut, 2, "tools/call", `{"name":"nope"}`)
	feedEvents(m, call, bad, w.progress(call, 3, 6, "half"), w.rpcErr(5*time.Millisecond, bad, -32602, "Unknown tool"),
		w.frame(time.Millisecond, dirIn, `{"jsonrpc":"1.0","method":"notifications/message","params":{}}`, session.Correlation{}),
		w.stderr("demo: hello"), w.http(502, "http://h/mcp"), w.state(session.StateReady, ""))

	screen := m.Render()
	plain := ansi.Strip(screen)
	callRow := screenRow(plain, "req", "#1")
	if !strings.Contains(callRow, "3/6 half") || !strings.Contains(callRow, "⏱0s") {
		t.Errorf("request row lacks its progress or live timer: %q", callRow)
	}
	errRow := screenRow(screen, "Unknown tool")
	if !strings.Contains(errRow, fgSeq(s.P.Error)) || !strings.Contains(ansi.Strip(errRow), "-32602") || !strings.Contains(ansi.Strip(errRow), "5.0ms") {
		t.Errorf("error row is not red with its code and latency: %q", errRow)
	}
	findRow := screenRow(screen, "notifications/message")
	if !strings.Contains(findRow, fgSeq(s.P.Finding)) || !strings.Contains(ansi.Strip(findRow), "⚠") {
		t.Errorf("row with findings lacks the yellow badge: %q", findRow)
	}
	if r := screenRow(screen, "http", "502"); !strings.Contains(r, fgSeq(s.P.Error)) {
		t.Errorf("HTTP 502 row is not red: %q", r)
	}
	if r := screenRow(screen, "stderr", "demo: hello"); !strings.Contains(r, fgSeq(s.P.Stderr)) {
		t.Errorf("stderr row is not in the stderr colour: %q", r)
	}

	// The timer is live: a tick three seconds on redraws it, and it is never cached.
	m.Update(TickMsg(call.Time.Add(3 * time.Second)))
	if r := screenRow(ansi.Strip(m.Render()), "req", "#1"); !strings.Contains(r, "⏱3s") {
		t.Errorf("timer did not advance: %q", r)
	}
	e := m.timeline.visible[0]
	if e.cache.s != "" {
		t.Errorf("a waiting request's row was cached")
	}
	feedEvents(m, w.res(4*time.Second, call, `{}`))
	if r := screenRow(ansi.Strip(m.Render()), "req", "#1"); strings.Contains(r, "⏱") || !strings.Contains(r, "4.00s") {
		t.Errorf("answered request still shows a timer or lacks its latency: %q", r)
	}
	if e.cache.s == "" {
		t.Errorf("an answered request's row is not cached")
	}
}

// fgSeq is the SGR fragment lipgloss writes for foreground colour c.
func fgSeq(c color.Color) string {
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("38;2;%d;%d;%d", r>>8, g>>8, b>>8)
}

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

// TestTimelineCleansWireText keeps escape sequences and line breaks a server writes out of
// the terminal.
func TestTimelineCleansWireText(t *testing.T) {
	m := newTimelineModel(t, Options{}, 100, 20)
	w := newEvWire()
	feedEvents(m, w.stderr("\x1b[2Jwiped\tscreen\r\nnext \u009b31m"),
		w.note(dirIn, "notifications/\u001b[31mred", `{}`, session.Correlation{}))
	screen := m.Render()
	for _, bad := range []string{"\x1b[2J", "\x1b[31mred", "\u009b"} {
		if strings.Contains(screen, bad) {
			t.Errorf("screen carries %q from the wire", bad)
		}
	}
	if r := screenRow(ansi.Strip(screen), "wiped screen  next"); r == "" {
		t.Errorf("stderr row not cleaned:\n%s", ansi.Strip(screen))
	}
	if got := cleanText("plain é 中"); got != "plain é 中" {
		t.Errorf("clean text changed: %q", got)
	}
}

// TestTimelineSelectionAcrossFilter keeps the selected entry (or its nearest earlier row)
// when the filter changes, and keeps follow mode when it was on.
func TestTimelineSelectionAcrossFilter(t *testing.T) {
	m := newTimelineModel(t, Options{}, 100, 20)
	w := newEvWire()
	feedEvents(m, mixedTraffic(w, 200)...)
	tl := m.timeline
	tl.SetQuery(ParseQuery("kind:stderr"))
	if !tl.Following() || tl.Selected() != tl.visible[len(tl.visible)-1] {
		t.Fatalf("a filter change while following left follow mode")
	}
	tl.SetQuery(Query{})
	tl.Move(-30)
	sel := tl.Selected()
	tl.SetQuery(ParseQuery("kind:request"))
	got := tl.Selected()
	if got == nil || got.Index > sel.Index || !got.IsRequest() {
		t.Fatalf("selection went to %v, want the nearest request at or before index %d", got, sel.Index)
	}
	if tl.Following() {
		t.Errorf("a paused selection began following after a filter change")
	}
	req := got
	tl.SetQuery(Query{})
	if tl.Selected() != req {
		t.Errorf("clearing the filter lost the selection")
	}
}
