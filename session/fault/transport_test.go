package fault

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/protocol"

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
	if len(sink.notes) != 2 || sink.notes[0] != RulesNoteKind || sink.notes[1] != NoteKind { // the rules at start, then the fault
		t.Errorf("notes %q", sink.notes)
	}
}

// TestTransportReorderReleasedOnClose: what reorder still holds when the session closes
// is let go, each with a note: the session's request is forwarded, as it was first asked;
// the server's message is dropped.
func TestTransportReorderReleasedOnClose(t *testing.T) {
	inner := &fakeTransport{}
	rules, _ := ParseRules([]string{"reorder tool:=slow", "reorder method:=notifications/message dir:in"}, nil)
	tr := Wrap(inner, NewEngine(rules, 1))
	sink := &textSink{}
	tr.Start(context.Background(), sink)
	first := transport.Outgoing{Raw: call(1, "slow"), ID: []byte("1"), Method: "tools/call", IsRequest: true}
	tr.Send(context.Background(), first)
	tr.(*Transport).eng.Judge(protocol.ServerToClient, []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}`), time.Now())
	if len(inner.sent) != 0 {
		t.Fatalf("the held request was sent before the close: %+v", inner.sent)
	}
	if err := tr.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(inner.sent) != 1 || string(inner.sent[0].ID) != "1" || !inner.sent[0].IsRequest || string(inner.sent[0].Raw) != string(first.Raw) {
		t.Errorf("sent at the close: %+v, want the held request as it was asked", inner.sent)
	}
	var released []string
	for _, n := range sink.notes {
		if strings.HasPrefix(n, "reorder: released as the session closed") {
			released = append(released, n[:strings.IndexByte(n, '\n')])
		}
	}
	want := []string{"reorder: released as the session closed, forwarded",
		"reorder: released as the session closed, dropped: the session takes no more messages"}
	if strings.Join(released, "|") != strings.Join(want, "|") {
		t.Errorf("notes at the close:\n%s\nwant\n%s", strings.Join(released, "\n"), strings.Join(want, "\n"))
	}
	if len(tr.(*Transport).eng.Release(protocol.ClientToServer)) != 0 {
		t.Error("the engine still holds the request")
	}
}

// textSink keeps the text of the notes it is given.
type textSink struct {
	nopSink
	notes []string
}

func (s *textSink) Note(n transport.Note) { s.notes = append(s.notes, n.Text) }
