package recordings

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Limits of the live stream.
const (
	// DefaultRing is how many events a tap keeps for viewers that attach later.
	DefaultRing = 10000
	// ringBytes bounds the kept events' size as well.
	ringBytes = 64 << 20
	// viewerQueue is how many events may wait for one viewer; a viewer further behind loses
	// the oldest of them (it sees a gap in seq) rather than slowing the tap.
	viewerQueue = 4096
	// closeDrain bounds how long a closing tap waits for its viewers to take what was
	// queued for them.
	closeDrain = 5 * time.Second
	// dialTimeout bounds connecting to a tap and reading its header.
	dialTimeout = 5 * time.Second
)

// TapDir is the per-user directory holding the sockets of live taps: $XDG_RUNTIME_DIR/mcpscope,
// else mcpscope-<uid> in the temporary directory. It is created with mode 0700.
func TapDir() string {
	if d := os.Getenv("XDG_RUNTIME_DIR"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "mcpscope")
	}
	return filepath.Join(os.TempDir(), fmt.Sprintf("mcpscope-%d", os.Getuid()))
}

// ensureTapDir creates TapDir (0700) and checks it belongs to this user.
func ensureTapDir() (string, error) {
	dir := TapDir()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("tap directory: %w", err)
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return "", fmt.Errorf("tap directory: %w", err)
	}
	if !fi.IsDir() || !ownedByMe(fi) {
		return "", fmt.Errorf("tap directory %s is not a directory of this user: remove it or set XDG_RUNTIME_DIR", dir)
	}
	if fi.Mode().Perm() != 0o700 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return "", fmt.Errorf("tap directory: %w", err)
		}
	}
	return dir, nil
}

// tapSocket is the socket path of the tap called name.
func tapSocket(dir, name string) string { return filepath.Join(dir, name+".sock") }

// alive reports whether a tap answers on the socket at path.
func alive(path string) bool {
	c, err := net.DialTimeout("unix", path, dialTimeout)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// hub serves a tap's events to its viewers: a header line, the kept events, then live ones.
type hub struct {
	ln   net.Listener
	path string

	mu      sync.Mutex
	header  []byte
	ring    [][]byte // circular, cap entries
	start   int
	n       int
	size    int
	viewers map[*viewer]struct{}
	closed  bool
	wg      sync.WaitGroup // the accept loop and one goroutine per viewer
}

// viewer is one attached connection and the events queued for it.
type viewer struct {
	conn    net.Conn
	ch      chan []byte
	dropped atomic.Uint64
}

// listenTap listens on the socket of name, or of name-2, name-3, … unless exact. A socket
// left by a tap that is gone is removed.
func listenTap(name string, exact bool, ring int) (*hub, string, error) {
	dir, err := ensureTapDir()
	if err != nil {
		return nil, "", err
	}
	if ring <= 0 {
		ring = DefaultRing
	}
	for i := 1; ; i++ {
		cand := name
		if i > 1 {
			cand = fmt.Sprintf("%s-%d", name, i)
		}
		path := tapSocket(dir, cand)
		if alive(path) {
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
		if err := os.Chmod(path, 0o600); err != nil {
			ln.Close()
			return nil, "", fmt.Errorf("tap socket: %w", err)
		}
		return &hub{ln: ln, path: path, ring: make([][]byte, ring), viewers: map[*viewer]struct{}{}}, cand, nil
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
	v := &viewer{conn: c, ch: make(chan []byte, viewerQueue)}
	h.viewers[v] = struct{}{}
	h.wg.Add(1)
	h.mu.Unlock()
	go func() {
		defer h.wg.Done()
		h.serve(v, backlog)
	}()
}

// serve writes to one viewer until its queue is closed or a write fails.
func (h *hub) serve(v *viewer, backlog [][]byte) {
	defer v.conn.Close()
	bw := bufio.NewWriterSize(v.conn, 64<<10)
	fail := func() {
		h.mu.Lock()
		if _, ok := h.viewers[v]; ok {
			delete(h.viewers, v)
		}
		h.mu.Unlock()
	}
	for _, b := range backlog {
		if _, err := bw.Write(b); err != nil {
			fail()
			return
		}
	}
	if bw.Flush() != nil {
		fail()
		return
	}
	for b := range v.ch {
		if _, err := bw.Write(b); err != nil {
			fail()
			return
		}
		if len(v.ch) == 0 && bw.Flush() != nil {
			fail()
			return
		}
	}
	_ = bw.Flush()
}

// broadcast keeps one encoded event line and queues it for every viewer, never waiting.
func (h *hub) broadcast(b []byte) {
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
		select {
		case v.ch <- b:
		default:
			// Full: the oldest queued event makes room, so the viewer always ends with the
			// latest events and sees the gap in seq. Only broadcast sends, under the lock,
			// so the send after taking one out cannot block.
			select {
			case <-v.ch:
				v.dropped.Add(1)
			default:
			}
			v.ch <- b
		}
	}
}

// close stops accepting (removing the socket), lets each viewer take what is queued for it
// within closeDrain, and waits for every goroutine of the hub.
func (h *hub) close() {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return
	}
	h.closed = true
	deadline := time.Now().Add(closeDrain)
	for v := range h.viewers {
		v.conn.SetWriteDeadline(deadline)
		close(v.ch)
	}
	h.viewers = nil
	h.mu.Unlock()
	h.ln.Close()
	h.wg.Wait()
}

// Live is a connection to a running tap: the header, then its events as they happen.
type Live struct {
	conn    net.Conn
	br      *bufio.Reader
	header  Header
	line    int
	last    uint64
	dropped uint64
}

// Dial attaches to the live tap called name (see ListTaps). The tap first sends the events
// it kept (up to DefaultRing), then every new one until it ends.
func Dial(name string) (*Live, error) {
	path := tapSocket(TapDir(), SanitizeTapName(name))
	c, err := net.DialTimeout("unix", path, dialTimeout)
	if err != nil {
		return nil, fmt.Errorf("no live tap named %q (mcpscope attach --list shows the live ones): %w", name, err)
	}
	l := &Live{conn: c, br: bufio.NewReaderSize(c, 64<<10)}
	c.SetReadDeadline(time.Now().Add(dialTimeout))
	b, err := l.br.ReadBytes('\n')
	c.SetReadDeadline(time.Time{})
	if err == nil {
		err = json.Unmarshal(b, &l.header)
	}
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("tap %q: read its header: %w", name, err)
	}
	l.line = 1
	return l, nil
}

// Header is the tap's header (what it is between; when it started).
func (l *Live) Header() Header { return l.header }

// Next waits for the next event. It returns io.EOF when the tap has ended.
func (l *Live) Next() (Entry, error) {
	for {
		b, err := l.br.ReadBytes('\n')
		if err != nil {
			if errors.Is(err, net.ErrClosed) || (errors.Is(err, io.EOF) && len(b) == 0) {
				return Entry{}, io.EOF
			}
			if errors.Is(err, io.EOF) {
				return Entry{}, io.ErrUnexpectedEOF
			}
			return Entry{}, err
		}
		l.line++
		if len(strings.TrimSpace(string(b))) == 0 {
			continue
		}
		var ln line
		if err := json.Unmarshal(b, &ln); err != nil {
			return Entry{Line: l.line}, fmt.Errorf("tap event %d: %w", l.line, err)
		}
		e, err := ln.toEvent()
		if err != nil {
			return Entry{Line: l.line}, fmt.Errorf("tap event %d: %w", l.line, err)
		}
		if l.last != 0 && e.Seq > l.last+1 {
			l.dropped += e.Seq - l.last - 1
		}
		l.last = e.Seq
		return Entry{Event: e, Mono: time.Duration(ln.MonoNS), Line: l.line}, nil
	}
}

// Dropped is how many events this viewer missed after its first one because it read too
// slowly (the tap never waits for a viewer).
func (l *Live) Dropped() uint64 { return l.dropped }

// Close disconnects; a Next waiting in another goroutine returns io.EOF.
func (l *Live) Close() error { return l.conn.Close() }

// TapInfo describes a live tap.
type TapInfo struct {
	Name   string
	Socket string
	Header Header
}

// ListTaps lists the live taps of this user, by name. Sockets left by taps that are gone
// are removed.
func ListTaps() ([]TapInfo, error) {
	dir := TapDir()
	ents, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list taps: %w", err)
	}
	var out []TapInfo
	for _, e := range ents {
		name, ok := strings.CutSuffix(e.Name(), ".sock")
		if !ok || e.Type()&os.ModeSocket == 0 {
			continue
		}
		path := filepath.Join(dir, e.Name())
		l, err := Dial(name)
		if err != nil {
			if !alive(path) {
				os.Remove(path)
			}
			continue
		}
		out = append(out, TapInfo{Name: name, Socket: path, Header: l.Header()})
		l.Close()
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}
