package recordings

import (
	"bytes"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpscope/mcpscope/session/transport/lines"
)

// A stdio tap forwards each chunk it reads before it records it: decoding, pairing, the
// recording's write, the viewers' broadcast and OTLP all run on one goroutine of their own
// (the tap's log), fed through a bounded queue. The pumps only copy each chunk and queue it,
// ahead of forwarding it, so the order of the timeline is the order on the wire (a request is
// queued before the server can see it, so before its answer). When the log falls behind by
// more than tapLogBytes, chunks are forwarded but not queued; the loss is counted per stream
// and recorded as a note in its place, and that stream's splitter skips to the next whole
// line.

// Bounds of the log's queue.
const (
	tapLogBytes = 64 << 20 // chunk bytes queued at most
	tapLogItems = 4096     // queued items at most
)

// tapLog runs a tap's recording work in order: queued items run under runMu, either on the
// goroutine of a stdio pump that has just forwarded its chunk and finds no one else running
// them (here: a quiet tap records without waking another goroutine), or on the log's own
// goroutine when it is woken (the HTTP tap's items, a busy pump's).
type tapLog struct {
	work    chan func()
	kick    chan struct{} // there is work for the log's goroutine
	runMu   sync.Mutex    // held while queued work runs, so it runs in order
	room    atomic.Int64  // chunk bytes the queue may still take
	stopped chan struct{}
	done    chan struct{}
	once    sync.Once
}

// newTapLog starts a log that queues at most bytes of chunks in at most items items.
func newTapLog(bytes int64, items int) *tapLog {
	l := &tapLog{work: make(chan func(), items), kick: make(chan struct{}, 1), stopped: make(chan struct{}), done: make(chan struct{})}
	l.room.Store(bytes)
	go l.run()
	return l
}

func (l *tapLog) run() {
	defer close(l.done)
	for {
		select {
		case <-l.kick:
			l.drain()
		case <-l.stopped:
			l.drain() // what was queued before the stop still runs, in order
			return
		}
	}
}

// drain runs what is queued, in order.
func (l *tapLog) drain() {
	l.runMu.Lock()
	defer l.runMu.Unlock()
	l.drainLocked()
}

func (l *tapLog) drainLocked() {
	for {
		select {
		case fn := <-l.work:
			fn()
		default:
			return
		}
	}
}

// here runs what is queued on the caller's goroutine, unless someone else is running it;
// then the log's goroutine is woken, so nothing queued waits for a next call.
func (l *tapLog) here() {
	if l.runMu.TryLock() {
		l.drainLocked()
		l.runMu.Unlock()
		return
	}
	l.wake()
}

// wake tells the log's goroutine there is work.
func (l *tapLog) wake() {
	select {
	case l.kick <- struct{}{}:
	default:
	}
}

// try queues fn, which holds size bytes of chunks, unless the queue is full; it never waits
// and wakes no one (the caller runs it with here, or wakes the log).
func (l *tapLog) try(fn func(), size int) bool {
	if l.room.Add(-int64(size)) < 0 {
		l.room.Add(int64(size))
		return false
	}
	select {
	case l.work <- fn:
		return true
	default:
		l.room.Add(int64(size))
		return false
	}
}

// do queues fn, waiting for room, and wakes the log: for what must not be lost (a stream's
// end, a note). After stop it is dropped. It is never called by queued work.
func (l *tapLog) do(fn func()) {
	select {
	case l.work <- fn:
	default:
		l.wake()
		select {
		case l.work <- fn:
		case <-l.stopped:
			return
		}
	}
	l.wake()
}

// stop runs what is queued and returns when it has run.
func (l *tapLog) stop() {
	l.once.Do(func() { close(l.stopped) })
	<-l.done
}

// tapStream is one stream of a stdio tap as its pump feeds the log: its splitter, the read
// time of the chunk it is splitting, and the bytes lost since the log last heard of it.
type tapStream struct {
	log  *tapLog
	sp   *lines.Splitter
	name string
	at   time.Time    // read time of the chunk being split; used by the log goroutine only
	lost atomic.Int64 // bytes forwarded but not queued, not yet noted
	// lostWhole: the last bytes lost ended a line
	lostWhole atomic.Bool
	note      func(kind, text string)
}

// feed queues a copy of p, read at now, to be split and recorded. After a loss the note of
// it goes in the same item, so the note and the bytes after the loss are queued together or
// not at all.
func (s *tapStream) feed(p []byte) {
	now := time.Now()
	lost, whole := s.lost.Load(), s.lostWhole.Load()
	data := bytes.Clone(p)
	if !s.log.try(func() {
		if lost > 0 {
			s.gap(lost, whole)
		}
		s.at = now
		s.sp.Write(data)
		s.log.room.Add(int64(len(data)))
	}, len(data)) {
		s.lost.Add(int64(len(p)))
		s.lostWhole.Store(p[len(p)-1] == '\n')
		return
	}
	s.lost.Add(-lost)
}

// gap records that n bytes of the stream were forwarded but not recorded; whole says the
// bytes lost ended a line, so the next bytes begin one.
func (s *tapStream) gap(n int64, whole bool) {
	s.sp.Skip(!whole)
	s.note("record-behind", fmt.Sprintf("%s: %d bytes forwarded but not recorded: the recording fell behind the wire; what follows resumes at the next whole line", s.name, n))
}

// end queues the end of the stream, after a last note of any loss.
func (s *tapStream) end() {
	s.log.do(func() {
		if lost := s.lost.Swap(0); lost > 0 {
			s.gap(lost, s.lostWhole.Load())
		}
		s.at = time.Now()
		s.sp.End()
	})
}
