package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"sync/atomic"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
)

// traceBatch is the most events the --trace writer takes from its subscription at once.
const traceBatch = 64

// traceWriter writes a session's events as NDJSON (--trace). At exit it gets a bounded
// time to drain what is queued (--trace-drain): past it, the line being written is cut at
// the end of its chunk and one gap line stands for every event not written whole, so a
// slow reader of stderr cannot hold the process, even on one 20 MiB event.
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
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // the frames' bytes as they were
	for {
		// A few events at a time: what the writer holds while a slow reader takes them
		// stays small beside what the subscription's byte bound holds.
		evs, ok := t.sub.Next(context.Background(), traceBatch)
		if !ok {
			return
		}
		for i, e := range evs {
			if t.stop.Load() {
				t.skip(evs[i:])
				return
			}
			j := e.JSON()
			t.red.Event(&j)
			buf.Reset()
			_ = enc.Encode(j)
			// Controls that survive JSON's own escaping (C1, bidi, zero-width) reach a
			// terminal as \u escapes.
			if !t.writeLine(protocol.EscapeInvisibleJSON(buf.Bytes())) {
				// The drain time ran out inside this line: it ends where it was cut, and
				// the gap line counts its event with the rest. A write deadline that cut
				// it gets a moment more for these two.
				if f, ok := t.w.(*os.File); ok {
					_ = f.SetWriteDeadline(time.Now().Add(traceLast / 2))
				}
				_, _ = t.w.Write([]byte("\n"))
				t.skip(evs[i:])
				return
			}
		}
	}
}

// traceChunk is how much of a line the writer hands the reader at once, so that the end
// of the drain time is noticed inside a large event too.
const traceChunk = 64 << 10

// writeLine writes line in chunks; it reports false when it stopped before the end (the
// drain time is over, or the reader failed).
func (t *traceWriter) writeLine(line []byte) bool {
	for len(line) > 0 {
		if t.stop.Load() {
			return false
		}
		n := min(len(line), traceChunk)
		if _, err := t.w.Write(line[:n]); err != nil {
			return false
		}
		line = line[n:]
	}
	return true
}

// skip counts evs and whatever else is queued as one gap, and writes its line.
func (t *traceWriter) skip(evs []*session.Event) {
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
	line, _ := json.Marshal(session.NewGapEvent(g, at).JSON())
	_, _ = t.w.Write(append(line, '\n'))
}

// finish waits for the writer to drain the closed session's events, at most drain; then
// it has it stop, inside the line it is writing if need be (at a chunk's end), with a gap
// line for the rest. A reader that takes nothing at all would hold even one chunk: where
// stderr allows a deadline (a pipe), writes then fail after traceLast, and finish returns
// after traceLast however the writer fares.
func (t *traceWriter) finish(drain time.Duration) {
	timer := time.NewTimer(drain)
	defer timer.Stop()
	select {
	case <-t.done:
		return
	case <-timer.C:
	}
	t.stop.Store(true)
	if f, ok := t.w.(*os.File); ok {
		_ = f.SetWriteDeadline(time.Now().Add(traceLast)) // not every file has deadlines
	}
	select {
	case <-t.done:
	case <-time.After(2 * traceLast):
	}
}

// traceLast is how long, after the drain time, the writer may take to end its line and
// write the gap line.
const traceLast = 500 * time.Millisecond
