package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session/auth"
	"github.com/mcpscope/mcpscope/session/transport"
)

// Errors a caller can test for with errors.Is.
var (
	ErrClosed       = errors.New("session closed")
	ErrTimeout      = errors.New("request timed out")
	ErrServerExited = errors.New("server exited")
	// ErrStdoutClosed: the server closed its stdout but its process still runs, so no
	// response can arrive. The error's text names the process.
	ErrStdoutClosed = errors.New("the server closed its stdout")
)

// stdoutClosedError is ErrStdoutClosed with the transport's words for it.
type stdoutClosedError struct{ text string }

func (e *stdoutClosedError) Error() string        { return e.text }
func (e *stdoutClosedError) Is(target error) bool { return target == ErrStdoutClosed }

// ServerInfo is what the handshake learned about the server.
type ServerInfo struct {
	Implementation    Implementation
	Website           string // serverInfo.websiteUrl, when the server names one
	Capabilities      json.RawMessage
	Instructions      string
	Revision          protocol.Revision
	Stateless         bool     // 2026-07-28 era
	SupportedVersions []string // from server/discover
	Transport         string
	SessionID         string
	Auto              bool // the revision was negotiated by protocol "auto", not forced
}

// Session is a live conversation with one server. Make one with New, then Connect.
type Session struct {
	// heard: the server has said something, a frame or a stderr line (the era probe
	// waits longer for a server that has not started yet).
	heard    atomic.Bool
	cfg      Config
	tr       transport.Transport
	bus      bus
	capsJSON json.RawMessage // cfg.Caps as sent on the wire

	ctx    context.Context // ends at Close
	cancel context.CancelFunc
	wg     sync.WaitGroup // background work: responders, list refreshes, listen stream

	mu        sync.Mutex // guards everything below and the order of published events
	seq       uint64
	state     State
	reason    string // why the session closed
	info      ServerInfo
	exit      *transport.ExitInfo
	nextID    int64
	pending   map[string]*pending
	finished  *recentIDs
	batchOut  map[string]batchMember // request members of batches sent raw, by id key (see pairing.go)
	incoming  map[string]*incoming
	sreq      serverRequests
	progress  map[string]*pending // progress token key → request
	lists     map[ListKind][]json.RawMessage
	listed    map[ListKind]bool
	refreshes map[ListKind]bool
	renewing  bool                       // a new session is being started after the server ended the old one
	renewal   *renewal                   // the last new session started after a 404, if any
	taskWatch map[string]chan TaskUpdate // task id → AwaitTask's channel for status notifications
	closeOnce sync.Once
	exited    chan struct{} // closed when the transport reports the server's end
	exitOnce  sync.Once
	noStdout  error // set when the server closed its stdout while running: requests fail at once
	// headerTools: the x-mcp-header parameters and problems of the last tools list, by
	// tool name (only tools that have annotations).
	headerTools map[string]ToolHeaders
	tally       findingTally // the findings of every event published
	link        string       // the last NoteLink text: reachable, reconnecting N/M, unreachable
}

// New makes a session over cfg.Transport. Nothing happens on the wire until Connect.
func New(cfg Config) *Session {
	cfg.fill()
	ctx, cancel := context.WithCancel(context.Background())
	return &Session{
		cfg: cfg, tr: cfg.Transport, ctx: ctx, cancel: cancel, capsJSON: cfg.Caps.JSON(),
		pending:   map[string]*pending{},
		finished:  newRecentIDs(4096),
		incoming:  map[string]*incoming{},
		progress:  map[string]*pending{},
		lists:     map[ListKind][]json.RawMessage{},
		listed:    map[ListKind]bool{},
		refreshes: map[ListKind]bool{},
		exited:    make(chan struct{}),
		sreq:      serverRequests{workers: cfg.ServerRequestWorkers, maxBytes: cfg.ServerRequestQueueBytes},
	}
}

// withExit adds how the server ended to a handshake error when the process is gone: a
// failed write is a symptom, the exit status is the cause. It waits briefly for the exit to
// be reported, since the two race.
func (s *Session) withExit(err error) error {
	if errors.Is(err, ErrServerExited) || s.tr.Name() != "stdio" {
		return err
	}
	t := time.NewTimer(300 * time.Millisecond)
	defer t.Stop()
	select {
	case <-s.exited:
	case <-t.C:
		return err
	}
	s.mu.Lock()
	x := s.exit
	s.mu.Unlock()
	return fmt.Errorf("%w (%w: %s)", err, ErrServerExited, describeExit(x))
}

// Subscribe returns a lossy subscription to every event from now on, bounded at bound
// events (≤ 0: the session's default, Config.EventBound, else DefaultSubscriptionBound) and
// at the session's default byte bound.
func (s *Session) Subscribe(bound int) *Subscription {
	return s.SubscribeWith(SubscribeOptions{Events: bound})
}

// SubscribeWith returns a subscription to every event from now on, shaped by o (zero
// bounds take the session's defaults).
func (s *Session) SubscribeWith(o SubscribeOptions) *Subscription {
	if o.Events <= 0 {
		o.Events = s.cfg.EventBound
	}
	if o.Bytes <= 0 {
		o.Bytes = s.cfg.EventBytes
	}
	return s.bus.subscribe(o)
}

// State returns the current state and, once closed, why.
func (s *Session) State() (State, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state, s.reason
}

// Info returns what the handshake learned.
func (s *Session) Info() ServerInfo {
	s.mu.Lock()
	info := s.info
	s.mu.Unlock()
	info.Transport = s.tr.Name()
	info.Auto = s.cfg.Protocol == "auto"
	if sid, ok := s.tr.(interface{ SessionID() string }); ok {
		info.SessionID = sid.SessionID()
	}
	return info
}

// Caps are the client capabilities this session declares (fixed when it is made).
func (s *Session) Caps() ClientCaps { return s.cfg.Caps }

// Exit returns how the server process ended, or nil while it runs.
func (s *Session) Exit() *transport.ExitInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.exit
}

// InFlight is the number of requests awaiting a response.
func (s *Session) InFlight() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.pending)
}

// emit publishes e. s.mu must be held, which keeps Seq order equal to publication order.
func (s *Session) emit(e *Event) *Event {
	s.seq++
	e.Seq = s.seq
	if e.Time.IsZero() {
		e.Time = time.Now()
	}
	s.tally.add(e)
	s.bus.publish(e)
	return e
}

func (s *Session) publish(e *Event) *Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.emit(e)
}

func (s *Session) setState(st State, text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.setStateLocked(st, text)
}

func (s *Session) setStateLocked(st State, text string) {
	if s.state == StateClosed {
		return
	}
	s.state = st
	if st == StateClosed {
		s.reason = text
	}
	s.emit(&Event{Kind: EvState, State: st, Text: text})
}

// step records a handshake step in the timeline without changing state.
func (s *Session) step(text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.emit(&Event{Kind: EvState, State: s.state, Text: text})
}

func (s *Session) errorEvent(format string, args ...any) {
	s.publish(&Event{Kind: EvError, Text: fmt.Sprintf(format, args...)})
}

// Connect starts the transport and runs the handshake. On failure the session is closed and
// the error says what was sent, what came back and why it failed; the timeline has the rest.
func (s *Session) Connect(ctx context.Context) error {
	s.setState(StateConnecting, s.tr.Name())
	if err := s.tr.Start(ctx, sink{s}); err != nil {
		err = fmt.Errorf("connect: %w", err)
		s.fail(err.Error())
		return &ConnectError{Stage: "connect", Err: err, Stderr: s.lastStderr()}
	}
	s.setState(StateHandshaking, "")
	if err := s.handshake(ctx); err != nil {
		err = s.withExit(err)
		s.fail(err.Error())
		return &ConnectError{Stage: "handshake", Err: err, Stderr: s.lastStderr()}
	}
	info := s.Info()
	s.setState(StateReady, readyText(info, ""))
	s.afterReady()
	return nil
}

// ConnectError is a failed connection or handshake.
type ConnectError struct {
	Stage  string // "connect" or "handshake"
	Err    error
	Stderr []string // the server's last stderr lines, if any
}

func (e *ConnectError) Error() string { return e.Err.Error() }
func (e *ConnectError) Unwrap() error { return e.Err }

func (s *Session) lastStderr() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.exit != nil {
		return s.exit.LastStderr
	}
	return nil
}

// fail closes the session after an error of its own.
func (s *Session) fail(reason string) {
	s.shutdown(reason)
}

// Close ends the session: pending requests fail with ErrClosed, the transport closes (stdio:
// close stdin, grace, SIGTERM, SIGKILL; HTTP: DELETE the session), subscriptions end after
// delivering what they hold.
func (s *Session) Close() error {
	return s.shutdown("closed by user")
}

// CloseReason is Close with the reason the closed state carries (e.g. a restart).
func (s *Session) CloseReason(reason string) error {
	return s.shutdown(reason)
}

func (s *Session) shutdown(reason string) error {
	var err error
	s.closeOnce.Do(func() {
		s.cancel()
		s.failAll(ErrClosed)
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		err = s.tr.Close(ctx)
		cancel()
		s.wg.Wait()
		s.setState(StateClosed, reason)
		s.bus.closeAll()
	})
	return err
}

// authorizationWait is how much longer a request whose timeout passed waits because of
// an authorization: its whole timeout while one is under way, the rest of it counted from
// the authorization's end when that was less than timeout ago, else 0.
func (s *Session) authorizationWait(timeout time.Duration) time.Duration {
	a := s.Auth()
	if a == nil {
		return 0
	}
	st := a.Status()
	switch st.State {
	case auth.StateDiscovering, auth.StateWaiting:
		return timeout
	case auth.StateAuthorized, auth.StateFailed:
		if rest := time.Until(st.Since.Add(timeout)); rest > 0 && !st.Since.IsZero() {
			return rest
		}
	}
	return 0
}

// Auth is the session's authorization (OAuth), for the Auth page and the auth commands;
// nil for a stdio server or an HTTP one without authorization.
func (s *Session) Auth() auth.Controller {
	if a, ok := s.tr.(transport.Authorized); ok {
		if c, ok := a.Authorizer().(auth.Controller); ok {
			return c
		}
	}
	return nil
}

// Done is closed when the session is closed.
func (s *Session) Done() <-chan struct{} { return s.ctx.Done() }

// sink receives everything the transport reports.
type sink struct{ s *Session }

// Every report the transport makes ends in waitRoom: while a lossless subscription (a
// recorder) is over its bound, the transport's reader waits there, holding no lock, so a
// flood slows down instead of being dropped from the recording.

func (k sink) Received(raw []byte, info transport.RecvInfo) {
	k.s.heard.Store(true)
	now := time.Now()
	k.s.received(DecodeReceived(raw, info), info, now)
	k.s.bus.waitRoom(k.s.ctx.Done())
}

// DecodeReceived decodes bytes a transport received, with the findings of how they
// arrived: a frame cut at the size limit, a last line without its newline. The tap uses it
// too, so both see the same frame.
func DecodeReceived(raw []byte, info transport.RecvInfo) *protocol.Frame {
	var f *protocol.Frame
	if info.Truncated {
		f = protocol.DecodeTruncated(raw, info.Size)
	} else {
		f = protocol.Decode(raw)
	}
	if info.Unterminated {
		f.Findings = append(f.Findings, protocol.NewFinding(protocol.FindUnterminated, "the stream ended before this line's newline"))
	}
	return f
}

func (k sink) Stderr(line []byte) {
	k.s.heard.Store(true)
	k.s.publish(&Event{Kind: EvStderr, Text: string(line)})
	k.s.bus.waitRoom(k.s.ctx.Done())
}

func (k sink) HTTP(ex *transport.HTTPExchange) {
	var f []protocol.Finding
	if ex.Purpose != "card" { // a card fetch's redirects are judged by session/card (card.unreadable)
		f = redirectFindings(ex.Redirect)
	}
	for _, p := range ex.Problems {
		f = append(f, protocol.NewFinding(p.Code, "%s: %s", ex.Step, p.Text))
	}
	k.s.publish(&Event{Kind: EvHTTP, HTTP: ex, Time: ex.Started, Findings: f})
	k.s.bus.waitRoom(k.s.ctx.Done())
}

// ReportHTTP publishes an HTTP exchange mcpscope made beside the transport, such as a
// server card's fetch, so the timeline, --trace, the recording and HAR show it with the
// rest. It may be called before Connect. Its headers must already be masked.
func (s *Session) ReportHTTP(ex *transport.HTTPExchange) { sink{s}.HTTP(ex) }

func (k sink) Note(n transport.Note) {
	s := k.s
	var gone error
	s.mu.Lock()
	if n.Kind == transport.NoteLink {
		// What the transport knows of reaching the server is part of the state.
		s.link = n.Text
		s.emit(&Event{Kind: EvState, State: s.state, Note: NoteLink, Text: n.Text})
	} else {
		s.emit(&Event{Kind: EvTransport, Note: n.Kind, Text: n.Text})
	}
	if n.Kind == transport.NoteStdoutClosed {
		gone = &stdoutClosedError{n.Text}
		s.noStdout = gone
	}
	s.mu.Unlock()
	if gone != nil {
		s.failAll(gone) // nothing the server answers can arrive any more
	}
	s.bus.waitRoom(s.ctx.Done())
}

func (k sink) Exited(info transport.ExitInfo) {
	s := k.s
	text := describeExit(&info)
	if s.tr.Name() != "stdio" {
		text = "connection closed"
		if info.ByUs {
			text += " by mcpscope"
		} else if info.Err != "" {
			text += ": " + info.Err
		}
	}
	s.mu.Lock()
	s.exit = &info
	s.emit(&Event{Kind: EvExit, Exit: &info, Text: text})
	s.mu.Unlock()
	s.exitOnce.Do(func() { close(s.exited) })
	s.failAll(fmt.Errorf("%w: %s", ErrServerExited, text))
	if !info.ByUs {
		go s.shutdown("server " + text)
	}
}

// readyText is the note of the ready state: the server's name and version (each left out
// when the server did not give it), the protocol, then suffix.
func readyText(info ServerInfo, suffix string) string {
	who := strings.TrimSpace(info.Implementation.Name + " " + info.Implementation.Version)
	if who == "" {
		who = "server"
	}
	return fmt.Sprintf("%s, protocol %s%s", who, info.Revision, suffix)
}
