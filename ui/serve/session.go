package serve

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/secret"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// Target is connect's input: the server, as the command line selects it, and how the
// session answers the server's own requests.
type Target struct {
	Command       []string `json:"command,omitempty" jsonschema:"a stdio server: its program and arguments, e.g. [\"node\",\"build/index.js\"]"`
	URL           string   `json:"url,omitempty" jsonschema:"an HTTP server's URL (Streamable HTTP, falling back to HTTP+SSE unless transport is given)"`
	Config        string   `json:"config,omitempty" jsonschema:"read the server from this config file (mcpServers or VS Code format); with server"`
	Server        string   `json:"server,omitempty" jsonschema:"which server of config"`
	Env           []string `json:"env,omitempty" jsonschema:"each KEY=VAL, set in a spawned server's environment; masked in every result"`
	Headers       []string `json:"headers,omitempty" jsonschema:"HTTP headers, each 'Name: value'; secret ones are masked in every result"`
	Bearer        string   `json:"bearer,omitempty" jsonschema:"bearer token for an HTTP server; masked in every result"`
	Cwd           string   `json:"cwd,omitempty" jsonschema:"working directory of a spawned server"`
	Transport     string   `json:"transport,omitempty" jsonschema:"stdio, http (Streamable HTTP) or sse (HTTP+SSE); default: stdio for a command, http with fallback for a URL"`
	Protocol      string   `json:"protocol,omitempty" jsonschema:"auto (default: probe, fall back to initialize) or a revision such as 2025-11-25 or 2026-07-28"`
	Roots         []string `json:"roots,omitempty" jsonschema:"roots to offer the server (paths or URIs); roots are declared only when one is given"`
	Elicit        string   `json:"elicit,omitempty" jsonschema:"how elicitation requests are answered: ask (default: the call returns the question as pending, answer it), decline, cancel or accept-defaults"`
	Sampling      string   `json:"sampling,omitempty" jsonschema:"how sampling requests are answered: ask (default: pending, the agent writes the model's reply with answer) or decline"`
	SamplingReply string   `json:"sampling_reply,omitempty" jsonschema:"answer sampling requests with this fixed text instead"`
	TimeoutMS     int      `json:"timeout_ms,omitempty" jsonschema:"per-request timeout in milliseconds (default 60000)"`
	Reconnect     *bool    `json:"reconnect,omitempty" jsonschema:"when the server process ends or its HTTP session expires, start a new session on the next call (the timeline shows the break); default true for a url, false for a command"`

	reprobe bool // check's sessions of protocol auto probe afresh
	// login presents an authorization URL to the agent instead of opening a browser.
	login func(url string) error
}

// secrets are the values the target gives that a result must never show: the env values
// and header values (or the whole entry, when it is mistyped and has no name), the bearer
// token, the URL's secret parameters.
func (t Target) secrets() []string {
	out := []string{t.Bearer}
	for _, kv := range t.Env {
		if _, v, ok := strings.Cut(kv, "="); ok {
			out = append(out, v)
		} else {
			out = append(out, kv)
		}
	}
	for _, h := range t.Headers {
		if _, v, ok := strings.Cut(h, ":"); ok {
			v = strings.TrimSpace(v)
			out = append(out, v, strings.TrimSpace(strings.TrimPrefix(v, "Bearer ")))
		} else {
			out = append(out, h)
		}
	}
	return append(out, secret.URLValues(t.URL)...)
}

// Reprobe reports whether a session of protocol auto probes the era afresh instead of
// using the cached one (check's sessions do).
func (t Target) Reprobe() bool { return t.reprobe }

// Login is how the session's authorization flow presents the URL the user must open: to
// the agent, who shows it to the user (pending_auth). nil: no login may start (a stored
// token is used), as for check's sessions.
func (t Target) Login() func(url string) error { return t.login }

// Opened is a session made for a target, not yet connected, with how to record it.
type Opened struct {
	Session *session.Session
	Header  recordings.Header
	Masking recordings.Options // the secrets a recording of it masks
}

// Opener makes a session for a target (the command line's server selection).
type Opener func(t Target) (*Opened, error)

// Historical bounds of one session's timeline.
const (
	historyBytes = 32 << 20 // bytes of frames a session's timeline holds
	holdWhole    = 1 << 20  // frames larger than this are held cut and read back from the recording
	maxSessions  = 16       // sessions open at once: 16 timelines of 32 MiB at most
)

// live is one session an agent opened.
type live struct {
	id        string
	target    Target
	rec       *recordings.Writer
	path      string
	server    string // the selection, described and masked
	redactor  *recordings.Redactor
	answers   Answers
	ask       *asker
	login     *loginWait // the handshake that waited for a login, or nil
	subs      subscriptions
	evTypes   eventTypes // the server's event types, for checking payloads
	opened    time.Time
	closeOnce sync.Once
	closeErr  error

	// The session now, and what replaced sessions that ended (reconnect.go).
	smu      sync.Mutex
	s        *session.Session
	pumpDone chan struct{} // the current session's pump ended
	gen      int           // 1, and one more at each reconnect
	gens     []genStart
	revive   revival

	mu     sync.Mutex
	cond   *sync.Cond
	h      *traffic.History
	pumped uint64 // the last seq the timeline holds
	told   uint64 // the last seq a result named: the timeline waits for it
	ended  bool   // the subscription ended
}

// registry holds the live sessions by id.
type registry struct {
	mu   sync.Mutex
	next int
	all  map[string]*live
}

func newRegistry() *registry { return &registry{all: map[string]*live{}} }

// room fails when maxSessions sessions are open.
func (r *registry) room() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.all) >= maxSessions {
		return fmt.Errorf("%d sessions are open, the most serve keeps: disconnect one first", len(r.all))
	}
	return nil
}

// add names l and keeps it.
func (r *registry) add(l *live) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.next++
	l.id = "s" + strconv.Itoa(r.next)
	r.all[l.id] = l
}

// get finds a session by id.
func (r *registry) get(id string) (*live, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	l, ok := r.all[id]
	if !ok {
		ids := make([]string, 0, len(r.all))
		for k := range r.all {
			ids = append(ids, k)
		}
		sort.Strings(ids)
		if len(ids) == 0 {
			return nil, fmt.Errorf("no session %q: no session is open; call connect first", id)
		}
		return nil, fmt.Errorf("no session %q; open sessions: %v", id, ids)
	}
	return l, nil
}

// remove forgets a session.
func (r *registry) remove(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.all, id)
}

// list is every session, in the order they were opened.
func (r *registry) list() []*live {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]*live, 0, len(r.all))
	for _, l := range r.all {
		out = append(out, l)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].opened.Before(out[b].opened) })
	return out
}

// closeAll closes every session and waits for their recordings.
func (r *registry) closeAll() error {
	var errs []error
	for _, l := range r.list() {
		errs = append(errs, l.close())
		r.remove(l.id)
	}
	return errors.Join(errs...)
}

// record starts the recording of o's session in dir and returns the writer and its path.
func record(dir string, o *Opened) (*recordings.Writer, string, error) {
	if dir == "" {
		var err error
		if dir, err = recordings.DefaultRecordDir(); err != nil {
			return nil, "", err
		}
	}
	o.Masking.NoRedact = false // an agent's sessions are always masked
	w, path, err := recordings.CreateIn(dir, o.Header, o.Masking)
	if err != nil {
		return nil, "", fmt.Errorf("record the session: %w", err)
	}
	w.IndexFrames(holdWhole + 1)
	w.Record(o.Session.SubscribeWith(session.SubscribeOptions{Lossless: true}))
	return w, path, nil
}

// newLive records o's session and starts its timeline; the session is not connected yet.
func newLive(dir string, t Target, o *Opened) (*live, error) {
	w, path, err := record(dir, o)
	if err != nil {
		_ = o.Session.Close()
		return nil, err
	}
	h := traffic.NewHistory(traffic.DefaultHistoryLimit)
	h.MaxBytes, h.TruncateOver = historyBytes, holdWhole
	l := &live{target: t, s: o.Session, rec: w, path: path, server: o.Header.Server,
		redactor: recordings.NewRedactor(o.Masking), opened: time.Now(), h: h, pumpDone: make(chan struct{}), gen: 1,
		gens: []genStart{{gen: 1}}}
	l.cond = sync.NewCond(&l.mu)
	go l.pump(o.Session.SubscribeWith(session.SubscribeOptions{Bytes: historyBytes}), 1, l.pumpDone)
	return l, nil
}

// pump adds the session's events to its timeline until the subscription ends.
func (l *live) pump(sub *session.Subscription, gen int, done chan struct{}) {
	defer close(done)
	for {
		evs, ok := sub.Next(context.Background(), 512)
		l.mu.Lock()
		for _, ev := range evs {
			l.h.Add(gen, ev)
			if ev.Seq > l.pumped {
				l.pumped = ev.Seq
			}
		}
		if !ok {
			l.ended = true
		}
		l.cond.Broadcast()
		l.mu.Unlock()
		if !ok {
			return
		}
	}
}

// waitFor waits until the timeline holds the event seq, the stream ends or d passes.
func (l *live) waitFor(seq uint64, d time.Duration) {
	deadline := time.Now().Add(d)
	timer := time.AfterFunc(d, func() {
		l.mu.Lock()
		l.cond.Broadcast()
		l.mu.Unlock()
	})
	defer timer.Stop()
	l.mu.Lock()
	defer l.mu.Unlock()
	for l.pumped < seq && !l.ended && time.Now().Before(deadline) {
		l.cond.Wait()
	}
}

// close ends the session and waits until its recording is written.
func (l *live) close() error {
	l.closeOnce.Do(func() {
		l.revive.mu.Lock() // no session replaces this one from now on
		l.revive.closed = true
		l.revive.mu.Unlock()
		s, done := l.current()
		_ = s.Close()
		<-done
		l.closeErr = l.rec.Close()
	})
	return l.closeErr
}
