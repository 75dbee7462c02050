package recordings

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/mcpscope/mcpscope/session"
)

// Options shape a Writer.
type Options struct {
	// Overwrite replaces an existing file; by default Create refuses to.
	Overwrite bool
	// NoRedact keeps secrets in the recording.
	NoRedact bool
	// Secrets are values to mask wherever they occur (bearer tokens, -e values, secret
	// header values). Values shorter than six characters, numbers and JSON literals are
	// not searched for: they occur in ordinary traffic.
	Secrets []string
}

// Writer appends a session's events to a recording as they happen. Each line is written
// with one write and nothing is buffered between events, so a process killed mid-session
// leaves a file that is valid up to its last whole line.
type Writer struct {
	red *redactor

	mu     sync.Mutex
	f      *os.File
	first  time.Time // time of the first event: mono_ns counts from here
	n      int
	err    error  // first write error; later writes are not attempted
	buf    []byte // the line being written, reused from event to event
	closed bool

	size int64 // bytes in the file so far: where the next line starts
	locs locator

	active sync.WaitGroup // Record goroutines still writing
}

// Create makes a new recording at path (mode 0600) and writes its header. It fails when
// the file exists unless o.Overwrite. Zero header fields are filled in: Format, Version
// (mcpscope's) and Started (now); Server is masked like everything else.
func Create(path string, h Header, o Options) (*Writer, error) {
	flags := os.O_WRONLY | os.O_CREATE | os.O_EXCL | os.O_APPEND
	if o.Overwrite {
		flags = os.O_WRONLY | os.O_CREATE | os.O_TRUNC | os.O_APPEND
	}
	f, err := os.OpenFile(path, flags, 0o600)
	if err != nil {
		if errors.Is(err, os.ErrExist) {
			return nil, fmt.Errorf("recording %s already exists: choose another file or remove it", path)
		}
		return nil, fmt.Errorf("create recording: %w", err)
	}
	if o.Overwrite {
		_ = f.Chmod(0o600) // an existing file keeps its mode otherwise
	}
	w := &Writer{f: f, red: newRedactor(o.Secrets, o.NoRedact)}
	h.Format = FormatVersion
	if h.Version == "" {
		h.Version = session.Version()
	}
	if h.Started.IsZero() {
		h.Started = time.Now()
	}
	h.Started = h.Started.Round(0)
	h.Server = w.red.String(h.Server)
	h.Redacted = !o.NoRedact
	b, err := marshalAny(h)
	if err == nil {
		_, err = f.Write(append(b, '\n'))
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("write recording header: %w", err)
	}
	w.size = int64(len(b)) + 1
	return w, nil
}

// Write appends one event. After a write error every later Write returns it.
func (w *Writer) Write(e *session.Event) error { return w.WriteGen(e, 0) }

// WriteGen appends one event of session gen (a recording that spans restarts numbers its
// sessions 1, 2, …; 0 leaves the "gen" member out).
func (w *Writer) WriteGen(e *session.Event, gen int) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return w.err
	}
	if w.closed {
		return errors.New("recording closed")
	}
	if w.first.IsZero() {
		w.first = e.Time
	}
	l := line{EventJSON: e.JSON(), MonoNS: int64(e.Time.Sub(w.first)), Gen: gen, Exchange: e.Recv.Exchange, SSEEvent: e.Recv.SSEEvent}
	w.red.event(&l.EventJSON)
	b, err := appendEventLine(w.buf[:0], &l) // one line, newline included
	if err != nil {
		b, err = encodeLineJSON(w.buf[:0], &l) // a value only encoding/json can judge
	}
	if err != nil {
		w.err = fmt.Errorf("encode event %d: %w", e.Seq, err)
		return w.err
	}
	w.buf = b
	if _, err := w.f.Write(b); err != nil {
		w.err = fmt.Errorf("write recording: %w", err)
		w.locs.wake()
		return w.err
	}
	w.locs.wrote(gen, e, w.size, int64(len(b)-1))
	w.size += int64(len(b))
	if cap(w.buf) > 1<<20 {
		w.buf = nil // do not keep a huge frame's buffer for the rest of the session
	}
	w.n++
	return nil
}

// Record writes every event of sub in the background until the subscription ends (the
// session closed). Subscribe before Connect to record the handshake, and make sub lossless
// (session.SubscribeOptions.Lossless): a recording is the source of truth, so a server that
// sends faster than the file takes it is slowed down rather than recorded with holes. A
// lossy sub's gap events are written as they come, so a loss is at least in the file.
func (w *Writer) Record(sub *session.Subscription) { w.RecordGen(sub, 0) }

// RecordGen is Record for session gen of a recording that spans several sessions (the
// interactive view's restarts): it may be called once per session, and the sessions'
// events are written as they come, each line naming its session.
func (w *Writer) RecordGen(sub *session.Subscription, gen int) {
	w.active.Add(1)
	go func() {
		defer w.active.Done()
		for {
			evs, ok := sub.Next(context.Background(), 0)
			if !ok {
				w.mu.Lock()
				w.locs.end(gen)
				w.mu.Unlock()
				return
			}
			for _, e := range evs {
				if w.WriteGen(e, gen) != nil {
					sub.Close() // nothing more can be written: stop holding events
					return
				}
			}
		}
	}()
}

// Events is how many events were written.
func (w *Writer) Events() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.n
}

// Close waits for Record (if used) to write the last event, which it does once the session
// is closed, then syncs and closes the file. It returns the first write error, if any.
func (w *Writer) Close() error {
	w.active.Wait()
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return w.err
	}
	w.closed = true
	w.locs.wake()
	var serr error
	if fi, err := w.f.Stat(); err == nil && fi.Mode().IsRegular() {
		serr = w.f.Sync() // a pipe or a terminal cannot be synced, and needs not be
	}
	cerr := w.f.Close()
	if w.err != nil {
		return w.err
	}
	if serr != nil {
		return fmt.Errorf("sync recording: %w", serr)
	}
	if cerr != nil {
		return fmt.Errorf("close recording: %w", cerr)
	}
	return nil
}
