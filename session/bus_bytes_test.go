package session

import (
	"bytes"
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
)

// frameEvent is an event holding a frame of n raw bytes.
func frameEvent(seq uint64, n int) *Event {
	return &Event{Seq: seq, Kind: EvFrame, Time: time.Unix(int64(seq), 0), Frame: &protocol.Frame{Raw: bytes.Repeat([]byte("x"), n)}}
}

func TestEventSizeCountsWhatItHolds(t *testing.T) {
	small, big := frameEvent(1, 10), frameEvent(2, 1<<20)
	if d := big.Size() - small.Size(); d != 1<<20-10 {
		t.Errorf("a frame's raw bytes must count one for one: difference %d", d)
	}
	txt := &Event{Kind: EvStderr, Text: string(make([]byte, 5000))}
	if txt.Size() < 5000 {
		t.Errorf("stderr text not counted: %d", txt.Size())
	}
	if (&Event{}).Size() <= 0 {
		t.Error("every event costs something")
	}
}

// A lossy subscription over its byte bound drops its oldest events and delivers exactly one
// gap event for them, with the exact counts, before what it kept.
func TestSubscriptionByteBoundGap(t *testing.T) {
	var b bus
	per := frameEvent(0, 1000).Size()
	sub := b.subscribe(SubscribeOptions{Bytes: 10 * per})
	for i := uint64(1); i <= 25; i++ {
		b.publish(frameEvent(i, 1000))
	}
	evs, ok := sub.Next(context.Background(), 0)
	if !ok || len(evs) != 11 {
		t.Fatalf("want one gap and the 10 events that fit, got %d", len(evs))
	}
	g := evs[0].Gap
	if evs[0].Kind != EvGap || g == nil || *g != (Gap{FirstSeq: 1, LastSeq: 15, Events: 15, Bytes: 15 * per}) {
		t.Fatalf("gap event: %+v %+v", evs[0], g)
	}
	if evs[1].Seq != 16 || evs[10].Seq != 25 {
		t.Errorf("kept %d..%d, want 16..25", evs[1].Seq, evs[10].Seq)
	}
	if want := "15 events dropped between seq 1 and 15 (" + HumanBytes(15*per) + ")"; evs[0].Text != want || evs[0].Summary() != "gap "+want {
		t.Errorf("text %q, summary %q", evs[0].Text, evs[0].Summary())
	}
	if !evs[0].Time.Equal(time.Unix(15, 0)) {
		t.Errorf("a gap has the time of the last event lost: %v", evs[0].Time)
	}
	if sub.Dropped() != 15 {
		t.Errorf("Dropped %d, want 15", sub.Dropped())
	}
	// A larger event than the whole bound is still delivered, alone.
	b.publish(frameEvent(26, 20*1000))
	b.publish(frameEvent(27, 20*1000))
	evs, _ = sub.Next(context.Background(), 0)
	if len(evs) != 2 || evs[0].Kind != EvGap || evs[0].Gap.FirstSeq != 26 || evs[0].Gap.Events != 1 || evs[1].Seq != 27 {
		t.Fatalf("oversized events: %v", evs)
	}
	if evs[0].Text != "1 event dropped at seq 26 ("+HumanBytes(evs[1].Size())+")" {
		t.Errorf("one lost event: %q", evs[0].Text)
	}
}

// The gap counts against max, and a loss that continues while undelivered stays one gap.
func TestSubscriptionGapWithMax(t *testing.T) {
	var b bus
	sub := b.subscribe(SubscribeOptions{Events: 4})
	for i := uint64(1); i <= 6; i++ {
		b.publish(&Event{Seq: i})
	}
	for i := uint64(7); i <= 9; i++ {
		b.publish(&Event{Seq: i})
	}
	evs, _ := sub.Next(context.Background(), 1)
	if len(evs) != 1 || evs[0].Kind != EvGap || evs[0].Gap.FirstSeq != 1 || evs[0].Gap.LastSeq != 5 || evs[0].Gap.Events != 5 {
		t.Fatalf("first Next(max 1): %+v", evs)
	}
	evs, _ = sub.Next(context.Background(), 2)
	if len(evs) != 2 || evs[0].Seq != 6 || evs[1].Seq != 7 {
		t.Fatalf("second Next(max 2): %v", evs)
	}
	evs, _ = sub.Next(context.Background(), 0)
	if len(evs) != 2 || evs[1].Seq != 9 {
		t.Fatalf("rest: %v", evs)
	}
}

// A lossless subscription never drops: past its bound waitRoom holds the publisher until
// the consumer takes events, and returns at once when the subscription or the session
// closes.
func TestLosslessSubscriptionHoldsBack(t *testing.T) {
	var b bus
	sub := b.subscribe(SubscribeOptions{Events: 2, Lossless: true})
	lossy := b.subscribe(SubscribeOptions{Events: 2})
	done := make(chan struct{})
	published := make(chan uint64, 10)
	go func() {
		for i := uint64(1); i <= 10; i++ {
			b.publish(&Event{Seq: i})
			published <- i
			b.waitRoom(done)
		}
		close(published)
	}()
	waitFor := func(want uint64) {
		t.Helper()
		for {
			select {
			case n := <-published:
				if n > want {
					t.Fatalf("publisher got past %d without room (at %d)", want, n)
				}
				if n == want {
					return
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("publisher did not reach %d", want)
			}
		}
	}
	waitFor(2) // the third publish waits for room
	select {
	case n := <-published:
		t.Fatalf("published %d while the lossless subscription was full", n)
	case <-time.After(50 * time.Millisecond):
	}
	var got []uint64
	for len(got) < 10 {
		evs, ok := sub.Next(context.Background(), 0)
		if !ok {
			t.Fatal("ended early")
		}
		for _, e := range evs {
			if e.Kind == EvGap {
				t.Fatalf("a lossless subscription lost events: %v", e.Text)
			}
			got = append(got, e.Seq)
		}
	}
	for i, s := range got {
		if s != uint64(i+1) {
			t.Fatalf("order: %v", got)
		}
	}
	if sub.Dropped() != 0 || lossy.Dropped() != 8 {
		t.Errorf("dropped: lossless %d, lossy %d", sub.Dropped(), lossy.Dropped())
	}

	// Closing ends the wait: by the session (done) and by the consumer (Close).
	for i := uint64(11); i <= 12; i++ {
		b.publish(&Event{Seq: i})
	}
	waited := make(chan struct{})
	go func() { b.waitRoom(done); close(waited) }()
	close(done)
	select {
	case <-waited:
	case <-time.After(10 * time.Second):
		t.Fatal("waitRoom did not return when the session closed")
	}
	waited = make(chan struct{})
	go func() { b.waitRoom(make(chan struct{})); close(waited) }()
	sub.Close()
	select {
	case <-waited:
	case <-time.After(10 * time.Second):
		t.Fatal("waitRoom did not return when the subscription closed")
	}
	if b.lossless.Load() != 0 {
		t.Error("a closed lossless subscription still counts")
	}
}

// Two transport readers (stdout and stderr) waiting for room both go on after one take:
// the one left behind could hold the server up with nothing more to take.
func TestLosslessWakesEveryWaiter(t *testing.T) {
	var b bus
	sub := b.subscribe(SubscribeOptions{Events: 1, Lossless: true})
	b.publish(&Event{Seq: 1})
	done := make(chan struct{})
	woke := make(chan int, 2)
	for i := range 2 {
		go func() { b.waitRoom(done); woke <- i }()
	}
	deadline := time.Now().Add(10 * time.Second)
	for waiting := false; !waiting; {
		sub.mu.Lock()
		waiting = sub.room != nil // a waiter holds the room channel
		sub.mu.Unlock()
		if time.Now().After(deadline) {
			t.Fatal("nobody waits for room")
		}
		runtime.Gosched()
	}
	if evs, _ := sub.Next(context.Background(), 0); len(evs) != 1 {
		t.Fatalf("took %d", len(evs))
	}
	for range 2 {
		select {
		case <-woke:
		case <-time.After(10 * time.Second):
			t.Fatal("a waiter was left waiting after the queue emptied")
		}
	}
}
