package cli

import (
	"context"
	"encoding/json"
	"io"
	"sync/atomic"
	"time"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
)

// traceBatch is the most events the --trace writer takes from its subscription at once.
const traceBatch = 64

// traceWriter writes a session's events as NDJSON (--trace). At exit it gets a bounded
// time to drain what is queued (--trace-drain): past it, the line being written is
// finished and one gap line stands for every event not written, so a slow reader of
// stderr cannot hold the process.
type traceWriter struct {
	sub  *session.Subscription
	red  *recordings.Redactor
	w    io.Writer
	stop atomic.Bool   // the drain time is over
	done chan struct{} // closed when the writer has returned
}

func newTraceWriter(sub *session.Subscription, red *recordings.Redactor, w io.Writer) *traceWriter {
	t := &traceWriter{sub: sub, red: red, w: w, done: make(chan struct{})}
	go t.run()
	return t
}

func (t *traceWriter) run() {
	defer close(t.done)
	enc := json.NewEncoder(t.w)
	for {
		// A few events at a time: what the writer holds while a slow reader takes them
		// stays small beside what the subscription's byte bound holds.
		evs, ok := t.sub.Next(context.Background(), traceBatch)
		if !ok {
			return
		}
		for i, e := range evs {
			if t.stop.Load() {
				t.skip(enc, evs[i:])
				return
			}
			j := e.JSON()
			t.red.Event(&j)
			_ = enc.Encode(j)
		}
	}
}

// skip counts evs and whatever else is queued as one gap, and writes its line.
func (t *traceWriter) skip(enc *json.Encoder, evs []*session.Event) {
	var g session.Gap
	var at time.Time
	gone, cancel := context.WithCancel(context.Background())
	cancel() // take what is queued, never wait
	for len(evs) > 0 {
		for _, e := range evs {
			at = e.Time
			if e.Kind == session.EvGap && e.Gap != nil {
				g.Add(*e.Gap)
				continue
			}
			g.Add(session.Gap{FirstSeq: e.Seq, LastSeq: e.Seq, Events: 1, Bytes: e.Size()})
		}
		evs, _ = t.sub.Next(gone, 0)
	}
	if g.Events == 0 {
		return
	}
	_ = enc.Encode(session.NewGapEvent(g, at).JSON())
}

// finish waits for the writer to drain the closed session's events, at most drain; then
// it has it stop after the line it is writing, with a gap line for the rest.
func (t *traceWriter) finish(drain time.Duration) {
	timer := time.NewTimer(drain)
	defer timer.Stop()
	select {
	case <-t.done:
		return
	case <-timer.C:
	}
	t.stop.Store(true)
	<-t.done
}
