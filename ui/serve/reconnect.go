package serve

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/mcpscope/mcpscope/session"
)

// genStart is where one of a live session's sessions begins: the seqs after first (up to
// the next genStart's) are its events, in the timeline under gen and in the recording
// under recGen(gen).
type genStart struct {
	gen   int
	first uint64
	why   string // how the session before ended
}

// revival is what reconnect knows of a live session: whether it may replace a session
// that ended, how often it did, and the last break.
type revival struct {
	mu      sync.Mutex // held while a session is replaced
	on      bool
	opened  Target // the target as Open was given it
	closed  bool   // disconnected: nothing replaces the session
	count   int
	lastErr string // the last reconnect that failed
}

// current is the session now and the channel its pump closes.
func (l *live) current() (*session.Session, chan struct{}) {
	l.smu.Lock()
	defer l.smu.Unlock()
	return l.s, l.pumpDone
}

// sess is the session now.
func (l *live) sess() *session.Session {
	s, _ := l.current()
	return s
}

// genOf is the timeline generation that holds event seq.
func (l *live) genOf(seq uint64) int {
	l.smu.Lock()
	defer l.smu.Unlock()
	g := 1
	for _, s := range l.gens {
		if seq > s.first {
			g = s.gen
		}
	}
	return g
}

// breakAt is why a new session starts at event seq (its first), or "".
func (l *live) breakAt(seq uint64) string {
	l.smu.Lock()
	defer l.smu.Unlock()
	for _, g := range l.gens[1:] {
		if seq == g.first+1 {
			return g.why
		}
	}
	return ""
}

func orElse(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// recGen is the recording's generation of timeline generation gen: the first session is
// recorded as a recording of one session is (0), the ones after as a restart's are.
func recGen(gen int) int {
	if gen == 1 {
		return 0
	}
	return gen
}

// reconnectDefault: a session reconnects unless connect says otherwise when it reaches an
// HTTP server, whose sessions expire and whose process the agent does not own.
func reconnectDefault(t Target) bool {
	if t.Reconnect != nil {
		return *t.Reconnect
	}
	return t.URL != ""
}

// ensure replaces the session, when it ended and the agent asked for reconnect, with a new
// one on the same target, recorded in the same file and numbered on from the last seq.
func (s *Server) ensure(ctx context.Context, l *live) error {
	if st, _ := l.sess().State(); st != session.StateClosed {
		return nil
	}
	r := &l.revive
	r.mu.Lock()
	defer r.mu.Unlock()
	old, done := l.current()
	if st, _ := old.State(); st != session.StateClosed || !r.on || r.closed {
		return nil // another call replaced it, or nothing may: the call fails as before
	}
	_ = old.Close()
	<-done // every event of the old session is in the timeline
	o, err := s.opts.Open(r.opened)
	if err != nil {
		r.lastErr = err.Error()
		return fmt.Errorf("the session ended; reconnecting failed: %w", err)
	}
	s.addSecrets(o.Masking.Secrets)
	l.mu.Lock()
	last := l.pumped
	l.ended = false
	l.mu.Unlock()
	o.Session.SeqAfter(last)
	l.ask.setInner(o.Session.Responder())
	o.Session.SetResponder(l.ask)

	l.smu.Lock()
	gen := l.gen + 1
	l.smu.Unlock()
	l.rec.RecordGen(o.Session.SubscribeWith(session.SubscribeOptions{Lossless: true}), recGen(gen))
	pumped := make(chan struct{})
	go l.pump(o.Session.SubscribeWith(session.SubscribeOptions{Bytes: historyBytes}), gen, pumped)
	l.smu.Lock()
	l.s, l.pumpDone, l.gen = o.Session, pumped, gen
	why := fmt.Sprintf("the session ended (%s); a new one starts here", orElse(exitText(old), "closed"))
	l.gens = append(l.gens, genStart{gen: gen, first: last, why: why})
	l.smu.Unlock()
	l.mu.Lock()
	l.h.AddMarker(gen, "reconnected: "+why)
	l.mu.Unlock()

	cctx, cancel := context.WithTimeout(ctx, connectWait)
	defer cancel()
	if err := o.Session.Connect(cctx); err != nil {
		r.lastErr = err.Error()
		s.logf("session %s: reconnect failed: %v", l.id, err)
		return fmt.Errorf("the session ended; reconnecting failed: %w%s", err, stderrTail(err, l))
	}
	r.count++
	r.lastErr = ""
	s.logf("session %s: reconnected (%d), events from seq %d", l.id, r.count, last+1)
	return nil
}

// retryOnNewSession reports whether a call that failed should be sent again: the server
// ended the HTTP session (404), the session started a new one, and the agent asked for
// reconnect. It waits for the new session.
func (l *live) retryOnNewSession(ctx context.Context, err error) bool {
	l.revive.mu.Lock()
	on := l.revive.on
	l.revive.mu.Unlock()
	if !on || !errors.Is(err, session.ErrSessionEnded) {
		return false
	}
	_, aerr := l.sess().AwaitNewSession(ctx)
	return aerr == nil
}

// state is a session's state for sessions: the session's, and how reconnect stands.
func (l *live) state() (state string, reconnects int, lastErr string) {
	st, _ := l.sess().State()
	if !l.revive.mu.TryLock() {
		return "reconnecting", 0, ""
	}
	defer l.revive.mu.Unlock()
	state = st.String()
	if st == session.StateClosed && l.revive.on && !l.revive.closed {
		state += " (reconnects on the next call)"
	}
	return state, l.revive.count, l.revive.lastErr
}
