package session_test

import (
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/session"
)

// TestLosslessSubscriptionSlowsFlood floods 64 KiB notifications from the badserver to a
// lossless subscription bounded at 1 MiB whose consumer is slow: the transport waits, so
// no batch ever holds much more than the bound (a flood at pipe speed would pile up far
// more between two reads), and every event arrives, in order, with no gap.
func TestLosslessSubscriptionSlowsFlood(t *testing.T) {
	s, _, _ := connectBad(t)
	const bound, count = 1 << 20, 300
	sub := s.SubscribeWith(session.SubscribeOptions{Bytes: bound, Lossless: true})
	called := make(chan error, 1)
	go func() {
		_, err := s.Call(testCtx(t), "tools/call", map[string]any{"name": "flood", "arguments": map[string]any{"size": 65536, "count": count}})
		called <- err
	}()
	var last uint64
	notes, biggest := 0, int64(0)
	for done := false; !done; {
		time.Sleep(40 * time.Millisecond) // the consumer's pace
		evs, ok := sub.Next(testCtx(t), 0)
		if !ok {
			t.Fatal("the subscription ended early")
		}
		var batch int64
		for _, e := range evs {
			if e.Kind == session.EvGap || (last != 0 && e.Seq != last+1) {
				t.Fatalf("lost events before seq %d: %s", e.Seq, e.Summary())
			}
			last = e.Seq
			batch += e.Size()
			if e.Kind != session.EvFrame {
				continue
			}
			if e.Frame.Method == "notifications/message" {
				notes++
			}
			if e.Frame.Kind.IsResponse() && e.Corr.Method == "tools/call" {
				done = true
			}
		}
		biggest = max(biggest, batch)
	}
	if err := <-called; err != nil {
		t.Fatal(err)
	}
	if notes != count {
		t.Errorf("%d of %d notifications arrived", notes, count)
	}
	// The bound, the event that crossed it and what others publish meanwhile (the
	// response mcpscope may send): never the flood's backlog.
	if limit := int64(bound + 3*(65536+1024)); biggest > limit {
		t.Errorf("a batch held %d bytes, over the bound %d (+ slack): the transport did not wait", biggest, bound)
	}
	t.Logf("largest batch %d bytes", biggest)
	if sub.Dropped() != 0 {
		t.Errorf("a lossless subscription dropped %d", sub.Dropped())
	}
	sub.Close()
	closed := make(chan struct{})
	go func() { s.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(30 * time.Second):
		t.Fatal("closing the session with a lossless subscription hung")
	}
}

// TestLosslessStalledConsumerCloses: a recorder that stops taking events holds the flood
// back, and closing the session still ends promptly, the pending call failing.
func TestLosslessStalledConsumerCloses(t *testing.T) {
	s, rec, _ := connectBad(t)
	stalled := s.SubscribeWith(session.SubscribeOptions{Bytes: 256 << 10, Lossless: true})
	called := make(chan error, 1)
	go func() {
		_, err := s.Call(testCtx(t), "tools/call", map[string]any{"name": "flood", "arguments": map[string]any{"size": 65536, "count": 2000}})
		called <- err
	}()
	rec.WaitFor(t, 30*time.Second, "the flood", func(e *session.Event) bool {
		return e.Kind == session.EvFrame && e.Frame.Method == "notifications/message"
	})
	closed := make(chan struct{})
	go func() { s.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(30 * time.Second):
		t.Fatal("closing the session hung on a stalled lossless subscription")
	}
	if err := <-called; err == nil {
		t.Error("the flood call finished although the recorder held the server back")
	}
	n := 0
	for {
		evs, ok := stalled.Next(testCtx(t), 0)
		if !ok {
			break
		}
		for _, e := range evs {
			if e.Kind == session.EvGap {
				t.Fatalf("the stalled lossless subscription lost events: %s", e.Text)
			}
		}
		n += len(evs)
	}
	if n == 0 {
		t.Error("the stalled subscription delivered nothing after the close")
	}
}
