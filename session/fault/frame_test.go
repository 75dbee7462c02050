package fault

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session/transport"
)

// stdioFake is a fake transport that says it is stdio: a newline ends a frame there.
type stdioFake struct{ fakeTransport }

func (f *stdioFake) Name() string { return "stdio" }

// prettyEcho is a tools/call echo as the hold editor shows it: indented, several lines.
const prettyEcho = "{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 1,\n  \"method\": \"tools/call\",\n  \"params\": {\n    \"name\": \"echo\",\n    \"arguments\": {\n      \"text\": \"hi\"\n    }\n  }\n}"

const compactEcho = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`

// TestEditSentAsOneFrame: an edit at a breakpoint goes on as one frame: valid JSON
// compacted; bytes that are not JSON, sent anyway, with their line breaks as spaces on
// stdio (the note says so) and kept on HTTP; an answer likewise.
func TestEditSentAsOneFrame(t *testing.T) {
	for _, tc := range []struct {
		name       string
		inner      transport.Transport
		edit, want string
		spaced     bool
	}{
		{"json stdio", &stdioFake{}, prettyEcho, compactEcho, false},
		{"json http", &fakeTransport{}, prettyEcho, compactEcho, false},
		{"invalid stdio", &stdioFake{}, prettyEcho + "xx", strings.ReplaceAll(prettyEcho, "\n", " ") + "xx", true},
		{"invalid http", &fakeTransport{}, prettyEcho + "xx", prettyEcho + "xx", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bps := NewBreakpoints()
			bps.Add("tool:=echo")
			sink := &recSink{}
			tr := WrapBreaking(tc.inner, nil, bps)
			tr.Start(context.Background(), sink)
			tr.Send(context.Background(), transport.Outgoing{Raw: call(1, "echo"), IsRequest: true})
			held := bps.Held()
			if len(held) != 1 {
				t.Fatalf("held %d", len(held))
			}
			if err := bps.Decide(held[0].ID, Decision{Verb: Forward, Raw: []byte(tc.edit)}); err != nil {
				t.Fatal(err)
			}
			var sent []transport.Outgoing
			switch in := tc.inner.(type) {
			case *stdioFake:
				sent = in.sent
			case *fakeTransport:
				sent = in.sent
			}
			if len(sent) != 1 || string(sent[0].Raw) != tc.want {
				t.Fatalf("sent %+v, want %q", sent, tc.want)
			}
			last := sink.notesText[len(sink.notesText)-1]
			if strings.Contains(last, "line breaks became spaces") != tc.spaced {
				t.Errorf("note %q", last)
			}
			if !strings.Contains(last, "\n"+lineDelivered+tc.want[:1]) {
				t.Errorf("the note does not show what was delivered: %q", last)
			}
		})
	}

	// An answer at a breakpoint of a server's request, on stdio: one line too.
	bps := NewBreakpoints()
	bps.Add("method:=roots/list")
	inner, sink := &stdioFake{}, &recSink{}
	tr := WrapBreaking(inner, nil, bps)
	tr.Start(context.Background(), sink)
	(&faultSink{Sink: sink, t: tr.(*Transport)}).Received([]byte(`{"jsonrpc":"2.0","id":9,"method":"roots/list"}`), transport.RecvInfo{})
	if err := bps.Decide(bps.Held()[0].ID, Decision{Verb: Answer, Raw: []byte("{\n \"jsonrpc\": \"2.0\",\n \"id\": 9,\n \"result\": {}\n}")}); err != nil {
		t.Fatal(err)
	}
	if len(inner.sent) != 1 || string(inner.sent[0].Raw) != `{"jsonrpc":"2.0","id":9,"result":{}}` {
		t.Errorf("answered %+v", inner.sent)
	}
}

// TestStreamEditOneLine: the tap's stdio stream writes an edit sent anyway as one line,
// and an answer made at a breakpoint as one line back to the sender.
func TestStreamEditOneLine(t *testing.T) {
	bps := NewBreakpoints()
	bps.Add("tool:=echo")
	eng := NewEngine(nil, 1)
	eng.SetBreakpoints(bps)
	var out, back bytes.Buffer
	var notes []string
	s := &Stream{Engine: eng, Dir: protocol.ClientToServer, Out: &out, Back: &back,
		Note: func(_, text string) { notes = append(notes, text) }}
	s.Write(append(call(1, "echo"), '\n'))
	if err := bps.Decide(bps.Held()[0].ID, Decision{Verb: Forward, Raw: []byte(prettyEcho + "xx")}); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); strings.Count(got, "\n") != 1 || !strings.HasSuffix(got, "xx\n") {
		t.Errorf("wrote %q, want one line", got)
	}
	if !strings.Contains(notes[len(notes)-1], "line breaks became spaces") {
		t.Errorf("note %q", notes[len(notes)-1])
	}
	s.Write(append(call(2, "echo"), '\n'))
	bps.Decide(bps.Held()[0].ID, Decision{Verb: Answer, Raw: []byte("{\n \"jsonrpc\": \"2.0\",\n \"id\": 2,\n \"result\": {}\n}")})
	if back.String() != "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}\n" {
		t.Errorf("answered %q", back.String())
	}
}
