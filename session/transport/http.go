package transport

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/mcpscope/mcpscope/session/secret"
)

// HTTPOptions configures the HTTP transports (Streamable HTTP, HTTP+SSE and the automatic
// choice between them).
type HTTPOptions struct {
	// URL is the MCP endpoint (Streamable HTTP) or the SSE endpoint (HTTP+SSE).
	URL string
	// Headers are extra request headers (-H). They are added to every request and replace
	// the transport's own header of the same name, so a user can deliberately send
	// something unusual.
	Headers http.Header
	// BearerToken, when set, is sent as "Authorization: Bearer <token>".
	BearerToken string
	// Client sends the requests; nil means a client of the transport's own. Its Timeout
	// must be zero, or long-lived event streams are cut.
	Client *http.Client
	// Auth, when set, may add headers to every request and is consulted on a 401.
	Auth Authorizer
	// MaxFrame bounds the bytes kept of one frame or SSE event; larger ones are reported
	// truncated. Default 64 MiB.
	MaxFrame int64
	// ReconnectLimit bounds consecutive reconnection attempts of one event stream.
	// Default 5.
	ReconnectLimit int
	// MaxRedirects bounds the redirects followed for one request. Default
	// DefaultMaxRedirects; a negative value follows none.
	MaxRedirects int
	// FollowRedirectsWithCredentials sends the -H headers, the bearer token and the
	// authorizer's headers to another origin a redirect leads to. Without it they go only
	// to the origin of the URL, and a redirect elsewhere says what it withheld.
	FollowRedirectsWithCredentials bool

	// authShared: the transport is part of AutoHTTP, which owns Auth's life; its Close
	// leaves Auth alone (AuthCloser), as the session goes on over the other transport.
	authShared bool
}

const (
	defaultMaxFrame       = 64 << 20
	defaultReconnectLimit = 5
	defaultRetry          = time.Second      // reconnection delay when the server gave none
	maxRetryDelay         = 30 * time.Second // upper bound on a server-given delay
	errorBodyHead         = 512              // bytes of an error body kept in HTTPStatusError
	userAgent             = "mcpscope"
)

// Header names used on the wire.
const (
	hdrSessionID       = "Mcp-Session-Id"
	hdrProtocolVersion = "Mcp-Protocol-Version"
	hdrMethod          = "Mcp-Method"
	hdrName            = "Mcp-Name"
	hdrParamPrefix     = "Mcp-Param-"
	hdrLastEventID     = "Last-Event-ID"
	mediaJSON          = "application/json"
	mediaEventStream   = "text/event-stream"
)

// exchangeIDs numbers HTTP exchanges; one counter for the process keeps IDs unique across
// transports (AutoHTTP runs two).
var exchangeIDs atomic.Uint64

// NextExchangeID numbers an HTTP exchange made beside a transport (a server card's fetch)
// from the same counter, so its ID is unique among the transports' own.
func NextExchangeID() uint64 { return exchangeIDs.Add(1) }

// nopSink is the sink before Start.
type nopSink struct{}

func (nopSink) Received([]byte, RecvInfo) {}
func (nopSink) Stderr([]byte)             {}
func (nopSink) HTTP(*HTTPExchange)        {}
func (nopSink) Note(Note)                 {}
func (nopSink) Exited(ExitInfo)           {}

// httpCore is what the HTTP transports share: building, authorizing, sending and reporting
// requests, and reading bodies within bounds.
type httpCore struct {
	opts         HTTPOptions
	client       *http.Client // a copy of the given one, following no redirect by itself
	own          bool         // client is ours; its idle connections are closed on Close
	maxFrame     int64
	maxRedirects int
	sink         Sink // set by Start, before any goroutine runs
	link         link // what is known of reaching the server
}

func newHTTPCore(o HTTPOptions) *httpCore {
	c := &httpCore{opts: o, maxFrame: o.MaxFrame, maxRedirects: o.MaxRedirects, sink: nopSink{}}
	if o.Client != nil {
		cl := *o.Client
		c.client = &cl
	} else {
		c.client = &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
		c.own = true
	}
	c.client.CheckRedirect = noAutoRedirect
	switch {
	case c.maxRedirects == 0:
		c.maxRedirects = DefaultMaxRedirects
	case c.maxRedirects < 0:
		c.maxRedirects = 0
	}
	if c.maxFrame <= 0 {
		c.maxFrame = defaultMaxFrame
	}
	if c.opts.ReconnectLimit <= 0 {
		c.opts.ReconnectLimit = defaultReconnectLimit
	}
	return c
}

// checkURL validates an http(s) URL.
func checkURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("server URL %q: %w", secret.URL(raw), maskURLError(err))
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return nil, fmt.Errorf("server URL %q: want an http:// or https:// URL", secret.URL(raw))
	}
	return u, nil
}

// closeIdle releases the connections of a client the transport created.
func (c *httpCore) closeIdle() {
	if c.own {
		c.client.CloseIdleConnections()
	}
}

// request is one HTTP request to make.
type request struct {
	purpose string // HTTPExchange.Purpose
	method  string
	url     string
	body    []byte
	header  http.Header
	wrote   func() // called when the request (headers and body) has been written, once per hop
	// retry: a stream's reconnection, whose failure its stream reports (reconnecting N/M,
	// then unreachable when it gives up) rather than the request.
	retry bool
}

// response is a response whose body the caller reads. The request lives until cancel is
// called; until detach is called, the wait context given to do also ends it.
type response struct {
	*http.Response
	ex             uint64
	withheld       *Redirect // the redirect on the way that withheld credentials, if any
	cancel         context.CancelFunc
	detach         func() bool // stops wait from ending the request; false if it already has
	sessionChanged string      // RecvInfo.SessionChanged of every frame read from it
	authErr        error       // why the authorizer could not make the request acceptable
	stored         string      // the request carried a stored credential: what to say of it
}

// release closes the body and ends the request.
func (r *response) release() {
	_ = r.Body.Close()
	r.detach()
	r.cancel()
}

// do sends r. The request lives as long as parent, or until wait ends before the caller
// detaches it: that lets a stream outlive the call that opened it. Every attempt is
// reported to the sink once its headers (or its error) are in. On a 401 the Authorizer may
// ask for one retry, and on a 403 (step-up) for one more; a 401 carrying a DPoP-Nonce after
// that, for one more again.
func (c *httpCore) do(parent, wait context.Context, r request) (*response, error) {
	tried401, tried403, triedNonce := false, false, false
	for {
		reqCtx, cancel := context.WithCancel(parent)
		detach := context.AfterFunc(wait, cancel)
		resp, ex, withheld, err := c.send(reqCtx, r)
		if err != nil {
			if !r.retry && reqCtx.Err() == nil && !errIsClosing(parent, err) {
				c.link.set(c.sink, LinkUnreachable) // the request could not be sent or answered
			}
			detach()
			cancel()
			if werr := wait.Err(); werr != nil && parent.Err() == nil {
				return nil, fmt.Errorf("%s %s: %w", r.method, secret.URL(r.url), werr)
			}
			return nil, err
		}
		c.link.set(c.sink, LinkReachable)
		out := &response{Response: resp, ex: ex, withheld: withheld, cancel: cancel, detach: detach}
		if c.opts.Auth == nil || r.purpose == "delete" {
			// A DELETE ends the session: a 401 to it is reported, never a reason to ask
			// the user to log in while closing.
			return out, nil
		}
		if a, ok := c.opts.Auth.(AuthAnswer); ok && resp.StatusCode != http.StatusUnauthorized {
			a.Answered(resp) // a 401 goes to Unauthorized, which judges its nonce
		}
		var ask func(context.Context, *http.Response) (bool, error)
		switch {
		case resp.StatusCode == http.StatusUnauthorized && !tried401:
			ask, tried401 = c.opts.Auth.Unauthorized, true
		case resp.StatusCode == http.StatusForbidden && !tried403:
			ask, tried403 = c.opts.Auth.Forbidden, true
		case resp.StatusCode == http.StatusUnauthorized && !triedNonce && resp.Header.Get("DPoP-Nonce") != "":
			// The new credentials were DPoP-bound and the server wants a nonce in the proof
			// (RFC 9449 §9): one more attempt, with it.
			ask, triedNonce = c.opts.Auth.Unauthorized, true
		default:
			if rf, ok := c.opts.Auth.(AuthRefusal); ok && resp.StatusCode == http.StatusUnauthorized && tried401 {
				out.authErr = rf.Refused(resp)
			}
			if sc, ok := c.opts.Auth.(StoredCredential); ok && resp.StatusCode >= 400 && resp.StatusCode != http.StatusNotFound && out.authErr == nil && resp.Request != nil {
				// Not a 404: that ends a session, whatever the token.
				out.stored = sc.StoredHint(resp.Request)
			}
			return out, nil
		}
		retry, aerr := ask(wait, resp)
		if aerr != nil || !retry {
			if aerr != nil {
				out.authErr = aerr
				c.sink.Note(Note{Kind: "auth", Text: fmt.Sprintf("%s %s: %v", r.method, secret.URL(r.url), authFailed(aerr))})
			}
			return out, nil
		}
		out.release()
		c.sink.Note(Note{Kind: "auth", Text: fmt.Sprintf("%s %s: %d %s; retrying with new credentials", r.method, secret.URL(r.url), resp.StatusCode, http.StatusText(resp.StatusCode))})
	}
}

// readBody reads at most limit bytes of r and counts (without keeping) the rest.
func readBody(r io.Reader, limit int64) (head []byte, size int64, truncated bool, err error) {
	head, err = io.ReadAll(io.LimitReader(r, limit))
	size = int64(len(head))
	if err != nil || size < limit {
		return head, size, false, err
	}
	n, err := io.Copy(io.Discard, r)
	return head, size + n, n > 0, err
}

// mediaType is the lower-cased media type of a Content-Type value, without parameters.
func mediaType(contentType string) string {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		mt, _, _ = strings.Cut(contentType, ";")
	}
	return strings.ToLower(strings.TrimSpace(mt))
}

// bodyHead is the start of an error body, for messages.
func bodyHead(b []byte) string {
	if len(b) > errorBodyHead {
		b = b[:errorBodyHead]
	}
	return strings.TrimSpace(strings.ToValidUTF8(string(b), "\uFFFD"))
}

// isJSONRPC reports whether body is a JSON-RPC message or a batch of them: valid JSON
// whose top-level object (or first array element) has a "jsonrpc" member.
func isJSONRPC(body []byte) bool {
	body = bytes.TrimSpace(body)
	if len(body) == 0 || !json.Valid(body) {
		return false
	}
	var obj map[string]json.RawMessage
	if body[0] == '[' {
		var arr []json.RawMessage
		if json.Unmarshal(body, &arr) != nil || len(arr) == 0 {
			return false
		}
		body = arr[0]
	}
	if json.Unmarshal(body, &obj) != nil {
		return false
	}
	_, ok := obj["jsonrpc"]
	return ok
}

// statusError turns a non-2xx response whose body is not JSON-RPC into an error, with a
// Note for the timeline.
func (c *httpCore) statusError(r request, resp *response, head []byte) error {
	err := &HTTPStatusError{Status: resp.StatusCode, Body: bodyHead(head), Hint: resp.hint(), Auth: resp.authErr}
	c.sink.Note(Note{Kind: "http-error", Text: fmt.Sprintf("%s %s (%s): %v", r.method, secret.URL(r.url), r.purpose, err)})
	return err
}

// retryDelay is the delay before reconnecting: the server's, bounded, or the default.
func retryDelay(d time.Duration, given bool) time.Duration {
	if !given {
		return defaultRetry
	}
	return min(d, maxRetryDelay)
}

// errIsClosing reports errors caused by the transport shutting down.
func errIsClosing(ctx context.Context, err error) bool {
	return ctx.Err() != nil || errors.Is(err, context.Canceled)
}

// Authorizer returns the authorizer the transport was given (nil when none).
func (s *StreamableHTTP) Authorizer() Authorizer { return s.core.opts.Auth }

// Authorizer returns the authorizer the transport was given (nil when none).
func (l *LegacySSE) Authorizer() Authorizer { return l.core.opts.Auth }

// authFailed is an authorizer's error as a message that says once that authorization
// failed.
func authFailed(err error) string {
	msg := err.Error()
	if strings.HasPrefix(msg, "authorization failed") {
		return msg
	}
	return "authorization failed: " + msg
}
