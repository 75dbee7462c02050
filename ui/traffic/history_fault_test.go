package traffic

import (
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/fault"
)

// TestHistoryFaults: a fault's note marks the frame it follows when it concerns it (the
// request sent, the response delivered damaged), not another (a dropped response has only
// its note); the answer mcpscope made is marked as its; the faults are counted per session.
func TestHistoryFaults(t *testing.T) {
	rules, err := fault.ParseRules([]string{"error=-32603 tool:=search", "corrupt=truncate method:=tools/list dir:in", "drop method:=ping dir:in"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	eng := fault.NewEngine(rules, 1)
	w := newEvWire()
	h := NewHistory(0)
	add := func(ev *session.Event) *Entry {
		e, _ := h.Add(1, ev)
		return e
	}
	// A frame passes the engine the way the session's transport does: the frame's event,
	// then the fault's note.
	faultNote := func(dir int, raw string) *session.Event {
		v := eng.Judge(dirs[dir], []byte(raw), time.Now())
		if v.Applied == nil {
			t.Fatalf("no fault for %s", raw)
		}
		return w.ev(0, &session.Event{Kind: session.EvTransport, Note: fault.NoteKind, Text: fault.Describe(v.Applied)})
	}

	call := w.req(dirOut, 1, "tools/call", `{"name":"search"}`)
	callRow := add(call)
	add(faultNote(0, string(call.Frame.Raw)))
	answer := w.res(0, call, `{}`)
	answer.Frame = session.DecodeReceived([]byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"injected by mcpscope"}}`), answer.Recv)
	answer.Recv.Via = fault.ViaMcpscope
	answerRow := add(answer)

	list := w.req(dirOut, 2, "tools/list", `{}`)
	listRow := add(list)
	eng.Judge(dirOut, list.Frame.Raw, time.Now())
	v := eng.Judge(dirIn, []byte(`{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}`), time.Now())
	damaged := w.frame(0, dirIn, string(v.Deliver[0]), session.Correlation{Method: "tools/list", RequestSeq: list.Seq})
	damagedRow := add(damaged)
	add(w.ev(0, &session.Event{Kind: session.EvTransport, Note: fault.NoteKind, Text: fault.Describe(v.Applied)}))

	ping := w.req(dirOut, 3, "ping", `{}`)
	eng.Judge(dirOut, ping.Frame.Raw, time.Now())
	add(ping)
	add(faultNote(1, `{"jsonrpc":"2.0","id":3,"result":{}}`))

	if callRow.Fault == "" || damagedRow.Fault == "" {
		t.Errorf("marks: call %q, damaged response %q", callRow.Fault, damagedRow.Fault)
	}
	if listRow.Fault != "" || answerRow.Fault != "" || !MadeByMcpscope(answerRow) || MadeByMcpscope(damagedRow) {
		t.Errorf("list request %q, answer %q (made by mcpscope %v)", listRow.Fault, answerRow.Fault, MadeByMcpscope(answerRow))
	}
	if n := h.FaultsSince(1); n != 3 {
		t.Errorf("%d faults counted, want 3", n)
	}
	if n := h.FaultsSince(2); n != 0 {
		t.Errorf("%d faults in a later session", n)
	}
	if q := ParseQuery("kind:transport dropped"); !q.Match(h.At(h.Len() - 1)) {
		t.Error("the filter does not find the dropped message's note")
	}
}

var dirs = [2]protocol.Direction{dirOut, dirIn}
