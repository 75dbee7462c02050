package fault

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session/transport"
)

// TestHeldThenJudged: a breakpoint holds first; what the user forwards is then judged by
// the rules as the bytes delivered, on the session's wire either way and in the tap's
// stdio stream.
func TestHeldThenJudged(t *testing.T) {
	rules, err := ParseRules([]string{"error=-32001:refused tool:=echo"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	bps := NewBreakpoints()
	bps.Add("tool:=echo")
	inner, sink := &fakeTransport{}, &recSink{}
	tr := WrapBreaking(inner, NewEngine(rules, 1), bps)
	tr.Start(context.Background(), sink)
	tr.Send(context.Background(), transport.Outgoing{Raw: call(1, "echo"), IsRequest: true})
	if len(inner.sent) != 0 || len(sink.frames) != 0 {
		t.Fatalf("the rule acted before the breakpoint held: sent %d, answers %q", len(inner.sent), sink.frames)
	}
	if err := bps.Decide(bps.Held()[0].ID, Decision{Verb: Forward}); err != nil {
		t.Fatal(err)
	}
	if len(inner.sent) != 0 || len(sink.frames) != 1 || !bytes.Contains(sink.frames[0], []byte(`"code":-32001`)) || sink.vias[0] != ViaMcpscope {
		t.Errorf("forwarded: sent %d, answers %q via %q; want the rule's error", len(inner.sent), sink.frames, sink.vias)
	}
	if !hasNote(sink.notesText, "error: answered by mcpscope (rule 1") {
		t.Errorf("no fault note: %q", sink.notesText)
	}

	// The server's answer, held then forwarded edited: the rule judges the edit.
	rules, _ = ParseRules([]string{"corrupt=wrong-version tool:=add"}, nil)
	bps = NewBreakpoints()
	bps.Add("tool:=add dir:in")
	inner, sink = &fakeTransport{}, &recSink{}
	tr = WrapBreaking(inner, NewEngine(rules, 1), bps)
	tr.Start(context.Background(), sink)
	tr.Send(context.Background(), transport.Outgoing{Raw: call(2, "add"), IsRequest: true})
	// The rule acted on the call already (a wrong version); the answer is held.
	(&faultSink{Sink: sink, t: tr.(*Transport)}).Received(result(2), transport.RecvInfo{})
	bps.Decide(bps.Held()[0].ID, Decision{Verb: Forward, Raw: []byte(`{"jsonrpc":"2.0","id":2,"result":{"content":[],"edited":true}}`)})
	if len(sink.frames) != 1 || !bytes.Contains(sink.frames[0], []byte(`"edited":true`)) || bytes.Contains(sink.frames[0], []byte(`"jsonrpc":"2.0"`)) {
		t.Errorf("the held answer forwarded edited: %q, want the edit with a wrong version", sink.frames)
	}

	// The tap's stdio stream.
	rules, _ = ParseRules([]string{"drop tool:=echo"}, nil)
	bps = NewBreakpoints()
	bps.Add("tool:=echo")
	eng := NewEngine(rules, 1)
	eng.SetBreakpoints(bps)
	var out bytes.Buffer
	var reported []*Applied
	s := &Stream{Engine: eng, Dir: protocol.ClientToServer, Out: &out,
		Note: func(string, string) {}, Report: func(a *Applied) { reported = append(reported, a) }}
	s.Write(append(call(3, "echo"), '\n'))
	if len(reported) != 0 {
		t.Fatal("the rule acted before the breakpoint held")
	}
	bps.Decide(bps.Held()[0].ID, Decision{Verb: Forward})
	if out.Len() != 0 || len(reported) != 1 || reported[0].Action != Drop {
		t.Errorf("forwarded in the stream: wrote %q, faults %d; want it dropped by the rule", out.String(), len(reported))
	}
}

func hasNote(notes []string, prefix string) bool {
	for _, n := range notes {
		if strings.HasPrefix(n, prefix) {
			return true
		}
	}
	return false
}
