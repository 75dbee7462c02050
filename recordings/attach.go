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
	"time"

	"github.com/mcpscope/mcpscope/session"
)

// Limits of the live stream.
const (
	// DefaultRing is how many events a tap keeps for viewers that attach later.
	DefaultRing = 10000
	// ringBytes bounds the kept events' size as well.
	ringBytes = 64 << 20
	// viewerQueue is how many events may wait for one viewer; a viewer further behind loses
	// the oldest of them (it is sent one gap line in their place) rather than slowing the tap.
	viewerQueue = 4096
	// DefaultViewerBytes bounds the encoded lines waiting for one viewer the same way
	// (TapConfig.ViewerBytes changes it).
	DefaultViewerBytes = 64 << 20
	// closeDrain bounds how long a closing tap waits for its viewers to take what was
	// queued for them.
	closeDrain = 5 * time.Second
	// dialTimeout bounds connecting to a tap and reading its header.
	dialTimeout = 5 * time.Second
)

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

// Live is a connection to a running tap: the header, then its events as they happen.
type Live struct {
	conn    net.Conn
	br      *bufio.Reader
	header  Header
	line    int
	last    uint64
	dropped uint64
	held    *Entry // an event that comes after a gap Next reported first
	bps     *TapBreakpoints

	recording string
}

// Dial attaches to the live tap called name (see ListTaps). The tap first sends the events
// it kept (up to DefaultRing), then every new one until it ends.
func Dial(name string) (*Live, error) {
	name = SanitizeTapName(name)
	var c net.Conn
	dirs := TapDirs()
	for _, dir := range dirs {
		if !ownDir(dir) {
			continue
		}
		var err error
		if c, err = net.DialTimeout("unix", tapSocket(dir, name), dialTimeout); err == nil {
			break
		}
	}
	if c == nil {
		return nil, fmt.Errorf("no live tap named %q (searched %s; mcpscope attach --list shows the live ones)", name, strings.Join(dirs, ", "))
	}
	l, err := readHeader(c)
	if err != nil {
		return nil, fmt.Errorf("tap %q: %w", name, err)
	}
	return l, nil
}

// dialPath attaches to the tap listening on the socket at path.
func dialPath(path string) (*Live, error) {
	c, err := net.DialTimeout("unix", path, dialTimeout)
	if err != nil {
		return nil, err
	}
	return readHeader(c)
}

// readHeader reads the tap's header from a new connection, closing it on failure.
func readHeader(c net.Conn) (*Live, error) {
	l := &Live{conn: c, br: bufio.NewReaderSize(c, 64<<10)}
	l.bps = newTapBreakpoints(l)
	c.SetReadDeadline(time.Now().Add(dialTimeout))
	b, err := l.br.ReadBytes('\n')
	c.SetReadDeadline(time.Time{})
	if err == nil {
		err = json.Unmarshal(b, &l.header)
	}
	if err == nil {
		var extra struct {
			Recording string `json:"recording"`
		}
		_ = json.Unmarshal(b, &extra) // the header just decoded: cannot fail
		l.recording = extra.Recording
	}
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("read its header: %w", err)
	}
	l.line = 1
	return l, nil
}

// Header is the tap's header (what it is between; when it started).
func (l *Live) Header() Header { return l.header }

// Recording is the file the tap records to, as the tap named it; "" when it records nothing.
func (l *Live) Recording() string { return l.recording }

// Next waits for the next event. Where this viewer lost events (it read too slowly and
// the tap never waits), it returns one EvGap event in their place: the tap's gap line, or
// one made here from a jump in seq. It returns io.EOF when the tap has ended.
func (l *Live) Next() (Entry, error) {
	if h := l.held; h != nil {
		l.held = nil
		return *h, nil
	}
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
		if ln.Kind == "" && ln.Holds != nil { // what the tap holds, whole: not an event
			l.bps.update(ln.Holds)
			continue
		}
		e, err := ln.toEvent()
		if err != nil {
			return Entry{Line: l.line}, fmt.Errorf("tap event %d: %w", l.line, err)
		}
		if ln.Holds != nil {
			l.bps.update(ln.Holds) // before the note is shown: the view reads Held then
		}
		en := Entry{Event: e, Mono: time.Duration(ln.MonoNS), Line: l.line}
		if e.Kind == session.EvGap {
			l.dropped += e.Gap.Events
			l.last = max(l.last, e.Gap.LastSeq)
			return en, nil
		}
		if l.last != 0 && e.Seq > l.last+1 {
			g := session.Gap{FirstSeq: l.last + 1, LastSeq: e.Seq - 1, Events: e.Seq - l.last - 1}
			l.dropped += g.Events
			l.last, l.held = e.Seq, &en
			return Entry{Event: session.NewGapEvent(g, e.Time), Mono: en.Mono, Line: l.line}, nil
		}
		l.last = e.Seq
		return en, nil
	}
}

// Dropped is how many events this viewer missed after its first one because it read too
// slowly (the tap never waits for a viewer); Next reported each loss as a gap event.
func (l *Live) Dropped() uint64 { return l.dropped }

// Close disconnects; a Next waiting in another goroutine returns io.EOF.
func (l *Live) Close() error { return l.conn.Close() }

// TapInfo describes a live tap.
type TapInfo struct {
	Name   string
	Socket string
	Header Header
	// Recording is the file the tap records to ("" when none).
	Recording string
}

// ListTaps lists the live taps of this user, by name. Sockets left by taps that are gone
// are removed.
//
// Every directory of TapDirs is searched: a tap started by a host with a reduced
// environment (no XDG_RUNTIME_DIR) is found as well as one started from a shell. A name
// live in more than one of them is listed once, from the first (the one Dial attaches to).
func ListTaps() ([]TapInfo, error) {
	var out []TapInfo
	seen := map[string]bool{}
	for _, dir := range TapDirs() {
		if !ownDir(dir) {
			continue // missing, or not this user's alone
		}
		ents, err := os.ReadDir(dir)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("list taps: %w", err)
		}
		for _, e := range ents {
			name, ok := strings.CutSuffix(e.Name(), ".sock")
			if !ok || e.Type()&os.ModeSocket == 0 || seen[name] {
				continue
			}
			path := filepath.Join(dir, e.Name())
			l, err := dialPath(path)
			if err != nil {
				if !alive(path) {
					os.Remove(path)
				}
				continue
			}
			seen[name] = true
			out = append(out, TapInfo{Name: name, Socket: path, Header: l.Header(), Recording: l.Recording()})
			l.Close()
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}
