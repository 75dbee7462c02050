package serve

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpscope/mcpscope/session"
)

// Bounds of the calls that outlive the tool call that started them.
const (
	maxCalls       = 64               // calls running or done and not yet read, across sessions
	defaultAwait   = 30 * time.Second // await_call's wait when none is given
	maxAwait       = 10 * time.Minute
	defaultTimeout = 60 * time.Second // a request's timeout when neither the call nor connect gives one
)

// running is a request that runs on its own: its tool call returned with a question
// pending (or after wait_ms), and await_call gives its outcome.
type running struct {
	id      string
	session string
	method  string
	done    chan struct{}
	handed  atomic.Bool // returned by id: only await_call reads its outcome
	stop    func() bool // hands the call over: the tool call's end no longer cancels it
	ans     Answer
	err     error
}

// calls are the running calls, by id.
type calls struct {
	mu  sync.Mutex
	n   int
	all map[string]*running
	// order is the ids in the order the calls started, to drop the oldest finished first.
	order []string
}

func newCalls() *calls { return &calls{all: map[string]*running{}} }

// start names a new call; it fails when maxCalls are running or unread.
func (cs *calls) start(sessionID, method string) (*running, error) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if len(cs.all) >= maxCalls && !cs.dropFinishedLocked() {
		return nil, fmt.Errorf("%d calls are running: answer what they wait for (pending) or await them (await_call) first", len(cs.all))
	}
	cs.n++
	c := &running{id: "c" + strconv.Itoa(cs.n), session: sessionID, method: method, done: make(chan struct{})}
	cs.all[c.id] = c
	cs.order = append(cs.order, c.id)
	return c, nil
}

// dropFinishedLocked forgets the oldest call that finished and was not read.
func (cs *calls) dropFinishedLocked() bool {
	for i, id := range cs.order {
		select {
		case <-cs.all[id].done:
			delete(cs.all, id)
			cs.order = append(cs.order[:i:i], cs.order[i+1:]...)
			return true
		default:
		}
	}
	return false
}

// forget removes a call whose outcome was read.
func (cs *calls) forget(id string) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	delete(cs.all, id)
	for i, o := range cs.order {
		if o == id {
			cs.order = append(cs.order[:i:i], cs.order[i+1:]...)
			break
		}
	}
}

// get finds a call.
func (cs *calls) get(id string) (*running, error) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	c, ok := cs.all[id]
	if !ok {
		return nil, fmt.Errorf("no call %q: its outcome was already returned, or it never ran", id)
	}
	return c, nil
}

// ofSession are the ids of a session's calls not yet read.
func (cs *calls) ofSession(sessionID string) []string {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	var out []string
	for _, id := range cs.order {
		if cs.all[id].session == sessionID {
			out = append(out, id)
		}
	}
	return out
}

// startCall sends a request that runs on its own: its outcome is read with wait now or
// with await_call later. The request is cancelled when ctx ends before the call is handed
// over (a question, wait_ms), never after. Its timeout does not run while a question of
// its session waits for the agent.
func (s *Server) startCall(ctx context.Context, l *live, method string, params any, b Bounds, opts ...session.CallOption) (*running, error) {
	c, err := s.calls.start(l.id, method)
	if err != nil {
		return nil, err
	}
	d := defaultTimeout
	if l.target.TimeoutMS > 0 {
		d = time.Duration(l.target.TimeoutMS) * time.Millisecond
	}
	if b.TimeoutMS > 0 {
		d = time.Duration(b.TimeoutMS) * time.Millisecond
	}
	cctx, cancel := context.WithCancelCause(context.WithoutCancel(ctx))
	stop := context.AfterFunc(ctx, func() { cancel(context.Cause(ctx)) })
	c.stop = stop
	go s.watchdog(cctx, cancel, l, d)
	go func() {
		defer cancel(nil)
		opts := append(opts, session.WithTimeout(-1)) // the watchdog times it out
		resp, err := l.sess().Call(cctx, method, params, opts...)
		if err != nil && l.retryOnNewSession(cctx, err) {
			resp, err = l.sess().Call(cctx, method, params, opts...) // the request was not sent: it is now
		}
		if err != nil && errors.Is(context.Cause(cctx), errTimedOut) {
			err = fmt.Errorf("no response within %v: %w", d, err)
		}
		c.ans, c.err = l.answer(resp, err, b)
		close(c.done)
		if ctx.Err() != nil && !c.handed.Load() {
			s.calls.forget(c.id) // the agent gave up on the call before it was handed over
		}
	}()
	return c, nil
}

// errTimedOut is the cause of a call the watchdog ended.
var errTimedOut = errors.New("timed out")

// watchdog cancels a call after d of waiting on the server. While a question of its
// session waits for the agent the server waits too: the timeout starts again once none does.
func (s *Server) watchdog(ctx context.Context, cancel context.CancelCauseFunc, l *live, d time.Duration) {
	for {
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		for {
			qs, changed, _ := s.questions.list(l.id, 0)
			if len(qs) == 0 {
				break
			}
			select {
			case <-ctx.Done():
				return
			case <-changed:
			}
		}
		select {
		case <-ctx.Done():
			return
		default:
		}
		if !l.ask.asked.Swap(false) {
			cancel(errTimedOut)
			return
		}
	}
}

// await waits up to wait (0: until it ends) for a call's outcome, or until a question of
// its session arrives after the question count seen, or ctx ends. A call that ended is
// forgotten, its outcome returned; one still running is returned by id with what its
// session waits on.
func (s *Server) await(ctx context.Context, c *running, seen uint64, wait time.Duration) (Answer, error) {
	var timeout <-chan time.Time
	if wait > 0 {
		t := time.NewTimer(wait)
		defer t.Stop()
		timeout = t.C
	}
	for {
		qs, changed, _ := s.questions.list(c.session, seen)
		if len(qs) > 0 {
			return s.stillRunning(c), nil
		}
		select {
		case <-c.done:
			s.calls.forget(c.id)
			return c.ans, c.err
		case <-changed:
		case <-timeout:
			return s.stillRunning(c), nil
		case <-ctx.Done():
			return Answer{}, context.Cause(ctx)
		}
	}
}

// stillRunning is the answer for a call handed over to await_call: its id and every
// question its session waits on.
func (s *Server) stillRunning(c *running) Answer {
	c.handed.Store(true)
	c.stop()
	qs, _, _ := s.questions.list(c.session, 0)
	return Answer{Call: c.id, Pending: qs}
}
