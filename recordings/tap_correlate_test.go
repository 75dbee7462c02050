package recordings

import (
	"slices"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
)

// TestTapCorrelate checks the tap's pairing, which fills Event.Corr as a session does: a
// response names its request, a batch answered by a batch names the batch, and a
// notifications/cancelled names the request of the same side it cancels (not the other
// side's request that happens to share its id).
func TestTapCorrelate(t *testing.T) {
	tp := &Tap{pending: map[pendingKey]pendingReq{}}
	at := time.Now()
	seq := uint64(0)
	ev := func(dir protocol.Direction, raw string) *session.Event {
		seq++
		e := &session.Event{Seq: seq, Time: at.Add(time.Duration(seq) * time.Millisecond), Kind: session.EvFrame, Dir: dir, Frame: protocol.Decode([]byte(raw))}
		tp.correlate(e)
		return e
	}
	out, in := protocol.ClientToServer, protocol.ServerToClient
	call := ev(out, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}}`)
	ev(in, `{"jsonrpc":"2.0","id":1,"method":"roots/list"}`) // the server's request with the same id
	cancel := ev(out, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`)
	if cancel.Corr.RequestSeq != call.Seq {
		t.Errorf("the client's cancellation names request %d, want its call %d", cancel.Corr.RequestSeq, call.Seq)
	}
	batch := ev(out, `[{"jsonrpc":"2.0","id":7,"method":"ping"},{"jsonrpc":"2.0","id":8,"method":"ping"}]`)
	answer := ev(in, `[{"jsonrpc":"2.0","id":8,"result":{}},{"jsonrpc":"2.0","id":7,"result":{}}]`)
	if answer.Corr.RequestSeq != batch.Seq || answer.Corr.Latency <= 0 {
		t.Errorf("the batch's answer: %+v, want request %d and a latency", answer.Corr, batch.Seq)
	}
	res := ev(in, `{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`)
	if res.Corr.RequestSeq != call.Seq || res.Corr.Method != "tools/call" {
		t.Errorf("the call's response: %+v, want request %d", res.Corr, call.Seq)
	}
}

// TestTapClassify: the tap adds the findings a session adds with the negotiated revision
// and capabilities, learnt from the handshake it forwards; a 2026-07-28 request is judged
// by the revision its _meta names; before any revision is known nothing is judged.
func TestTapClassify(t *testing.T) {
	tp := &Tap{pending: map[pendingKey]pendingReq{}}
	seq := uint64(0)
	ev := func(dir protocol.Direction, raw string) []string {
		seq++
		e := &session.Event{Seq: seq, Time: time.Now(), Kind: session.EvFrame, Dir: dir, Frame: protocol.Decode([]byte(raw))}
		tp.correlate(e)
		tp.classify(e)
		var codes []string
		for _, f := range session.AllFindings(e.Frame) {
			codes = append(codes, f.Code)
		}
		return codes
	}
	out, in := protocol.ClientToServer, protocol.ServerToClient
	if got := ev(out, `{"jsonrpc":"2.0","id":9,"method":"no/such"}`); len(got) != 0 {
		t.Errorf("before the handshake: %v, want nothing judged", got)
	}
	ev(out, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"h","version":"1"}}}`)
	ev(in, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}`)
	if got := ev(out, `{"jsonrpc":"2.0","id":2,"method":"no/such"}`); !slices.Contains(got, protocol.FindUnknownMethod) {
		t.Errorf("an unknown method after the handshake: %v, want %s", got, protocol.FindUnknownMethod)
	}
	if got := ev(in, `{"jsonrpc":"2.0","id":3,"method":"sampling/createMessage","params":{"messages":[],"maxTokens":1}}`); len(got) == 0 {
		t.Error("the server asks for sampling the client did not declare: no finding")
	}
	if got := ev(out, `{"jsonrpc":"2.0","id":4,"method":"tools/list"}`); len(got) != 0 {
		t.Errorf("tools/list, declared: %v", got)
	}
	if got := ev(out, `{"jsonrpc":"2.0","id":5,"method":"ping","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`); !slices.Contains(got, protocol.FindUnknownMethod) {
		t.Errorf("ping under 2026-07-28, which removed it: %v, want %s", got, protocol.FindUnknownMethod)
	}
}
