package export

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/secret"
)

// liveQueue bounds the events a Live exporter holds before it turns them into spans;
// beyond it events are dropped, and counted.
const liveQueue = 8192

// Ended spans wait for their batch in a queue of liveSpanQueue (making spans waits when it
// is full); a batch is sent when it holds otlpBatchSize spans or liveDelay after its first.
const (
	liveSpanQueue = 2048
	liveDelay     = 5 * time.Second
)

// Live exports a tap's events as spans while they happen (tap --otlp): Observe hands it
// each event without blocking, a goroutine of its own makes the spans, and another sends
// them in batches to the OTLP/HTTP endpoint.
type Live struct {
	m       *secret.Masker
	ch      chan *session.Event
	spans   chan *span
	sent    chan struct{}
	cancel  context.CancelFunc
	once    sync.Once
	dropped atomic.Uint64
	failed  int   // spans not sent; read after sent is closed
	err     error // the first failure
}

// NewLive starts a live exporter for a tap described by h; m masks what is exported as the
// tap's recording is masked. ctx bounds nothing after the start: the last spans are sent
// by Close, whose context bounds them, even after the tap's context has ended.
func NewLive(_ context.Context, h recordings.Header, m *secret.Masker, o OTLPOptions) (*Live, error) {
	snd, err := newSender(o)
	if err != nil {
		return nil, err
	}
	sctx, cancel := context.WithCancel(context.Background())
	l := &Live{m: m, ch: make(chan *session.Event, liveQueue), spans: make(chan *span, liveSpanQueue),
		sent: make(chan struct{}), cancel: cancel}
	sp := newSpans(func(s *span) { l.spans <- s }, h)
	go func() {
		defer close(l.spans)
		for e := range l.ch {
			sp.Add(FromEvent(e, 0, 0, l.m))
		}
		sp.Finish()
	}()
	go l.send(sctx, snd, batchOf(h, o))
	return l, nil
}

// send batches the ended spans and posts each batch, until the spans end.
func (l *Live) send(ctx context.Context, snd *otlpSender, b *otlpBatch) {
	defer close(l.sent)
	var pending []*span
	timer := time.NewTimer(liveDelay)
	timer.Stop()
	flush := func() {
		timer.Stop()
		if len(pending) == 0 {
			return
		}
		if err := snd.send(ctx, b.protobuf(pending)); err != nil {
			l.failed += len(pending)
			if l.err == nil {
				l.err = err
			}
		}
		pending = pending[:0]
	}
	for {
		select {
		case s, ok := <-l.spans:
			if !ok {
				flush()
				return
			}
			if pending = append(pending, s); len(pending) == 1 {
				timer.Reset(liveDelay)
			}
			if len(pending) >= otlpBatchSize {
				flush()
			}
		case <-timer.C:
			flush()
		}
	}
}

// Observe takes the tap's next event; it never blocks (an event that finds the queue full
// is dropped and counted).
func (l *Live) Observe(e *session.Event) {
	select {
	case l.ch <- e:
	default:
		l.dropped.Add(1)
	}
}

// Dropped is how many events found the queue full.
func (l *Live) Dropped() uint64 { return l.dropped.Load() }

// Close ends the open spans (unanswered requests, the session's span) and sends what is
// left, within ctx. Observe must not be called during or after Close. Its error says how
// many spans were not sent, and why.
func (l *Live) Close(ctx context.Context) error {
	l.once.Do(func() { close(l.ch) })
	select {
	case <-l.sent:
	case <-ctx.Done():
		l.cancel()
		<-l.sent
	}
	l.cancel()
	if l.err != nil {
		return fmt.Errorf("%d spans were not sent: %w", l.failed, l.err)
	}
	return ctx.Err()
}
