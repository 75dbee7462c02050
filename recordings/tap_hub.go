package recordings

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"time"

	"github.com/mcpscope/mcpscope/session"
)

// hub serves a tap's events to its viewers: a header line, the kept events, then live ones.
type hub struct {
	ln          net.Listener
	path        string
	moved       string // why the socket is not in the usual directory, or ""
	viewerBytes int64
	// gapLine encodes the line that stands for a viewer's loss (set by the tap).
	gapLine func(g session.Gap, at time.Time) []byte
	// snapshot gives the line that tells a viewer the state its lines' deltas apply to (what
	// the tap holds), sent after the backlog and after a gap line: taken under the hub's
	// lock, encoded outside it; nil when there is none (set by the tap).
	snapshot func() func() []byte
	// reader reads what a viewer writes, until its connection closes (set by the tap).
	reader func(v *viewer)

	mu      sync.Mutex
	header  []byte
	ring    [][]byte // circular, cap entries
	start   int
	n       int
	size    int
	viewers map[*viewer]struct{}
	closed  bool
	drain   time.Duration  // how long close waits for the viewers (closeDrain unless set)
	wg      sync.WaitGroup // the accept loop and one goroutine per viewer
}

// viewer is one attached connection and the lines queued for it, bounded by count
// (viewerQueue) and bytes (TapConfig.ViewerBytes): a viewer further behind loses the oldest
// and is sent one gap line in their place.
type viewer struct {
	conn   net.Conn
	mu     sync.Mutex
	q      session.Queue[[]byte]
	closed bool
	wake   chan struct{}
	// refused: its control lines are ignored, another viewer controls the breakpoints
	// (Tap.ctlMu guards it).
	refused bool
}

// listenTap listens on the socket of name, or of name-2, name-3, … unless exact. A socket
// left by a tap that is gone is removed.
func listenTap(name string, exact bool, ring int, viewerBytes int64) (*hub, string, error) {
	dir, moved, err := ensureTapDir()
	if err != nil {
		return nil, "", err
	}
	if ring <= 0 {
		ring = DefaultRing
	}
	if viewerBytes <= 0 {
		viewerBytes = DefaultViewerBytes
	}
	for i := 1; ; i++ {
		cand := name
		if i > 1 {
			cand = fmt.Sprintf("%s-%d", name, i)
		}
		path := tapSocket(dir, cand)
		if alive(path) || liveElsewhere(dir, cand) != "" {
			if exact || i >= 100 {
				return nil, "", fmt.Errorf("a tap named %q is already running: choose another --name (mcpscope attach --list shows the live ones)", cand)
			}
			continue
		}
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, "", fmt.Errorf("remove stale tap socket: %w", err)
		}
		ln, err := net.Listen("unix", path)
		if err != nil {
			return nil, "", fmt.Errorf("tap socket: %w", err)
		}
		if err := restrictSocket(path); err != nil {
			ln.Close()
			return nil, "", fmt.Errorf("tap socket: %w", err)
		}
		return &hub{ln: ln, path: path, moved: moved, ring: make([][]byte, ring), viewerBytes: viewerBytes, viewers: map[*viewer]struct{}{}}, cand, nil
	}
}

// serveViewers begins accepting viewers; header is the first line each gets.
func (h *hub) serveViewers(header []byte) {
	h.header = header
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		for {
			c, err := h.ln.Accept()
			if err != nil {
				return
			}
			h.add(c)
		}
	}()
}

// add registers a viewer and starts feeding it: header and kept events first, taken under
// the same lock as broadcast so that nothing is missed or repeated.
func (h *hub) add(c net.Conn) {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		c.Close()
		return
	}
	backlog := make([][]byte, 0, h.n+1)
	backlog = append(backlog, h.header)
	for i := range h.n {
		backlog = append(backlog, h.ring[(h.start+i)%len(h.ring)])
	}
	var snap func() []byte
	if h.snapshot != nil {
		snap = h.snapshot()
	}
	v := &viewer{conn: c, q: session.Queue[[]byte]{MaxItems: viewerQueue, MaxBytes: h.viewerBytes}, wake: make(chan struct{}, 1)}
	h.viewers[v] = struct{}{}
	h.wg.Add(1)
	if h.reader != nil {
		h.wg.Add(1)
	}
	h.mu.Unlock()
	go func() {
		defer h.wg.Done()
		if snap != nil {
			if s := snap(); s != nil {
				backlog = append(backlog, s)
			}
		}
		h.serve(v, backlog)
	}()
	if h.reader != nil {
		go func() {
			defer h.wg.Done()
			h.reader(v)
		}()
	}
}

// next waits for what is queued for v: the loss since the last call, if any, and the
// lines. ok is false once the viewer is closed and everything was taken.
func (v *viewer) next() (gap *session.Gap, at time.Time, lines [][]byte, ok bool) {
	for {
		v.mu.Lock()
		if v.q.Ready() {
			gap, at, lines = v.q.Take(0)
			v.mu.Unlock()
			return gap, at, lines, true
		}
		closed := v.closed
		v.mu.Unlock()
		if closed {
			return nil, time.Time{}, nil, false
		}
		<-v.wake
	}
}

// serve writes to one viewer until its queue is closed and empty or a write fails.
func (h *hub) serve(v *viewer, backlog [][]byte) {
	defer v.conn.Close()
	bw := bufio.NewWriterSize(v.conn, 64<<10)
	write := func(lines [][]byte) bool {
		for _, b := range lines {
			if _, err := bw.Write(b); err != nil {
				return false
			}
		}
		return bw.Flush() == nil
	}
	ok := write(backlog)
	for ok {
		gap, at, lines, more := v.next()
		if !more {
			break
		}
		if gap != nil && h.gapLine != nil {
			head := [][]byte{h.gapLine(*gap, at)}
			if h.snapshot != nil {
				// The lost lines may have held deltas: the whole state, then the rest.
				if snap := h.snapshot(); snap != nil {
					if s := snap(); s != nil {
						head = append(head, s)
					}
				}
			}
			lines = append(head, lines...)
		}
		ok = write(lines)
	}
	if !ok {
		h.mu.Lock()
		delete(h.viewers, v)
		h.mu.Unlock()
	}
}

// broadcast keeps one encoded event line (the event's seq and time) and queues it for
// every viewer, never waiting: a viewer that is behind loses its oldest lines.
func (h *hub) broadcast(b []byte, seq uint64, at time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return
	}
	for h.n > 0 && (h.n == len(h.ring) || h.size+len(b) > ringBytes) {
		h.size -= len(h.ring[h.start])
		h.ring[h.start] = nil
		h.start = (h.start + 1) % len(h.ring)
		h.n--
	}
	h.ring[(h.start+h.n)%len(h.ring)] = b
	h.n++
	h.size += len(b)
	for v := range h.viewers {
		v.mu.Lock()
		v.q.Push(b, seq, int64(len(b)), at)
		v.mu.Unlock()
		signalViewer(v)
	}
}

func signalViewer(v *viewer) {
	select {
	case v.wake <- struct{}{}:
	default:
	}
}

// close stops accepting (removing the socket), lets each viewer take what is queued for it
// within h.drain, and waits for every goroutine of the hub.
func (h *hub) close() {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return
	}
	h.closed = true
	deadline := time.Now().Add(cmp.Or(h.drain, closeDrain))
	for v := range h.viewers {
		v.conn.SetWriteDeadline(deadline)
		v.mu.Lock()
		v.closed = true
		v.mu.Unlock()
		signalViewer(v)
	}
	h.viewers = nil
	h.mu.Unlock()
	h.ln.Close()
	h.wg.Wait()
}
