package session

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// DefaultSubscriptionBound is how many undelivered events one subscription holds before it
// starts dropping its oldest ones (or, lossless, holding the transport back).
const DefaultSubscriptionBound = 1 << 18

// DefaultSubscriptionBytes is how many bytes of undelivered events (Event.Size) one
// subscription holds before it starts dropping its oldest ones (or, lossless, holding the
// transport back): 64 MiB. The newest event is always kept, however large.
const DefaultSubscriptionBytes = 64 << 20

// SubscribeOptions shape one subscription. Zero values take the session's defaults.
type SubscribeOptions struct {
	// Events bounds the undelivered events by count (≤ 0: Config.EventBound, else
	// DefaultSubscriptionBound).
	Events int
	// Bytes bounds the undelivered events by size (≤ 0: Config.EventBytes, else
	// DefaultSubscriptionBytes).
	Bytes int64
	// Lossless never drops: past its bound the subscription holds the transport back (the
	// reader of the server's output waits until the consumer takes events), so the server
	// is slowed instead. For recorders, which must keep every event. The wait ends when
	// the subscription or the session closes, so closing never deadlocks.
	Lossless bool
}

// bus fans events out to subscriptions. Publishing never blocks: each subscription has its
// own queue bounded by count and bytes. A lossy subscriber that falls behind loses its
// oldest undelivered events and gets one EvGap event in their place; a lossless one makes
// the transport wait in waitRoom, after publishing and outside every lock.
type bus struct {
	mu       sync.Mutex
	subs     []*Subscription
	lossless atomic.Int32 // lossless subscriptions open: waitRoom's fast path
}

func (b *bus) subscribe(o SubscribeOptions) *Subscription {
	if o.Events <= 0 {
		o.Events = DefaultSubscriptionBound
	}
	if o.Bytes <= 0 {
		o.Bytes = DefaultSubscriptionBytes
	}
	s := &Subscription{lossless: o.Lossless, q: Queue[*Event]{MaxItems: o.Events, MaxBytes: o.Bytes, Lossless: o.Lossless},
		wake: make(chan struct{}, 1), bus: b}
	b.mu.Lock()
	b.subs = append(b.subs, s)
	b.mu.Unlock()
	if o.Lossless {
		b.lossless.Add(1)
	}
	return s
}

func (b *bus) publish(e *Event) {
	b.mu.Lock()
	for _, s := range b.subs {
		s.push(e)
	}
	b.mu.Unlock()
}

// waitRoom blocks while a lossless subscription is over its bound, until its consumer
// takes events, it closes, or done is closed. Transports call it (through the session's
// sink) after each thing they report, holding no lock: that is the backpressure.
func (b *bus) waitRoom(done <-chan struct{}) {
	for b.lossless.Load() > 0 {
		var room <-chan struct{}
		b.mu.Lock()
		for _, s := range b.subs {
			if room = s.roomWait(); room != nil {
				break
			}
		}
		b.mu.Unlock()
		if room == nil {
			return
		}
		select {
		case <-room:
		case <-done:
			return
		}
	}
}

func (b *bus) closeAll() {
	b.mu.Lock()
	for _, s := range b.subs {
		s.close()
	}
	b.mu.Unlock()
}

func (b *bus) remove(s *Subscription) {
	b.mu.Lock()
	for i, x := range b.subs {
		if x == s {
			b.subs = append(b.subs[:i], b.subs[i+1:]...)
			if s.lossless {
				b.lossless.Add(-1)
			}
			break
		}
	}
	b.mu.Unlock()
}

// Subscription is one consumer's view of the event stream: every event from the moment it
// was made, in order; where a lossy subscriber fell more than its bound behind, one EvGap
// event stands for the events it lost.
type Subscription struct {
	bus      *bus
	lossless bool
	mu       sync.Mutex
	q        Queue[*Event]
	closed   bool
	wake     chan struct{} // an event arrived or the subscription closed
	room     chan struct{} // lossless and full: closed when the consumer takes events or it closes
}

func (s *Subscription) push(e *Event) {
	size := e.Size()
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.q.Push(e, e.Seq, size, e.Time)
	s.mu.Unlock()
	signal(s.wake)
}

// roomWait returns nil unless s is a lossless subscription that holds back the transport;
// then a channel closed once it may have room. Every waiter gets the same channel, so one
// take wakes them all.
func (s *Subscription) roomWait() <-chan struct{} {
	if !s.lossless {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || !s.q.Full() {
		return nil
	}
	if s.room == nil {
		s.room = make(chan struct{})
	}
	return s.room
}

// freeRoom wakes whoever waits for room. s.mu is held.
func (s *Subscription) freeRoom() {
	if s.room != nil {
		close(s.room)
		s.room = nil
	}
}

func (s *Subscription) close() {
	s.mu.Lock()
	s.closed = true
	s.freeRoom()
	s.mu.Unlock()
	signal(s.wake)
}

// signal wakes the one waiter of c, if any, without blocking.
func signal(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

// Next waits for events and returns every one queued so far (at most max when max > 0). A
// loss since the last call comes first, as one EvGap event. It returns ok=false once the
// session is closed and everything was delivered, or when ctx ends.
func (s *Subscription) Next(ctx context.Context, max int) (events []*Event, ok bool) {
	for {
		s.mu.Lock()
		if s.q.Ready() {
			events = s.take(max)
			s.freeRoom()
			s.mu.Unlock()
			return events, true
		}
		closed := s.closed
		s.mu.Unlock()
		if closed {
			return nil, false
		}
		select {
		case <-ctx.Done():
			return nil, false
		case <-s.wake:
		}
	}
}

// take removes and returns the pending loss (as an EvGap event) and the queued events, at
// most max in all when max > 0. s.mu is held.
func (s *Subscription) take(max int) []*Event {
	gap, at, evs := s.q.Take(max)
	if gap == nil {
		return evs
	}
	return append([]*Event{NewGapEvent(*gap, at)}, evs...)
}

// NewGapEvent is the event that stands for a loss: Seq 0, the time of the last event lost.
func NewGapEvent(g Gap, at time.Time) *Event {
	return &Event{Kind: EvGap, Time: at, Gap: &g, Text: g.String()}
}

// Dropped is how many events this subscription lost by falling behind its bound (always 0
// for a lossless one). Each loss reaches the consumer as an EvGap event; Dropped may count
// a loss whose gap event Next has not returned yet.
func (s *Subscription) Dropped() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.q.Dropped()
}

// Close stops the subscription; queued events are discarded.
func (s *Subscription) Close() {
	s.close()
	s.bus.remove(s)
}
