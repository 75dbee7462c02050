package transport

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"
)

// AutoHTTP speaks Streamable HTTP and falls back to HTTP+SSE (2024-11-05) the way the
// 2025-03-26 backwards-compatibility rules describe: when the POST of the initialize
// request fails with a 4xx status, it GETs the same URL expecting an event stream whose
// first event is "endpoint", and re-sends initialize over that transport. Only an
// initialize that has not yet succeeded can trigger the switch; other requests (a
// 2026-07-28 server/discover probe answered 400, say) never do. 401 and 403 do not either:
// they are about credentials, not about the transport.
type AutoHTTP struct {
	opts HTTPOptions
	http *StreamableHTTP

	fallbackMu sync.Mutex // serialises the switch

	mu           sync.Mutex
	sink         Sink
	legacy       *LegacySSE // set once the switch succeeded
	pending      *LegacySSE // starting, during the switch
	decided      bool       // initialize succeeded over one transport or the other
	closed       bool
	preferLegacy bool // the first initialize tries HTTP+SSE first (PreferLegacy)
}

var _ Transport = (*AutoHTTP)(nil)

// legacyFirstWait bounds the wait for the endpoint event when PreferLegacy sends the first
// initialize to HTTP+SSE: a URL that no longer speaks it must not hold the session.
const legacyFirstWait = 5 * time.Second

// NewAutoHTTP returns a transport that starts as Streamable HTTP at o.URL. Its inner
// transports share o.Auth, whose life ends with the AutoHTTP's Close, not theirs.
func NewAutoHTTP(o HTTPOptions) *AutoHTTP {
	o.authShared = true
	return &AutoHTTP{opts: o, http: NewStreamableHTTP(o), sink: nopSink{}}
}

// Name reports the transport in use: "http" (Streamable HTTP) or, after the fallback, "sse".
func (a *AutoHTTP) Name() string {
	if a.current() != nil {
		return "sse"
	}
	return "http"
}

// SessionID is the Streamable HTTP session id; "" after the fallback.
func (a *AutoHTTP) SessionID() string { return a.http.SessionID() }

// Abandon implements Abandoner (Streamable HTTP's streams; HTTP+SSE has one stream only).
func (a *AutoHTTP) Abandon(id json.RawMessage) { a.http.Abandon(id) }

func (a *AutoHTTP) current() *LegacySSE {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.legacy
}

// Start begins reporting to sink.
func (a *AutoHTTP) Start(ctx context.Context, sink Sink) error {
	a.mu.Lock()
	a.sink = sink
	a.mu.Unlock()
	return a.http.Start(ctx, exitFilter{sink})
}

// PreferLegacy says the URL spoke HTTP+SSE before (the era cache remembers it): the first
// initialize goes there at once, without the POST that Streamable HTTP would have refused.
// If HTTP+SSE does not answer (its endpoint event within legacyFirstWait), it goes on as
// Streamable HTTP.
func (a *AutoHTTP) PreferLegacy() {
	a.mu.Lock()
	a.preferLegacy = true
	a.mu.Unlock()
}

// Send sends m over the transport in use, switching to HTTP+SSE first when m is an
// initialize that Streamable HTTP refused.
func (a *AutoHTTP) Send(ctx context.Context, m Outgoing) error {
	if l := a.current(); l != nil {
		return l.Send(ctx, m)
	}
	a.mu.Lock()
	decided, prefer := a.decided, a.preferLegacy && m.Method == "initialize"
	if prefer {
		a.preferLegacy = false
	}
	a.mu.Unlock()
	if prefer && !decided {
		wctx, cancel := context.WithTimeout(ctx, legacyFirstWait)
		l, err := a.switchLegacy(wctx, "this URL spoke HTTP+SSE (2024-11-05) before: GET "+a.opts.URL+" for its endpoint event, without a Streamable HTTP POST first")
		cancel()
		switch {
		case err == nil:
			return l.Send(ctx, m)
		case ctx.Err() != nil || a.isClosed():
			return err
		}
		a.note("HTTP+SSE did not answer as before (" + err.Error() + "): trying Streamable HTTP")
	}
	if m.Method == "initialize" && !decided {
		m.Probe = true // a refusal is the expected step to HTTP+SSE, not an error to show in red
	}
	err := a.http.Send(ctx, m)
	if m.Method != "initialize" || decided {
		return err
	}
	if err == nil {
		a.mu.Lock()
		a.decided = true
		a.mu.Unlock()
		return nil
	}
	var se *HTTPStatusError
	if !errors.As(err, &se) || se.Delivered || se.Status < 400 || se.Status > 499 ||
		se.Status == http.StatusUnauthorized || se.Status == http.StatusForbidden {
		return err
	}
	return a.fallback(ctx, m, se)
}

// fallback switches to HTTP+SSE and re-sends m there.
func (a *AutoHTTP) fallback(ctx context.Context, m Outgoing, cause *HTTPStatusError) error {
	l, err := a.switchLegacy(ctx, fmt.Sprintf(
		"POST initialize answered %d %s: not a Streamable HTTP endpoint; trying HTTP+SSE (2024-11-05): GET %s for its endpoint event",
		cause.Status, http.StatusText(cause.Status), a.opts.URL))
	if err != nil {
		a.note("HTTP+SSE did not work either: " + err.Error())
		return fmt.Errorf("streamable HTTP: %w; HTTP+SSE fallback: %w", cause, err)
	}
	return l.Send(ctx, m)
}

// switchLegacy makes HTTP+SSE at the URL the transport in use, after noting why (intro).
// A switch a concurrent initialize already made is taken as it is.
func (a *AutoHTTP) switchLegacy(ctx context.Context, intro string) (*LegacySSE, error) {
	a.fallbackMu.Lock()
	defer a.fallbackMu.Unlock()
	if l := a.current(); l != nil {
		return l, nil
	}
	a.note(intro)
	l := NewLegacySSE(a.opts)
	a.mu.Lock()
	if a.closed {
		a.mu.Unlock()
		return nil, errors.New("HTTP transport: closed")
	}
	sink := a.sink
	a.pending = l
	a.mu.Unlock()
	err := l.Start(ctx, exitFilter{sink})
	a.mu.Lock()
	a.pending = nil
	if err == nil && !a.closed {
		a.legacy, a.decided = l, true
	}
	closed := a.closed
	a.mu.Unlock()
	switch {
	case err != nil:
		_ = l.Close(ctx)
		return nil, err
	case closed:
		_ = l.Close(ctx)
		return nil, errors.New("HTTP transport: closed")
	}
	return l, nil
}

// note reports a transport note of the switch.
func (a *AutoHTTP) note(text string) {
	a.mu.Lock()
	sink := a.sink
	a.mu.Unlock()
	sink.Note(Note{Kind: "fallback", Text: text})
}

// isClosed reports whether Close has been called.
func (a *AutoHTTP) isClosed() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.closed
}

// Listen opens the Streamable HTTP standalone GET stream. After the fallback there is
// nothing to open: the HTTP+SSE event stream already carries every server message.
func (a *AutoHTTP) Listen(ctx context.Context) error {
	if a.current() != nil {
		return nil
	}
	return a.http.Listen(ctx)
}

// Close closes the transports in use and waits for their goroutines.
func (a *AutoHTTP) Close(ctx context.Context) error {
	a.mu.Lock()
	if a.closed {
		a.mu.Unlock()
		return nil
	}
	a.closed = true
	sink, legacy, pending := a.sink, a.legacy, a.pending
	a.mu.Unlock()
	errs := []error{a.http.Close(ctx)}
	if pending != nil {
		errs = append(errs, pending.Close(ctx)) // ends a switch in progress
	}
	if legacy != nil {
		errs = append(errs, legacy.Close(ctx))
	}
	errs = append(errs, closeAuth(ctx, a.opts.Auth)) // after the inner transports' DELETE
	sink.Exited(ExitInfo{ByUs: true})
	return errors.Join(errs...)
}

// exitFilter passes everything but the inner transports' own Exited-by-us reports: AutoHTTP
// reports its end once.
type exitFilter struct{ Sink }

func (f exitFilter) Exited(info ExitInfo) {
	if !info.ByUs {
		f.Sink.Exited(info)
	}
}

// Authorizer returns the authorizer the transport was given (nil when none).
func (a *AutoHTTP) Authorizer() Authorizer { return a.opts.Auth }
