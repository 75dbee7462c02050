package fault

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/session/transport"
)

// recSink records what the wrapped transport gives the session.
type recSink struct {
	nopSink
	frames    [][]byte
	vias      []string
	notesText []string
}

func (s *recSink) Note(n transport.Note) {
	s.nopSink.Note(n)
	s.notesText = append(s.notesText, n.Text)
}

func (s *recSink) Received(raw []byte, info transport.RecvInfo) {
	s.frames = append(s.frames, raw)
	s.vias = append(s.vias, info.Via)
}

// TestBreakpoints: an enabled breakpoint holds a matching message either way until the
// user decides: forwarded edited, answered in the other side's place, dropped, or all
// continued; a disabled one holds nothing; a bad query is refused with its column; a
// closed transport lets its messages go.
func TestBreakpoints(t *testing.T) {
	bps := NewBreakpoints()
	if _, err := bps.Add("tool:=echo kind:bogus"); err == nil || !strings.Contains(err.Error(), "column 12") {
		t.Errorf("bad query: %v", err)
	}
	if _, err := bps.Add("  "); err == nil {
		t.Error("an empty breakpoint is accepted")
	}
	echo, _ := bps.Add("tool:=echo dir:out")
	inner, sink := &fakeTransport{}, &recSink{}
	tr := WrapBreaking(inner, nil, bps)
	tr.Start(context.Background(), sink)
	ctx := context.Background()

	tr.Send(ctx, transport.Outgoing{Raw: call(1, "echo"), IsRequest: true})
	tr.Send(ctx, transport.Outgoing{Raw: call(2, "add"), IsRequest: true})
	held := bps.Held()
	if len(inner.sent) != 1 || len(held) != 1 || !held[0].Request || !bytes.Equal(held[0].Raw, call(1, "echo")) || held[0].Point != "tool:=echo dir:out" {
		t.Fatalf("sent %d, held %+v", len(inner.sent), held)
	}
	edited := call(1, "echo-edited")
	if err := bps.Decide(held[0].ID, Decision{Verb: Forward, Raw: edited}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(inner.sent[1].Raw, edited) || !inner.sent[1].IsRequest {
		t.Errorf("forwarded %+v", inner.sent[1])
	}
	if err := bps.Decide(held[0].ID, Decision{Verb: DropIt}); !errors.Is(err, ErrNotHeld) {
		t.Errorf("deciding twice: %v", err)
	}

	tr.Send(ctx, transport.Outgoing{Raw: call(3, "echo"), IsRequest: true})
	ans := []byte(`{"jsonrpc":"2.0","id":3,"result":{"content":[]}}`)
	bps.Decide(bps.Held()[0].ID, Decision{Verb: Answer, Raw: ans})
	if len(sink.frames) != 1 || !bytes.Equal(sink.frames[0], ans) || sink.vias[0] != ViaMcpscope || len(inner.sent) != 2 {
		t.Errorf("answered: frames %q via %q, sent %d", sink.frames, sink.vias, len(inner.sent))
	}

	bps.Add("method:=notifications/progress")
	sinkOf := tr.(*Transport)
	(&faultSink{Sink: sink, t: sinkOf}).Received(progress, transport.RecvInfo{Via: "stdout"})
	tr.Send(ctx, transport.Outgoing{Raw: call(4, "echo"), IsRequest: true})
	if n := len(bps.Held()); n != 2 {
		t.Fatalf("%d held, want 2", n)
	}
	if err := bps.Decide(bps.Held()[0].ID, Decision{Verb: Answer, Raw: ans}); err == nil {
		t.Error("a notification was answered")
	}
	tr.Send(ctx, transport.Outgoing{Raw: call(5, "echo"), IsRequest: true})
	if err := bps.ContinueAll(); err != nil {
		t.Fatal(err)
	}
	if len(bps.Held()) != 0 || !bytes.Equal(inner.sent[len(inner.sent)-1].Raw, call(5, "echo")) {
		t.Errorf("after continue all: held %d, last sent %s", len(bps.Held()), inner.sent[len(inner.sent)-1].Raw)
	}

	bps.Enable(echo.ID, false)
	tr.Send(ctx, transport.Outgoing{Raw: call(6, "echo"), IsRequest: true})
	if len(bps.Held()) != 0 {
		t.Error("a disabled breakpoint held a message")
	}
	bps.Enable(echo.ID, true)
	tr.Send(ctx, transport.Outgoing{Raw: call(7, "echo"), IsRequest: true})
	tr.Close(ctx)
	if len(bps.Held()) != 0 {
		t.Error("a closed transport's message is still held")
	}
	var holds int
	for _, n := range sink.notes {
		if n == HoldNoteKind {
			holds++
		}
	}
	if holds != 11 { // 6 held, 5 decided (deciding twice does nothing; the last went with its session)
		t.Errorf("%d hold notes", holds)
	}
}

// TestBreakpointsBounded: past maxHeld held messages a matching one passes on, and a
// note says why.
func TestBreakpointsBounded(t *testing.T) {
	bps := NewBreakpoints()
	bps.Add("kind:notification")
	inner, sink := &fakeTransport{}, &recSink{}
	tr := WrapBreaking(inner, nil, bps)
	tr.Start(context.Background(), sink)
	for range maxHeld + 1 {
		tr.Send(context.Background(), transport.Outgoing{Raw: progress})
	}
	if len(bps.Held()) != maxHeld || len(inner.sent) != 1 {
		t.Errorf("held %d, passed %d", len(bps.Held()), len(inner.sent))
	}
	if !strings.HasPrefix(sink.notesText[len(sink.notesText)-1], "not held (breakpoint kind:notification)") {
		t.Errorf("last note %q", sink.notesText[len(sink.notesText)-1])
	}
}

// TestHeldForWhatTheUserTook: how long a message was held ends when the user decided, not
// after a fault rule's delay that the forwarded message then met.
func TestHeldForWhatTheUserTook(t *testing.T) {
	now := time.Now()
	h := &Held{ID: 2, Since: now.Add(-800 * time.Millisecond), Raw: []byte(`{"jsonrpc":"2.0","method":"x"}`)}
	d := Decision{Verb: Forward, at: now}
	time.Sleep(50 * time.Millisecond) // the rule's delay, after the decision
	if got := decided(h, d, nil); !strings.HasPrefix(got, "held #2 forwarded after 800ms") {
		t.Errorf("note %q: want the 800ms the user took", got)
	}
}
