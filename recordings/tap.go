package recordings

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/fault"
	"github.com/mcpscope/mcpscope/session/transport"
)

// maxPendingIDs bounds the requests a tap remembers to pair with their responses; beyond it
// new requests are not paired (their frames are still recorded and forwarded).
const maxPendingIDs = 16384

// TapConfig says what a tap is called and where its traffic goes besides the peer.
type TapConfig struct {
	// Name of the tap: viewers attach by it, and a recording made in RecordDir is named
	// after it. Characters other than letters, digits, '.', '_' and '-' become '-'.
	Name string
	// ExactName makes a live tap of the same name an error. Otherwise a free name is made
	// by adding -2, -3, … (a default name that two servers share).
	ExactName bool
	// Header describes the server (Server, Transport); the rest is filled in.
	Header Header
	// Record is the recording file; when empty and RecordDir is set, the recording is
	// RecordDir/<name>-<UTC timestamp>.jsonl; with both empty nothing is recorded.
	Record    string
	RecordDir string
	// Options are the recording's options; the redaction applies to viewers too.
	Options Options
	// NoLive serves no viewers.
	NoLive bool
	// Ring is how many events are kept for viewers that attach later; 0 means DefaultRing.
	Ring int
	// ViewerBytes bounds the encoded events waiting for one viewer; 0 means
	// DefaultViewerBytes. A viewer further behind loses the oldest and gets a gap line.
	ViewerBytes int64
	// Drain bounds how long Close waits for the viewers to take what is queued for them
	// (a viewer still behind is cut off then); 0 means 5 s.
	Drain time.Duration
	// MaxFrame is the longest frame recorded whole; 0 means transport.DefaultMaxLine.
	// Longer ones are recorded truncated; what is forwarded is never cut.
	MaxFrame int64
	// Observe, when set, is given every event as it is recorded (numbered and paired with
	// its request, not masked), until the tap is closed; it must not block or keep the
	// tap waiting (the live OTLP export queues them).
	Observe func(*session.Event)
	// Faults, when set, apply fault rules to both directions of the tap (stdio:
	// tap_fault.go; HTTP: tap_http_fault.go).
	Faults *fault.Engine
}

// Tap sits between a host and a server: what it forwards is recorded and streamed to the
// viewers attached to it (Dial). Make one with NewTap, then run it with RunStdio or serve
// HTTPProxy; Close ends it.
type Tap struct {
	cfg    TapConfig
	name   string
	header Header
	red    *redactor
	rec    *Writer
	path   string  // recording file, "" when none
	hub    *hub    // nil with NoLive
	log    *tapLog // runs publishing in order, off the forwarding path (tap_log.go)

	mu      sync.Mutex
	seq     uint64
	first   time.Time
	closed  bool
	pending map[pendingKey]pendingReq
	check   protocol.CheckContext // what the handshake negotiated, for the frames' findings (tap_classify.go)
	onClose func()                // lets go what fault rules hold (an HTTP tap's)

	bps *fault.Breakpoints // set by the viewer that controls them (tap_control.go); nil with NoLive

	// holdsMu orders hold notes; announced is what they have told the viewers is held,
	// holdsSnapshot the line that tells it whole (tap_control.go).
	holdsMu       sync.Mutex
	announced     map[int]heldLine
	holdsSnapshot atomic.Pointer[[]heldLine]
	ctlMu         sync.Mutex
	controller    *viewer
	buf           bytes.Buffer
	enc           *json.Encoder
}

// pendingKey names a request awaiting its response: who sent it and its id.
type pendingKey struct {
	from protocol.Direction
	id   string
}

type pendingReq struct {
	seq    uint64
	at     time.Time
	method string
	hello  *protocol.ClientHello // a handshake request's: what the client asked for
}

// NewTap starts listening for viewers and creates the recording. The tap records and
// broadcasts nothing until it is run.
func NewTap(cfg TapConfig) (*Tap, error) {
	if cfg.MaxFrame <= 0 {
		cfg.MaxFrame = transport.DefaultMaxLine
	}
	t := &Tap{log: newTapLog(tapLogBytes, tapLogItems), cfg: cfg, name: SanitizeTapName(cfg.Name), red: newRedactor(cfg.Options.Secrets, cfg.Options.NoRedact),
		pending: map[pendingKey]pendingReq{}}
	t.enc = json.NewEncoder(&t.buf)
	t.enc.SetEscapeHTML(false)
	h := cfg.Header
	h.Format, h.Redacted = FormatVersion, !cfg.Options.NoRedact
	if h.Version == "" {
		h.Version = session.Version()
	}
	if h.Started.IsZero() {
		h.Started = time.Now()
	}
	h.Started = h.Started.Round(0)
	h.Server = t.red.String(h.Server)
	if !cfg.NoLive {
		hb, name, err := listenTap(t.name, cfg.ExactName, cfg.Ring, cfg.ViewerBytes)
		if err != nil {
			t.log.stop()
			return nil, err
		}
		t.hub, t.name = hb, name
		hb.gapLine = t.gapLine
		hb.snapshot = t.holdsSnapshotLine
		hb.drain = cfg.Drain
		hb.reader = t.readControl
		// Breakpoints a viewer sets hold messages on the tap's wire: the engine is there
		// even without rules (it passes every message as it came while nothing is set).
		if t.cfg.Faults == nil {
			t.cfg.Faults = fault.NewEngine(nil, 0)
		}
		t.bps = fault.NewBreakpoints()
		t.cfg.Faults.SetBreakpoints(t.bps)
	}
	if h.Name == "" {
		h.Name = t.name
	}
	t.header = h
	if err := t.createRecording(); err != nil {
		if t.hub != nil {
			t.hub.close()
		}
		t.log.stop()
		return nil, err
	}
	if t.hub != nil {
		// Viewers also learn where the tap records: a host's reduced environment may have
		// put it somewhere the viewer's would not.
		b, _ := json.Marshal(struct {
			Header
			Recording string `json:"recording,omitempty"`
		}{h, t.path})
		t.hub.serveViewers(append(b, '\n'))
	}
	if t.cfg.Faults != nil {
		if text := t.cfg.Faults.RulesText(); text != "" {
			t.note(fault.RulesNoteKind, text)
		}
	}
	return t, nil
}

// createRecording opens the recording file, when there is to be one.
func (t *Tap) createRecording() error {
	path := t.cfg.Record
	if path == "" && t.cfg.RecordDir == "" {
		return nil
	}
	o := t.cfg.Options
	if path != "" {
		w, err := Create(path, t.header, o)
		if err != nil {
			return err
		}
		t.rec, t.path = w, path
		return nil
	}
	if err := os.MkdirAll(t.cfg.RecordDir, 0o700); err != nil {
		return fmt.Errorf("recording directory: %w", err)
	}
	stamp := t.header.Started.UTC().Format("20060102T150405.000Z")
	o.Overwrite = false
	for i := 1; ; i++ {
		name := t.name + "-" + stamp
		if i > 1 {
			name += fmt.Sprintf("-%d", i)
		}
		path = filepath.Join(t.cfg.RecordDir, name+".jsonl")
		w, err := Create(path, t.header, o)
		if err == nil {
			t.rec, t.path = w, path
			return nil
		}
		if _, serr := os.Stat(path); serr != nil || i >= 100 {
			return err
		}
	}
}

// Name is the tap's name, as viewers attach to it.
func (t *Tap) Name() string { return t.name }

// Moved says why the tap's socket is not in the usual directory (another user took it),
// or "".
func (t *Tap) Moved() string {
	if t.hub == nil {
		return ""
	}
	return t.hub.moved
}

// Socket is the path of the socket viewers connect to; "" with NoLive.
func (t *Tap) Socket() string {
	if t.hub == nil {
		return ""
	}
	return t.hub.path
}

// RecordPath is the recording file; "" when nothing is recorded.
func (t *Tap) RecordPath() string { return t.path }

// Header is the header of the recording and of the live stream.
func (t *Tap) Header() Header { return t.header }

// Close stops serving viewers (each gets what was queued for it, within a few seconds) and
// closes the recording. Events published afterwards are dropped.
func (t *Tap) Close() error {
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return nil
	}
	onClose := t.onClose
	t.mu.Unlock()
	if onClose != nil {
		onClose()
	}
	t.log.stop() // what was forwarded is recorded and broadcast before the end
	t.mu.Lock()
	t.closed = true
	t.mu.Unlock()
	if t.hub != nil {
		t.hub.close()
	}
	if t.rec != nil {
		return t.rec.Close()
	}
	return nil
}

// publish numbers an event, pairs it with its request, records it and broadcasts it.
func (t *Tap) publish(e *session.Event) { t.publishWith(e, nil) }

// publishWith is publish; the viewers' line also carries holds, when set. The event is
// stamped now (unless it has its time) and queued to the tap's log, which publishes events
// in the order they were queued; when the log is full it is published at once, on the
// caller's goroutine, so a caller never waits for the log.
func (t *Tap) publishWith(e *session.Event, holds *holdsLine) {
	if e.Time.IsZero() {
		e.Time = time.Now()
	}
	size := 0
	if e.Frame != nil {
		size = len(e.Frame.Raw)
	}
	t.later(size, func() { t.publishNow(e, holds) })
}

// later runs fn on the tap's log, in the order of the calls, counting size bytes against the
// log's bound while queued; when the log is full it runs fn at once.
func (t *Tap) later(size int, fn func()) {
	if !t.log.try(func() { fn(); t.log.room.Add(int64(size)) }, size) {
		fn()
		return
	}
	t.log.wake()
}

// publishNow publishes an event: it numbers it, pairs it, records it and broadcasts it.
func (t *Tap) publishNow(e *session.Event, holds *holdsLine) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return
	}
	if t.first.IsZero() {
		t.first = e.Time
	}
	t.seq++
	e.Seq = t.seq
	if e.Kind == session.EvFrame {
		t.correlate(e)
		t.classify(e)
	}
	if t.rec != nil {
		_ = t.rec.Write(e) // a failed write is reported by Close; forwarding goes on
	}
	if t.cfg.Observe != nil {
		t.cfg.Observe(e)
	}
	if t.hub == nil {
		return
	}
	l := line{EventJSON: e.JSON(), MonoNS: int64(e.Time.Sub(t.first)), Exchange: e.Recv.Exchange, SSEEvent: e.Recv.SSEEvent, Holds: holds}
	t.red.event(&l.EventJSON)
	t.buf.Reset()
	if t.enc.Encode(&l) != nil {
		return
	}
	t.hub.broadcast(bytes.Clone(t.buf.Bytes()), e.Seq, e.Time)
	if t.buf.Cap() > 1<<20 {
		t.buf = bytes.Buffer{}
	}
}

// gapLine is the line a viewer gets in place of the lines it lost (g), at the time of the
// last of them.
func (t *Tap) gapLine(g session.Gap, at time.Time) []byte {
	t.mu.Lock()
	first := t.first
	t.mu.Unlock()
	l := line{EventJSON: session.NewGapEvent(g, at).JSON(), MonoNS: int64(at.Sub(first))}
	b, err := appendEventLine(nil, &l)
	if err != nil {
		b, _ = encodeLineJSON(nil, &l)
	}
	return b
}

// correlate pairs a response with the request it answers (method, request seq, latency),
// and a notifications/cancelled with the request it names, filling Event.Corr as a session
// does. It stays here, a second pairing beside the session's, because a tap takes no part
// in the conversation it records: it forwards bytes between a client and a server it did
// not start, so no session exists to pair them, and a recording without Corr would leave
// every consumer (the view, the index, replay) to pair again.
func (t *Tap) correlate(e *session.Event) {
	f := e.Frame
	members := []*protocol.Frame{f}
	if f.Kind == protocol.KindBatch {
		members = f.Batch
	}
	other := protocol.ServerToClient
	if e.Dir == protocol.ServerToClient {
		other = protocol.ClientToServer
	}
	if f.Kind == protocol.KindNotification && f.Method == "notifications/cancelled" && e.Corr.RequestSeq == 0 {
		var p struct {
			RequestID json.RawMessage `json:"requestId"`
		}
		if json.Unmarshal(f.Params, &p) == nil && len(p.RequestID) > 0 {
			if r, ok := t.pending[pendingKey{e.Dir, protocol.ID{Raw: p.RequestID}.Key()}]; ok {
				e.Corr.RequestSeq = r.seq
			}
		}
	}
	for _, m := range members {
		switch {
		case m.Kind == protocol.KindRequest && !m.ID.IsZero():
			if len(t.pending) < maxPendingIDs {
				t.pending[pendingKey{e.Dir, m.ID.Key()}] = pendingReq{seq: e.Seq, at: e.Time, method: m.Method, hello: handshakeHello(m)}
			}
		case m.Kind.IsResponse():
			k := pendingKey{other, m.ID.Key()}
			p, ok := t.pending[k]
			if !ok {
				continue
			}
			delete(t.pending, k)
			t.learn(p, m)
			if e.Corr.RequestSeq == 0 {
				e.Corr = session.Correlation{Method: p.method, RequestSeq: p.seq, Latency: e.Time.Sub(p.at)}
			}
		}
	}
}

// frame publishes one frame's bytes as they passed through.
func (t *Tap) frame(dir protocol.Direction, raw []byte, info transport.RecvInfo) {
	at := time.Now()
	t.later(len(raw), func() {
		t.publishNow(&session.Event{Kind: session.EvFrame, Dir: dir, Frame: session.DecodeReceived(raw, info), Recv: info, Time: at}, nil)
	})
}

// note publishes a transport note; a hold note carries what is held to the viewers.
func (t *Tap) note(kind, text string) {
	if kind != fault.HoldNoteKind || t.bps == nil {
		t.publishWith(&session.Event{Kind: session.EvTransport, Note: kind, Text: text}, nil)
		return
	}
	// One hold note at a time, from the delta to its broadcast: the viewers apply the
	// deltas in the order they were taken.
	t.holdsMu.Lock()
	defer t.holdsMu.Unlock()
	t.publishWith(&session.Event{Kind: session.EvTransport, Note: kind, Text: text}, t.holdsDelta())
}

// SanitizeTapName turns s into a tap name: letters, digits, '.', '_' and '-' are kept,
// anything else becomes '-', and the result is at most 64 bytes ("tap" when empty).
func SanitizeTapName(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			b[i] = '-'
		}
	}
	s = strings.Trim(string(b), ".")
	if len(s) > 64 {
		s = s[:64]
	}
	if s == "" {
		return "tap"
	}
	return s
}

// packageRunners start a package named by their first plain argument; a tap of one is named
// after the package rather than the runner.
var packageRunners = map[string]bool{"npx": true, "uvx": true, "bunx": true, "pipx": true, "pnpx": true}

// DefaultTapName names a tap of argv: the program's base name, or for a package runner
// (npx, uvx, …) the package's ("npx -y @scope/server-x@1.2" is "server-x").
func DefaultTapName(argv []string) string {
	if len(argv) == 0 {
		return "tap"
	}
	prog := strings.TrimSuffix(filepath.Base(argv[0]), ".exe")
	if packageRunners[prog] {
		for _, a := range argv[1:] {
			if a == "run" || strings.HasPrefix(a, "-") {
				continue
			}
			if i := strings.LastIndexByte(a, '@'); i > 0 {
				a = a[:i]
			}
			return SanitizeTapName(a[strings.LastIndexByte(a, '/')+1:])
		}
	}
	return SanitizeTapName(prog)
}

// DefaultRecordDir is where a tap records when not told where: $XDG_STATE_HOME/mcpscope/
// recordings, else ~/.local/state/mcpscope/recordings (on Windows, the user cache
// directory's mcpscope\recordings).
func DefaultRecordDir() (string, error) {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "mcpscope", "recordings"), nil
	}
	if runtime.GOOS != "windows" {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, ".local", "state", "mcpscope", "recordings"), nil
		}
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", errors.New("no directory for recordings: set XDG_STATE_HOME or give --record FILE")
	}
	return filepath.Join(d, "mcpscope", "recordings"), nil
}
