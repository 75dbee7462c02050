package session

import (
	"context"
	"testing"
	"time"
)

func TestSubscriptionBoundDropsOldest(t *testing.T) {
	var b bus
	sub := b.subscribe(SubscribeOptions{Events: 3})
	for i := uint64(1); i <= 5; i++ {
		b.publish(&Event{Seq: i})
	}
	evs, ok := sub.Next(context.Background(), 0)
	if !ok || len(evs) != 4 || evs[1].Seq != 3 || evs[3].Seq != 5 {
		t.Fatalf("got %d events (ok=%v), first %v", len(evs), ok, evs)
	}
	if g := evs[0].Gap; evs[0].Kind != EvGap || g == nil || g.FirstSeq != 1 || g.LastSeq != 2 || g.Events != 2 {
		t.Fatalf("the loss must come first as one gap event: %+v", evs[0])
	}
	if sub.Dropped() != 2 {
		t.Errorf("dropped = %d, want 2", sub.Dropped())
	}
}

func TestSubscriptionNextMaxAndClose(t *testing.T) {
	var b bus
	sub := b.subscribe(SubscribeOptions{})
	for i := uint64(1); i <= 10; i++ {
		b.publish(&Event{Seq: i})
	}
	evs, _ := sub.Next(context.Background(), 4)
	if len(evs) != 4 || evs[3].Seq != 4 {
		t.Fatalf("max 4: got %d", len(evs))
	}
	b.closeAll()
	evs, ok := sub.Next(context.Background(), 0)
	if !ok || len(evs) != 6 {
		t.Fatalf("after close the rest is still delivered: got %d ok=%v", len(evs), ok)
	}
	if _, ok := sub.Next(context.Background(), 0); ok {
		t.Fatal("a drained closed subscription must report !ok")
	}
}

func TestSubscriptionNextWaitsAndHonoursContext(t *testing.T) {
	var b bus
	sub := b.subscribe(SubscribeOptions{})
	got := make(chan int, 1)
	go func() {
		evs, _ := sub.Next(context.Background(), 0)
		got <- len(evs)
	}()
	b.publish(&Event{Seq: 1})
	select {
	case n := <-got:
		if n != 1 {
			t.Fatalf("got %d", n)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Next did not wake on publish")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, ok := sub.Next(ctx, 0); ok {
		t.Fatal("a cancelled context must end Next")
	}
}
