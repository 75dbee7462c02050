package recordings

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/mcpscope/mcpscope/session"
)

// Loc is where one event line is in a recording: its offset and length in bytes (without
// the newline).
type Loc struct {
	Off int64
	Len int64
}

// genSeq names one event of a recording that spans several sessions.
type genSeq struct {
	gen int
	seq uint64
}

// locator remembers where the large frames a Writer wrote are, so that a reader holding
// only their heads (the interactive view) can read them back whole without indexing the
// file. It keeps one small entry per indexed line, and only for lines of frames of at least
// min bytes. Guarded by the Writer's mutex.
type locator struct {
	min     int64          // frames of at least this many bytes are indexed; 0: none
	locs    map[genSeq]Loc // the indexed lines
	written map[int]uint64 // per session: the last Seq written
	ended   map[int]bool   // sessions whose events are all written (Record's subscription ended)
	waiting chan struct{}  // closed at the next write, for Locate; nil when nobody waits
}

// wrote notes that event e of session gen was written at off (n bytes).
func (l *locator) wrote(gen int, e *session.Event, off, n int64) {
	if l.min > 0 {
		if l.written == nil {
			l.written, l.locs = map[int]uint64{}, map[genSeq]Loc{}
		}
		l.written[gen] = max(l.written[gen], e.Seq)
		if e.Frame != nil && int64(len(e.Frame.Raw)) >= l.min {
			l.locs[genSeq{gen, e.Seq}] = Loc{Off: off, Len: n}
		}
	}
	l.wake()
}

// end notes that every event of session gen was written.
func (l *locator) end(gen int) {
	if l.ended == nil {
		l.ended = map[int]bool{}
	}
	l.ended[gen] = true
	l.wake()
}

// wake releases the callers of Locate waiting for the next write.
func (l *locator) wake() {
	if l.waiting != nil {
		close(l.waiting)
		l.waiting = nil
	}
}

// IndexFrames makes the writer remember where the frames of at least min bytes it writes
// from now on are (see Locate). Call it before the first event is written.
func (w *Writer) IndexFrames(min int64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.locs.min = min
}

// ErrNotRecorded reports that an event Locate was asked for was not written to the
// recording (its subscription dropped it, or it is not a frame the writer indexes).
var ErrNotRecorded = errors.New("not in the recording")

// Locate returns where the line of event seq of session gen is, for a frame the writer
// indexed (IndexFrames). When the writer has not reached the event yet, it waits until it
// has, until the writer fails or closes, or until ctx ends.
func (w *Writer) Locate(ctx context.Context, gen int, seq uint64) (Loc, error) {
	w.mu.Lock()
	for {
		l := &w.locs
		if loc, ok := l.locs[genSeq{gen, seq}]; ok {
			w.mu.Unlock()
			return loc, nil
		}
		switch {
		case l.min <= 0:
			w.mu.Unlock()
			return Loc{}, fmt.Errorf("event %d: %w (the recording keeps no index of large frames)", seq, ErrNotRecorded)
		case l.written[gen] >= seq || l.ended[gen]:
			w.mu.Unlock()
			return Loc{}, fmt.Errorf("event %d: %w", seq, ErrNotRecorded)
		case w.err != nil:
			err := w.err
			w.mu.Unlock()
			return Loc{}, err
		case w.closed:
			w.mu.Unlock()
			return Loc{}, fmt.Errorf("event %d: %w (the recording was closed first)", seq, ErrNotRecorded)
		}
		if l.waiting == nil {
			l.waiting = make(chan struct{})
		}
		ch := l.waiting
		w.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return Loc{}, ctx.Err()
		}
		w.mu.Lock()
	}
}

// ReadAt reads and decodes the event line at loc of the recording at path (a Loc from
// Writer.Locate), without indexing the file.
func ReadAt(path string, loc Loc) (Entry, error) {
	f, err := os.Open(path)
	if err != nil {
		return Entry{}, fmt.Errorf("open recording: %w", err)
	}
	defer f.Close()
	return readEntry(f, path, loc.Off, loc.Len, 0)
}
