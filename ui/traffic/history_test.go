package traffic

import (
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/session"
)

// TestHistoryPairing checks how History links frames: a request and its response, the
// server's request answered by mcpscope, progress on the request's row, batches both ways,
// and requests that end without a response, all from the session's pairing (Event.Corr).
func TestHistoryPairing(t *testing.T) {
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

// TestHistoryByteBound floods a history bounded at 1 MiB with 100 KiB frames: the bytes
// held stay under the bound, the oldest rows leave and are counted, the newest stays, and
// the count bound still applies on its own.
func TestHistoryByteBound(t *testing.T) {
	h := NewHistory(0)
	h.MaxBytes = 1 << 20
	w := newEvWire()
	const n = 200
	var last *Entry
	for i := range n {
		last, _ = h.Add(1, logNote(w, i, 100<<10))
		if h.Bytes > h.MaxBytes {
			t.Fatalf("after %d frames the history holds %d bytes, over its bound of %d", i+1, h.Bytes, h.MaxBytes)
		}
	}
	var held int64
	for _, e := range h.Entries() {
		held += int64(len(e.Ev.Frame.Raw))
	}
	switch {
	case held != h.Bytes:
		t.Errorf("Bytes says %d, the entries hold %d", h.Bytes, held)
	case h.Len() < 8 || h.Len() > 10:
		t.Errorf("%d rows in memory; 100 KiB frames under 1 MiB should leave 8 to 10", h.Len())
	case h.Dropped != uint64(n-h.Len()):
		t.Errorf("Dropped = %d, want %d", h.Dropped, n-h.Len())
	case h.At(h.Len()-1) != last || !h.InMemory(last):
		t.Errorf("the newest row is not in memory")
	}

	small := NewHistory(10)
	for i := range 25 {
		small.Add(1, logNote(w, i, 10))
	}
	if small.Len() > 10 || small.Dropped == 0 {
		t.Errorf("count bound: %d rows in memory, %d dropped", small.Len(), small.Dropped)
	}
}

// TestHistoryNotServedIsNoError: -32601 to resources/templates/list from a server that
// declares resources means it has no templates; the status line counts no error for it.
// The same answer to tools/list is an error.
func TestHistoryNotServedIsNoError(t *testing.T) {
	w := newEvWire()
	h := NewHistory(0)
	tpl := w.req(dirOut, 1, "resources/templates/list", `{}`)
	h.Add(1, tpl)
	h.Add(1, w.rpcErr(time.Millisecond, tpl, -32601, "Method not found"))
	if errs, _ := h.CountsSince(1); errs != 0 {
		t.Errorf("a templates list the server does not serve counts %d errors, want 0", errs)
	}
	tools := w.req(dirOut, 2, "tools/list", `{}`)
	h.Add(1, tools)
	h.Add(1, w.rpcErr(time.Millisecond, tools, -32601, "Method not found"))
	if errs, _ := h.CountsSince(1); errs != 1 {
		t.Errorf("tools/list answered -32601 counts %d errors, want 1", errs)
	}
}
