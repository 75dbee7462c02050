package session

import (
	"context"
	"sync"
)

// DefaultSubscriptionBound is how many undelivered events one subscription holds before it
// starts dropping its oldest ones.
const DefaultSubscriptionBound = 1 << 18

// bus fans events out to subscriptions. Publishing never blocks: each subscription has its
// own bounded queue, and a subscriber that falls behind loses its oldest undelivered events
// (counted in Dropped) rather than slowing the transport.
type bus struct {
	mu   sync.Mutex
	subs []*Subscription
}

func (b *bus) subscribe(bound int) *Subscription {
	if bound <= 0 {
		bound = DefaultSubscriptionBound
	}
	s := &Subscription{bound: bound, wake: make(chan struct{}, 1), bus: b}
	b.mu.Lock()
	b.subs = append(b.subs, s)
	b.mu.Unlock()
	return s
}

func (b *bus) publish(e *Event) {
	b.mu.Lock()
	for _, s := range b.subs {
		s.push(e)
	}
	b.mu.Unlock()
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
			break
		}
	}
	b.mu.Unlock()
}

// Subscription is one consumer's view of the event stream: every event from the moment it
// was made, in order, unless the consumer fell more than its bound behind.
type Subscription struct {
	bus     *bus
	mu      sync.Mutex
	queue   []*Event
	head    int // index of the first undelivered event in queue
	bound   int
	dropped uint64
	closed  bool
	wake    chan struct{}
}

func (s *Subscription) push(e *Event) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	if len(s.queue)-s.head >= s.bound {
		s.queue[s.head] = nil
		s.head++
		s.dropped++
	}
	s.queue = append(s.queue, e)
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func (s *Subscription) close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// Next waits for events and returns every one queued so far (at most max when max > 0). It
// returns ok=false once the session is closed and everything was delivered, or when ctx ends.
func (s *Subscription) Next(ctx context.Context, max int) (events []*Event, ok bool) {
	for {
		s.mu.Lock()
		n := len(s.queue) - s.head
		if n > 0 {
			if max > 0 && n > max {
				n = max
			}
			events = make([]*Event, n)
			copy(events, s.queue[s.head:s.head+n])
			clear(s.queue[s.head : s.head+n])
			s.head += n
			if s.head == len(s.queue) {
				s.queue = s.queue[:0]
				s.head = 0
			} else if s.head > 4096 && s.head > len(s.queue)/2 {
				s.queue = append(s.queue[:0], s.queue[s.head:]...)
				s.head = 0
			}
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

// Dropped is how many events this subscription lost by falling behind its bound.
func (s *Subscription) Dropped() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dropped
}

// Close stops the subscription; queued events are discarded.
func (s *Subscription) Close() {
	s.close()
	s.bus.remove(s)
}
