package check

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
)

// NewSession makes a session, not yet connected, on the server being checked, negotiating
// protocol ("auto" or a revision). done closes it and everything wired to it (trace,
// recording).
type NewSession func(protocol string) (s *session.Session, done func(), err error)

// ToolCall is one call check makes: a tool and its arguments (nil: the simplest arguments
// the tool's inputSchema allows).
type ToolCall struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
}

// Options say how far check goes.
type Options struct {
	// Protocol is what the first run negotiates: "auto" (the default) or a revision.
	Protocol string
	// AllEras checks each era the server claims: after the negotiated one, the stateful era
	// too when a 2026-07-28 server lists earlier revisions in supportedVersions.
	AllEras bool
	// Read is how many resources (and templates) are read; 0 reads none.
	Read int
	// Calls are the tools called besides the ones annotated read-only (--call, --calls).
	Calls []ToolCall
	// NoSafeCalls keeps check from calling the tools annotated read-only on its own.
	NoSafeCalls bool
	// CallWait is how long a call may run before check cancels it, which is how it tests
	// cancellation on a request that is still running. Default 2 s.
	CallWait time.Duration
	// Slow are the latency thresholds by method; "" is every other method's, "startup" the
	// handshake's. Defaults: 2 s for methods, 5 s for startup.
	Slow map[string]time.Duration
	// StrictTiming counts the timing findings (server.startup, session.slow) as warnings;
	// without, they are notes (info), which --fail-on warning does not fail on: a busy
	// machine makes any server slow (--strict-timing).
	StrictTiming bool
	// StderrLines is how many stderr lines the server may write before it is a warning.
	StderrLines int
	// AppsContrast, when set, makes a session that declares the MCP Apps extension the other
	// way round; check lists the tools once more with it and notes the difference.
	AppsContrast NewSession
	// TokenLimit is the context cost (tokens) past which check warns; 0 is
	// DefaultTokenLimit, below 0 never.
	TokenLimit int
	// Card, when set, is the server's URL (or host): the first run reads its server card
	// there and compares it with the server. CardSent names the headers the connection
	// supplies of its own accord (-H, a bearer token's Authorization).
	Card     string
	CardSent []string
}

func (o *Options) fill() {
	if o.CallWait <= 0 {
		o.CallWait = 2 * time.Second
	}
	o.Slow = maps.Clone(o.Slow) // the defaults go into a copy
	if o.Slow == nil {
		o.Slow = map[string]time.Duration{}
	}
	if _, ok := o.Slow[""]; !ok {
		o.Slow[""] = 2 * time.Second
	}
	if _, ok := o.Slow["startup"]; !ok {
		o.Slow["startup"] = 5 * time.Second
	}
	if o.StderrLines <= 0 {
		o.StderrLines = 1000
	}
	if o.TokenLimit == 0 {
		o.TokenLimit = DefaultTokenLimit
	}
}

// Item is one finding of a check.
type Item struct {
	Code     string            `json:"code"`
	Severity protocol.Severity `json:"-"`
	Message  string            `json:"message"`
	Spec     protocol.SpecRef  `json:"-"`
	Pointer  string            `json:"pointer,omitempty"` // where in the definitions (content findings)
	Frames   []uint64          `json:"frames,omitempty"`  // Seq of the events that show it
	Excerpt  string            `json:"excerpt,omitempty"` // the first of them, cut short
}

// MarshalJSON adds the severity's name and the spec reference with its file and URL.
func (it Item) MarshalJSON() ([]byte, error) {
	type plain Item
	out := struct {
		plain
		Severity string `json:"severity"`
		Spec     any    `json:"spec,omitempty"`
	}{plain: plain(it), Severity: it.Severity.String()}
	if it.Spec.Page != "" {
		out.Spec = map[string]string{"revision": string(it.Spec.Revision), "page": it.Spec.Path(),
			"section": it.Spec.Section, "url": it.Spec.URL()}
	}
	return json.Marshal(out)
}

// Definitions is what the server offers, as it sent it: the snapshot a pin hashes.
type Definitions struct {
	Revision     protocol.Revision         `json:"revision"`
	ServerInfo   session.Implementation    `json:"server"`
	Capabilities json.RawMessage           `json:"capabilities"`
	Instructions string                    `json:"instructions,omitempty"`
	Tools        []json.RawMessage         `json:"tools"`
	Prompts      []json.RawMessage         `json:"prompts"`
	Resources    []json.RawMessage         `json:"resources"`
	Templates    []json.RawMessage         `json:"resourceTemplates"`
	Listed       map[session.ListKind]bool `json:"-"` // which lists were fetched to the end
}

// Timing is the latency of one method over the check.
type Timing struct {
	Method string        `json:"method"`
	Count  int           `json:"count"`
	Median time.Duration `json:"median_ns"`
	Max    time.Duration `json:"max_ns"`
	Limit  time.Duration `json:"limit_ns"`
}

// Run is the check of one era.
type Run struct {
	Revision    protocol.Revision `json:"revision"`
	Stateless   bool              `json:"stateless"`
	Transport   string            `json:"transport"`
	Startup     time.Duration     `json:"startup_ns"`
	StderrLines int               `json:"stderrLines"`
	StderrBytes int               `json:"stderrBytes"`
	Items       []Item            `json:"findings"`
	Timing      []Timing          `json:"timing"`
	Calls       []string          `json:"calls"` // the tools called
	Notes       []string          `json:"notes"` // what was not exercised, and why
	Definitions Definitions       `json:"definitions"`
	Cost        *Cost             `json:"cost,omitempty"`  // what the definitions cost a model's context
	Err         string            `json:"error,omitempty"` // why the run stopped early
	// Apps is what the run saw of the MCP Apps extension (nil: nothing); AppsDeclared says
	// whether the run's session declared it, AppsContrast the tools listed the other way round.
	Apps         *AppsInfo      `json:"apps,omitempty"`
	AppsDeclared bool           `json:"appsDeclared"`
	AppsContrast *ToolsContrast `json:"appsContrast,omitempty"`
	// Card is what the run saw of the server card (nil: not asked, as over stdio).
	Card *CardCheck `json:"card,omitempty"`
	// Events is what the run did with the Events extension (nil: not declared).
	Events    *EventsCheck `json:"events,omitempty"`
	supported []string     // the revisions a 2026-07-28 server listed
}

// Report is the whole check: one run per era checked.
type Report struct {
	Runs []Run `json:"runs"`
}

// Count is how many findings of severity sev the report holds.
func (r *Report) Count(sev protocol.Severity) int {
	n := 0
	for _, run := range r.Runs {
		for _, it := range run.Items {
			if it.Severity == sev {
				n++
			}
		}
	}
	return n
}

// Rank orders severities for --fail-on: info 0, warning 1, error 2.
func Rank(s protocol.Severity) int {
	switch s {
	case protocol.SevError:
		return 2
	case protocol.SevWarning:
		return 1
	}
	return 0
}

// Check checks the server newSession reaches. The first run negotiates "auto"; with
// AllEras a second run covers the stateful era when the server claims it too. An error is
// returned only when the first run cannot connect; later failures are in the Run.
func Check(ctx context.Context, newSession NewSession, o Options) (*Report, error) {
	o.fill()
	rep := &Report{}
	if o.Protocol == "" {
		o.Protocol = "auto"
	}
	first, err := runEra(ctx, newSession, o.Protocol, o)
	if err != nil {
		return nil, err
	}
	if o.AppsContrast != nil {
		contrastApps(ctx, o.AppsContrast, first)
	}
	rep.Runs = append(rep.Runs, *first)
	o.Card = "" // read once, by the first run
	if o.AllEras {
		other := otherEra(first)
		if other == "" {
			first.Notes = append(first.Notes, "--all-eras: the server claims only this era")
			rep.Runs[0] = *first
		} else if run, err := runEra(ctx, newSession, string(other), o); err != nil {
			rep.Runs = append(rep.Runs, Run{Revision: other, Err: err.Error()})
		} else {
			rep.Runs = append(rep.Runs, *run)
		}
	}
	return rep, nil
}

// otherEra is the newest stateful revision a 2026-07-28 server lists, or "".
func otherEra(r *Run) protocol.Revision {
	if !r.Stateless {
		return ""
	}
	var best protocol.Revision
	for _, v := range r.supported {
		if rev, ok := protocol.ParseRevision(v); ok && !rev.Stateless() && rev > best {
			best = rev
		}
	}
	return best
}

// events collects a session's events as they are published.
type events struct {
	mu      sync.Mutex
	all     []*session.Event
	changed chan struct{}
	done    chan struct{}
}

func collect(sub *session.Subscription) *events {
	ev := &events{changed: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(ev.done)
		for {
			batch, ok := sub.Next(context.Background(), 256)
			if !ok {
				return
			}
			ev.mu.Lock()
			ev.all = append(ev.all, batch...)
			close(ev.changed)
			ev.changed = make(chan struct{})
			ev.mu.Unlock()
		}
	}()
	return ev
}

// snapshot returns the events so far.
func (e *events) snapshot() []*session.Event {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.all)
}

// waitFor waits until an event satisfies match, ctx ends or d passes; it returns the event.
func (e *events) waitFor(ctx context.Context, d time.Duration, match func(*session.Event) bool) *session.Event {
	t := time.NewTimer(d)
	defer t.Stop()
	seen := 0
	for {
		e.mu.Lock()
		for _, ev := range e.all[seen:] {
			if match(ev) {
				e.mu.Unlock()
				return ev
			}
		}
		seen = len(e.all)
		ch := e.changed
		e.mu.Unlock()
		select {
		case <-ch:
		case <-t.C:
			return nil
		case <-ctx.Done():
			return nil
		case <-e.done:
			return nil
		}
	}
}

// excerptLen is how much of a frame an Item quotes.
const excerptLen = 160

// excerpt quotes the start of an event: a frame's bytes, a stderr line, a note.
func excerpt(ev *session.Event) string {
	var s string
	switch {
	case ev == nil:
		return ""
	case ev.Frame != nil:
		s = string(ev.Frame.Raw)
	default:
		s = ev.Text
	}
	if len(s) > excerptLen {
		cut := excerptLen
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

// String sums up a run: "2025-11-25 over stdio: 0 errors, 1 warning, 2 info".
func (r *Run) String() string {
	var e, w, i int
	for _, it := range r.Items {
		switch it.Severity {
		case protocol.SevError:
			e++
		case protocol.SevWarning:
			w++
		default:
			i++
		}
	}
	return fmt.Sprintf("%s over %s: %d errors, %d warnings, %d info", r.Revision, r.Transport, e, w, i)
}
