package export

import (
	"context"
	"sync"
	"sync/atomic"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/secret"
)

// liveQueue bounds the events a Live exporter holds before it turns them into spans;
// beyond it events are dropped, and counted.
const liveQueue = 8192

// Live exports a tap's events as spans while they happen (tap --otlp): Observe hands it
// each event without blocking, a goroutine of its own makes the spans, and the SDK's batch
// processor sends them to the OTLP/HTTP endpoint.
type Live struct {
	tp      *sdktrace.TracerProvider
	m       *secret.Masker
	ch      chan *session.Event
	done    chan struct{}
	once    sync.Once
	dropped atomic.Uint64
}

// NewLive starts a live exporter for a tap described by h; m masks what is exported as the
// tap's recording is masked.
func NewLive(ctx context.Context, h recordings.Header, m *secret.Masker, o OTLPOptions) (*Live, error) {
	exp, err := httpExporter(ctx, o)
	if err != nil {
		return nil, err
	}
	l := &Live{tp: provider(exp, h, o), m: m, ch: make(chan *session.Event, liveQueue), done: make(chan struct{})}
	sp := NewSpans(l.tp.Tracer(ScopeName, trace.WithInstrumentationVersion(o.Version)), h)
	go func() {
		defer close(l.done)
		for e := range l.ch {
			sp.Add(FromEvent(e, 0, 0, l.m))
		}
		sp.Finish()
	}()
	return l, nil
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
// left, within ctx. Observe must not be called during or after Close.
func (l *Live) Close(ctx context.Context) error {
	l.once.Do(func() { close(l.ch) })
	select {
	case <-l.done:
	case <-ctx.Done():
	}
	return l.tp.Shutdown(ctx)
}
