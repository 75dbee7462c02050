package transport

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Transport is one connection to one server.
type Transport interface {
	// Name is "stdio", "http" (Streamable HTTP) or "sse" (HTTP+SSE, 2024-11-05).
	Name() string
	// Start connects (spawns, opens streams) and begins reporting to sink. Everything the
	// transport sees from then on goes to sink, from its own goroutines, in arrival order per
	// stream. Start returns once the transport can Send.
	Start(ctx context.Context, sink Sink) error
	// Send writes one outgoing message. For HTTP transports the response body (JSON or an SSE
	// stream) is read in the background and its frames go to the sink; Send returns once the
	// request is written and the response headers are in. A non-2xx answer is returned as an
	// *HTTPStatusError (after its JSON-RPC body, if any, went to the sink) so the session can
	// fail a pending request the body did not answer.
	Send(ctx context.Context, m Outgoing) error
	// Close ends the connection (stdio: close stdin, grace period, SIGTERM, SIGKILL; HTTP:
	// DELETE the session when one exists) and waits for the transport's goroutines.
	Close(ctx context.Context) error
}

// Sink receives everything a transport observes. Implementations must be safe for concurrent
// use and must not block for long (the session copies and queues).
type Sink interface {
	// Received is one frame's exact bytes (raw is owned by the sink after the call).
	Received(raw []byte, info RecvInfo)
	// Stderr is one line the server wrote on stderr, without its newline.
	Stderr(line []byte)
	// HTTP is one HTTP exchange, reported once its response headers (or its error) are in.
	HTTP(ex *HTTPExchange)
	// Note is a transport event worth a timeline row: stream opened/closed, reconnecting,
	// fallback from Streamable HTTP to HTTP+SSE, process started, and so on.
	Note(n Note)
	// Exited is the server process ending (stdio) or the connection being lost for good.
	Exited(info ExitInfo)
}

// RecvInfo says how a received frame arrived.
type RecvInfo struct {
	Via          string // "stdout", "http" (JSON body), "sse" (an SSE event)
	Exchange     uint64 // HTTPExchange.ID the frame came on; 0 for stdio
	SSEID        string // SSE event id, if any
	SSEEvent     string // SSE event type, if any ("message" when absent)
	Size         int64  // size on the wire; larger than len(raw) when Truncated
	Truncated    bool   // the frame exceeded the size limit; raw holds only its head
	Unterminated bool   // stdio: the stream ended before this line's newline
	// Masked says the bytes are a recording's, with its secrets masked: not the wire's, and
	// Size is the size they had there.
	Masked bool
	// SessionChanged is "OLD → NEW" when the HTTP response the frame came on carried an
	// Mcp-Session-Id other than the session's: servers assign the id once, at initialize.
	SessionChanged string
}

// Outgoing is one message to send, already encoded.
type Outgoing struct {
	Raw             []byte
	ID              []byte // the request id as written, for requests; lets HTTP transports see their response arrive
	Method          string // request/notification method; "" for responses
	Name            string // tool/prompt name or resource URI (Mcp-Name header, 2026-07-28)
	IsRequest       bool   // expects a response
	IsResponse      bool   // answers a server→client request
	ProtocolVersion string // negotiated revision; "" before negotiation
	Stateless       bool   // 2026-07-28: no Mcp-Session-Id; Mcp-Method / Mcp-Name headers
	Probe           bool   // a detection step (the era probe; AutoHTTP's first initialize): its HTTP exchange has Purpose "probe"
	// Params are the tool parameters mirrored into Mcp-Param-{Name} headers (2026-07-28,
	// tools/call over Streamable HTTP), values not yet encoded. Other transports ignore them.
	Params []ParamHeader
	// NoWait, on a notification, asks Send to return once the message is on its way in
	// order (over HTTP: once the POST has been written) rather than when the server has
	// taken it (the 202): nothing in the spec asks a client to wait for that. A failure
	// after Send returned is reported to the sink as a note.
	NoWait bool
}

// ParamHeader is one Mcp-Param-{Name} header: the x-mcp-header name as the server declared
// it and the parameter's value as text; the transport applies the Base64 sentinel encoding.
type ParamHeader struct {
	Name  string
	Value string
}

// HTTPExchange is one HTTP request and the head of its response. Secret header values and
// secret query parameters of the URL are masked before the exchange is reported.
type HTTPExchange struct {
	ID          uint64
	Purpose     string // "post", "listen" (standalone GET), "resume", "delete", "legacy-sse", "probe", "auth", "card"
	Method      string
	URL         string
	ReqHeaders  http.Header
	Status      int // 0 when the request failed before a response
	RespHeaders http.Header
	ContentType string
	Started     time.Time
	Duration    time.Duration // until response headers or error
	Err         string
	// Hop is the exchange's place in a chain of redirects: 0 for the request as made, n
	// for the n-th redirect followed.
	Hop int
	// Redirect is set when the answer was a redirect (301, 302, 303, 307, 308): where it
	// led, whether it was followed and what credentials were withheld or forwarded.
	Redirect *Redirect
	// Step labels an exchange the authorizer made ("resource metadata", "token", ...), or
	// a server card's location (Purpose "card"); "" for the MCP traffic itself.
	Step string
	// ReqBody and RespBody are the heads of an authorization exchange's bodies, with
	// secrets (codes, verifiers, client secrets, tokens) masked.
	ReqBody, RespBody string
	// Checks say what was verified of an authorization answer; Problems what was off.
	Checks   []string
	Problems []AuthProblem
}

// AuthProblem is something off in an authorization exchange: a finding code
// (protocol.FindAuth...) and what was found.
type AuthProblem struct {
	Code string
	Text string
}

// Note is a transport event.
type Note struct {
	Kind string // "spawn", "stream-open", "stream-end", "reconnect", "fallback", "endpoint", "session-expired", ...
	Text string
}

// ExitInfo describes the end of a server process or connection.
type ExitInfo struct {
	Code       int    // exit code, -1 when killed by a signal or unknown
	Signal     string // e.g. "killed", "terminated"; "" when it exited by itself
	Err        string // how it ended if not a plain exit
	LastStderr []string
	ByUs       bool // we closed it
}

// HTTPStatusError is returned by Send when the server answered with an error status.
type HTTPStatusError struct {
	Status int
	Body   string // head of the body, for the error message
	// Delivered: the body was a JSON-RPC message and went to the sink as a frame before
	// Send returned, so a pending request it answers is already answered.
	Delivered bool
	// Hint says what may have caused the status: a redirect to another origin that
	// withheld the credentials.
	Hint string
	// SessionEnded is the session id the request carried when the server answered 404 Not
	// Found: the session is over and a new initialize starts another.
	SessionEnded string
	// Auth is why authorization failed, when the status was 401 or 403 and the authorizer
	// could not obtain acceptable credentials.
	Auth error
}

// Unwrap returns the authorization failure, if any.
func (e *HTTPStatusError) Unwrap() error { return e.Auth }

func (e *HTTPStatusError) Error() string {
	s := "HTTP " + strconv.Itoa(e.Status) + " " + http.StatusText(e.Status)
	if b := firstLine(e.Body, 160); b != "" {
		s += ": " + b
	}
	if e.Hint != "" {
		s += " (" + e.Hint + ")"
	}
	if e.Auth != nil {
		s += ": " + e.Auth.Error()
	}
	return s
}

// firstLine is the first non-blank line of s, cut to max bytes.
func firstLine(s string, max int) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			if len(l) > max {
				l = l[:max] + "…"
			}
			return l
		}
	}
	return ""
}

// Authorizer is the hook for HTTP authorization. Authorize may add headers to every
// outgoing request; Unauthorized is called on a 401 and Forbidden on a 403 (a step-up for
// insufficient_scope), and each reports whether the request should be retried once more.
type Authorizer interface {
	Authorize(req *http.Request) error
	Unauthorized(ctx context.Context, resp *http.Response) (retry bool, err error)
	Forbidden(ctx context.Context, resp *http.Response) (retry bool, err error)
}

// LegacyPreferrer is implemented by a transport that can start on HTTP+SSE when told the
// URL spoke it before (AutoHTTP, from the era cache).
type LegacyPreferrer interface {
	PreferLegacy()
}

// AuthRefusal is implemented by an Authorizer that can explain a 401 answered to the
// credentials it has just renewed (the request is not retried again): Refused returns the
// error to report with the 401, or nil.
type AuthRefusal interface {
	Refused(resp *http.Response) error
}

// AuthAnswer is implemented by an Authorizer that reads answers other than a 401: Answered
// sees each (a DPoP nonce for the next proof may come with any answer, RFC 9449 §8.2, §9).
type AuthAnswer interface {
	Answered(resp *http.Response)
}

// StoredCredential is implemented by an Authorizer that can tell when a request carried
// credentials kept from an earlier run: StoredHint returns what to tell the user with an
// error answer to req (that the stored token was sent, and how to start afresh), or "".
type StoredCredential interface {
	StoredHint(req *http.Request) string
}

// AuthBinder is implemented by an Authorizer that makes HTTP requests of its own
// (metadata, registration, token): the transport hands it an AuthExchanger when it starts.
type AuthBinder interface {
	BindAuth(x AuthExchanger)
}

// AuthCloser is implemented by an Authorizer whose work can outlive a request (a login
// waiting for the browser): the transport's Close ends it and waits for it, so that it
// does not go on after the session.
type AuthCloser interface {
	CloseAuth(ctx context.Context) error
}

// AuthExchanger makes the authorizer's requests through the transport's client.
type AuthExchanger interface {
	// AuthExchange sends req (without the user's -H headers or bearer token), following
	// redirects as the transport does, and returns the answer with its body read. Every hop
	// but the last is reported at once; the last when the reply's Report is called (after
	// the caller has added its checks), or at once when the request failed.
	AuthExchange(ctx context.Context, step string, req *http.Request) (*AuthReply, error)
	// AuthReport reports an exchange the authorizer did not make itself: the browser's
	// redirect to its loopback listener. ID and Purpose are filled in.
	AuthReport(ex *HTTPExchange)
	// AuthNote reports a step of the authorization that is not an HTTP exchange.
	AuthNote(text string)
}

// Authorized is implemented by the HTTP transports: the Authorizer they were given (nil
// when none), so the session can offer it to the user.
type Authorized interface {
	Authorizer() Authorizer
}
