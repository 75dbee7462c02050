package session_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// TestPairingUntracked checks that the session pairs what it sends without tracking: the
// answer to a batch sent raw names the batch in its Corr (and carries no unknown-id
// finding), and every notifications/cancelled mcpscope sends names the request it cancels,
// so that no consumer pairs frames again.
func TestPairingUntracked(t *testing.T) {
	s, rec, _ := connectBad(t)
	ctx := testCtx(t)

	raw := []byte(`[{"jsonrpc":"2.0","id":"b1","method":"ping"},{"jsonrpc":"2.0","id":"b2","method":"no/such"},{"jsonrpc":"2.0","method":"notifications/x"}]`)
	rec.Exempt(raw) // a batch: not in the negotiated revision's schema, sent on purpose
	if _, err := s.SendRaw(ctx, raw); err != nil {
		t.Fatalf("send the batch: %v", err)
	}
	sent := rec.WaitFor(t, 10*time.Second, "the batch sent", func(e *session.Event) bool {
		return sessiontest.Sent("")(e) && e.Frame.Kind == protocol.KindBatch
	})
	answer := rec.WaitFor(t, 10*time.Second, "the batch's answer", func(e *session.Event) bool {
		return sessiontest.Received("")(e) && e.Frame.Kind == protocol.KindBatch
	})
	if answer.Corr.RequestSeq != sent.Seq || answer.Corr.Latency <= 0 {
		t.Errorf("the batch's answer: Corr %+v, want RequestSeq %d and a latency", answer.Corr, sent.Seq)
	}
	if sessiontest.HasFinding(protocol.FindUnknownID)(answer) {
		t.Errorf("the batch's answer is flagged as answering nothing: %+v", session.AllFindings(answer.Frame))
	}

	// A request the session gives up on (its context ends): the cancellation names it.
	short, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	if _, err := s.Call(short, "tools/call", map[string]any{"name": "stall", "arguments": map[string]any{}}); !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) {
		t.Fatalf("stall: %v, want the context's end", err)
	}
	req := rec.WaitFor(t, 10*time.Second, "the stalled call", sessiontest.Sent("tools/call"))
	note := rec.WaitFor(t, 10*time.Second, "the cancellation", sessiontest.Sent("notifications/cancelled"))
	if note.Corr.RequestSeq != req.Seq {
		t.Errorf("the cancellation's Corr.RequestSeq = %d, want the call's %d", note.Corr.RequestSeq, req.Seq)
	}

	// A cancellation typed by hand of an id nobody used names nothing.
	hand := []byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"nobody"}}`)
	if _, err := s.SendRaw(ctx, hand); err != nil {
		t.Fatalf("send a cancellation of an unknown id: %v", err)
	}
	typed := rec.WaitFor(t, 10*time.Second, "the typed cancellation", func(e *session.Event) bool {
		return sessiontest.Sent("notifications/cancelled")(e) && e.Seq != note.Seq
	})
	if typed.Corr.RequestSeq != 0 {
		t.Errorf("a cancellation of an id nobody used names request %d", typed.Corr.RequestSeq)
	}
}
