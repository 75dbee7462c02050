package fault

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session/transport"
)

// NoteKind is the kind of the transport note that reports a fault applied: a row of the
// timeline, a line of --trace and of the recording.
const NoteKind = "fault"

// ViaMcpscope is how a frame mcpscope made in the other side's place arrived (RecvInfo.Via).
const ViaMcpscope = "mcpscope"

// ErrDisconnected is what Send returns once a disconnect rule has closed the connection.
var ErrDisconnected = errors.New("disconnected by a fault rule")

// Transport is a transport with an engine on its wire: what the session sends and what
// the server sends both pass the engine's rules. Each fault applied is reported to the
// sink as a note (NoteKind) before the bytes it changed; an answer made in the server's
// place reaches the session as a frame that came via "mcpscope".
//
// A delay or a throttle holds the stream it is on (the session's sender, or the
// transport's reader) for its time, so what follows keeps its order; the session gets
// whole frames, so a throttle is the frame's time at that rate. A disconnect closes the
// transport (stdio: the server's stdin, then the process; HTTP: its connections).
type Transport struct {
	inner transport.Transport
	eng   *Engine

	mu     sync.Mutex
	sink   transport.Sink
	ctx    context.Context
	closed bool
	held   map[string]transport.Outgoing // messages reorder holds, by their bytes
}

// Wrap puts eng on tr's wire. What tr offers besides Transport (its session id, its
// authorizer, the standalone GET stream, abandoning a request's stream, preferring
// HTTP+SSE) the wrapper offers too.
func Wrap(tr transport.Transport, eng *Engine) transport.Transport {
	return WrapBreaking(tr, eng, nil)
}

// WrapBreaking is Wrap with the user's breakpoints too (bps may be nil; eng may have no
// rules): a message an enabled breakpoint matches is held in bps until the user decides.
// While there are no rules and no breakpoint is enabled, messages pass unjudged.
func WrapBreaking(tr transport.Transport, eng *Engine, bps *Breakpoints) transport.Transport {
	if eng == nil {
		eng = NewEngine(nil, 0)
	}
	eng.breaks = bps
	t := &Transport{inner: tr, eng: eng}
	if _, ok := tr.(listener); ok {
		return listening{t}
	}
	return t
}

type listener interface{ Listen(context.Context) error }

// listening is a Transport whose inner transport opens a standalone GET stream.
type listening struct{ *Transport }

// Listen opens the inner transport's standalone stream; its frames pass the engine.
func (l listening) Listen(ctx context.Context) error { return l.inner.(listener).Listen(ctx) }

// SessionID is the inner transport's session id, "" when it has none.
func (t *Transport) SessionID() string {
	if s, ok := t.inner.(interface{ SessionID() string }); ok {
		return s.SessionID()
	}
	return ""
}

// Authorizer is the inner transport's, nil when it has none.
func (t *Transport) Authorizer() transport.Authorizer {
	if a, ok := t.inner.(transport.Authorized); ok {
		return a.Authorizer()
	}
	return nil
}

// PreferLegacy passes the preference on.
func (t *Transport) PreferLegacy() {
	if p, ok := t.inner.(transport.LegacyPreferrer); ok {
		p.PreferLegacy()
	}
}

// Abandon passes it on.
func (t *Transport) Abandon(id json.RawMessage) {
	if a, ok := t.inner.(transport.Abandoner); ok {
		a.Abandon(id)
	}
}

// Name is the inner transport's.
func (t *Transport) Name() string { return t.inner.Name() }

// Inner is the wrapped transport.
func (t *Transport) Inner() transport.Transport { return t.inner }

// Start starts the inner transport, its frames going through the engine to sink.
func (t *Transport) Start(ctx context.Context, sink transport.Sink) error {
	t.mu.Lock()
	t.sink, t.ctx = sink, ctx
	t.mu.Unlock()
	if text := t.eng.RulesText(); text != "" {
		sink.Note(transport.Note{Kind: RulesNoteKind, Text: text})
	}
	return t.inner.Start(ctx, &faultSink{Sink: sink, t: t})
}

// Send passes m through the engine, then to the inner transport.
func (t *Transport) Send(ctx context.Context, m transport.Outgoing) error {
	if t.isClosed() {
		return ErrDisconnected
	}
	if !t.eng.busy() {
		return t.inner.Send(ctx, m)
	}
	v := t.eng.Judge(protocol.ClientToServer, m.Raw, time.Now())
	if v.Hold != "" {
		return t.holdOut(ctx, m, v.Hold, v.HoldMethod)
	}
	return t.send(ctx, m, v)
}

// send does what verdict v says with m, which the session sends.
func (t *Transport) send(ctx context.Context, m transport.Outgoing, v Verdict) error {
	if v.Applied == nil && len(v.Deliver) == 1 {
		return t.inner.Send(ctx, m)
	}
	t.report(v.Applied)
	if err := Sleep(ctx, v.Wait+rateWait(v)); err != nil {
		return err
	}
	if v.Answer != nil {
		t.sink.Received(clone(v.Answer), transport.RecvInfo{Via: ViaMcpscope, Size: int64(len(v.Answer))})
	}
	if v.Applied != nil && v.Applied.Held {
		t.mu.Lock()
		if t.held == nil {
			t.held = map[string]transport.Outgoing{}
		}
		t.held[string(m.Raw)] = m
		t.mu.Unlock()
	}
	for i, d := range v.Deliver {
		out := m
		out.Raw = d
		if i > 0 && v.Applied == nil {
			// A held message released after this one: sent as it was first asked.
			t.mu.Lock()
			held, ok := t.held[string(d)]
			delete(t.held, string(d))
			t.mu.Unlock()
			out = transport.Outgoing{Raw: d, NoWait: true}
			if ok {
				out = held
			}
		}
		if err := t.inner.Send(ctx, out); err != nil {
			return err
		}
	}
	if v.Disconnect {
		t.disconnect()
		return ErrDisconnected
	}
	return nil
}

// Close closes the inner transport; the messages it held are let go: what reorder holds
// of the session's is forwarded first (releaseHeld).
func (t *Transport) Close(ctx context.Context) error {
	if bps := t.eng.breaks; bps != nil {
		bps.forget(t)
	}
	t.releaseHeld(ctx)
	return t.inner.Close(ctx)
}

// releaseHeld lets go what reorder rules still hold as the session closes, each with a
// note: a message the session sent is forwarded, as it was first asked, while the
// transport still takes it (else it is dropped); one the server sent is dropped, for the
// session takes no more messages.
func (t *Transport) releaseHeld(ctx context.Context) {
	for _, raw := range t.eng.Release(protocol.ClientToServer) {
		t.mu.Lock()
		m, ok := t.held[string(raw)]
		delete(t.held, string(raw))
		t.mu.Unlock()
		if !ok {
			m = transport.Outgoing{Raw: raw}
		}
		m.NoWait = true // the session is closing: it waits for no answer
		err := ErrDisconnected
		if !t.isClosed() {
			err = t.inner.Send(ctx, m)
		}
		text := "reorder: released as the session closed, forwarded\n" + lineOriginalOut + shown(raw) + "\n" + lineDelivered + shown(raw)
		if err != nil {
			text = "reorder: released as the session closed, dropped: " + err.Error() + "\n" + lineOriginalOut + shown(raw) + "\n" + lineDelivered + "nothing"
		}
		t.note(text)
	}
	for _, raw := range t.eng.Release(protocol.ServerToClient) {
		t.note("reorder: released as the session closed, dropped: the session takes no more messages\n" + lineOriginalIn + shown(raw) + "\n" + lineDelivered + "nothing")
	}
}

// note reports a fault note to the sink, if the transport was started.
func (t *Transport) note(text string) {
	t.mu.Lock()
	sink := t.sink
	t.mu.Unlock()
	if sink != nil {
		sink.Note(transport.Note{Kind: NoteKind, Text: text})
	}
}

func (t *Transport) isClosed() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.closed
}

// disconnect closes the inner transport once, off the caller's goroutine (the caller may
// be the transport's own reader).
func (t *Transport) disconnect() {
	t.mu.Lock()
	already := t.closed
	t.closed = true
	t.mu.Unlock()
	if !already {
		go t.inner.Close(context.Background())
	}
}

func (t *Transport) report(a *Applied) {
	if a == nil {
		return
	}
	t.sink.Note(transport.Note{Kind: NoteKind, Text: Describe(a)})
}

// faultSink passes the server's frames through the engine.
type faultSink struct {
	transport.Sink
	t *Transport
}

func (s *faultSink) Received(raw []byte, info transport.RecvInfo) {
	if info.Truncated { // only a head: judged by no rule
		s.Sink.Received(raw, info)
		return
	}
	if !s.t.eng.busy() {
		s.Sink.Received(raw, info)
		return
	}
	v := s.t.eng.Judge(protocol.ServerToClient, raw, time.Now())
	if v.Hold != "" {
		s.t.holdIn(raw, info, v.Hold, v.HoldMethod)
		return
	}
	s.receive(raw, info, v)
}

// receive does what verdict v says with raw, which the server sent.
func (s *faultSink) receive(raw []byte, info transport.RecvInfo, v Verdict) {
	if v.Applied == nil && len(v.Deliver) == 1 {
		s.Sink.Received(raw, info)
		return
	}
	_ = Sleep(s.t.ctx, v.Wait+rateWait(v))
	if v.Answer != nil {
		ans := clone(v.Answer)
		go s.t.inner.Send(s.t.ctx, transport.Outgoing{Raw: ans, IsResponse: true, NoWait: true})
	}
	for _, d := range v.Deliver {
		in := info
		in.Size = int64(len(d))
		s.Sink.Received(clone(d), in)
	}
	// The note follows what was delivered, as it follows the frame it concerns everywhere
	// else (a frame the session sent, a frame the tap recorded): the timeline marks that row.
	s.t.report(v.Applied)
	if v.Disconnect {
		s.t.disconnect()
	}
}

// rateWait is how long a throttled message takes at its rate.
func rateWait(v Verdict) time.Duration {
	if v.Rate <= 0 {
		return 0
	}
	n := 0
	for _, d := range v.Deliver {
		n += len(d)
	}
	return time.Duration(float64(n) / float64(v.Rate) * float64(time.Second))
}

// Sleep waits d, or until ctx ends (a nil ctx never ends): the delays and throttles of
// the rules, in the session and the tap.
func Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	if ctx == nil {
		ctx = context.Background()
	}
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-tm.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
