package fault

import (
	"context"
	"testing"

	"github.com/mcpscope/mcpscope/session/transport"
)

// fakeTransport records what it is asked to send.
type fakeTransport struct{ sent []transport.Outgoing }

func (f *fakeTransport) Name() string                                { return "fake" }
func (f *fakeTransport) Start(context.Context, transport.Sink) error { return nil }
func (f *fakeTransport) Close(context.Context) error                 { return nil }
func (f *fakeTransport) Send(_ context.Context, m transport.Outgoing) error {
	f.sent = append(f.sent, m)
	return nil
}

type nopSink struct{ notes []string }

func (s *nopSink) Received([]byte, transport.RecvInfo) {}
func (s *nopSink) Stderr([]byte)                       {}
func (s *nopSink) HTTP(*transport.HTTPExchange)        {}
func (s *nopSink) Note(n transport.Note)               { s.notes = append(s.notes, n.Kind) }
func (s *nopSink) Exited(transport.ExitInfo)           {}

// TestTransportReorder: a request reorder holds is sent after the next matching one, as
// the session first asked it (its id and method kept for the HTTP transport); a transport
// without a standalone stream does not gain one.
func TestTransportReorder(t *testing.T) {
	inner := &fakeTransport{}
	rules, _ := ParseRules([]string{"reorder tool:=slow"}, nil)
	tr := Wrap(inner, NewEngine(rules, 1))
	if _, ok := tr.(interface{ Listen(context.Context) error }); ok {
		t.Error("the wrapper offers a standalone stream its transport lacks")
	}
	sink := &nopSink{}
	tr.Start(context.Background(), sink)
	first := transport.Outgoing{Raw: call(1, "slow"), ID: []byte("1"), Method: "tools/call", IsRequest: true}
	second := transport.Outgoing{Raw: call(2, "slow"), ID: []byte("2"), Method: "tools/call", IsRequest: true}
	tr.Send(context.Background(), first)
	if len(inner.sent) != 0 {
		t.Fatalf("the held request was sent: %+v", inner.sent)
	}
	tr.Send(context.Background(), second)
	if len(inner.sent) != 2 || string(inner.sent[0].ID) != "2" || string(inner.sent[1].ID) != "1" || !inner.sent[1].IsRequest {
		t.Errorf("sent %+v", inner.sent)
	}
	if len(sink.notes) != 1 || sink.notes[0] != NoteKind {
		t.Errorf("notes %q", sink.notes)
	}
}
