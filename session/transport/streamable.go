package transport

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
)

// StreamableHTTP is the Streamable HTTP transport (protocol revisions 2025-03-26 to
// 2025-11-25, and the stateless form of 2026-07-28). Every message is its own POST; a
// response arrives as a JSON body or on an SSE stream read in the background, and SSE
// streams that end before their response are resumed with GET and Last-Event-ID.
type StreamableHTTP struct {
	core *httpCore
	url  string

	life context.Context // ends on Close; every stream and in-flight request hangs off it
	stop context.CancelFunc
	wg   sync.WaitGroup // stream goroutines

	mu           sync.Mutex
	started      bool
	closed       bool
	sessionID    string
	protoVersion string // last negotiated revision seen on an Outgoing
	stateless    bool   // a 2026-07-28 stateless message has been sent
	listening    bool

	posts  postStreams // response streams of requests still awaited
	settle settling    // exchanges finishing on a connection the next POST can take
}

var _ Transport = (*StreamableHTTP)(nil)

// NewStreamableHTTP returns a Streamable HTTP transport for o.URL. Nothing is sent until
// the first Send.
func NewStreamableHTTP(o HTTPOptions) *StreamableHTTP {
	life, stop := context.WithCancel(context.Background())
	return &StreamableHTTP{core: newHTTPCore(o), url: o.URL, life: life, stop: stop}
}

// Abandon implements Abandoner: the response stream of request id, if it is open or
// waiting to reconnect, is not resumed.
func (s *StreamableHTTP) Abandon(id json.RawMessage) { s.posts.abandon(id) }

// Name reports "http".
func (s *StreamableHTTP) Name() string { return "http" }

// SessionID is the Mcp-Session-Id the server assigned in its answer to initialize; "" when
// there is none (stateless server, before initialize, or after the session expired).
func (s *StreamableHTTP) SessionID() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sessionID
}

// Start checks the URL and begins reporting to sink. Streamable HTTP has no connection to
// open: the first request is the first Send.
func (s *StreamableHTTP) Start(ctx context.Context, sink Sink) error {
	if _, err := checkURL(s.url); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.started || s.closed {
		return errors.New("streamable HTTP transport: already started or closed")
	}
	s.core.sink = sink
	s.core.bindAuth()
	s.started = true
	return nil
}

// ready fails a call made before Start or after Close.
func (s *StreamableHTTP) ready() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closed:
		return errors.New("streamable HTTP transport: closed")
	case !s.started:
		return errors.New("streamable HTTP transport: not started")
	}
	return nil
}

// Send POSTs m. It returns once the response headers are in: a JSON body or an SSE stream
// is read in the background and its frames go to the sink. A non-2xx answer whose body is a
// JSON-RPC message is reported as a frame first, then Send returns an *HTTPStatusError with
// Delivered set; any other non-2xx answer is an *HTTPStatusError.
func (s *StreamableHTTP) Send(ctx context.Context, m Outgoing) error {
	if err := s.ready(); err != nil {
		return err
	}
	h := http.Header{}
	h.Set("Content-Type", mediaJSON)
	h.Set("Accept", mediaJSON+", "+mediaEventStream)
	sentSession := s.messageHeaders(h, m)
	req := request{purpose: "post", method: http.MethodPost, url: s.url, body: m.Raw, header: h}
	if m.Probe {
		req.purpose = "probe"
	}
	s.settle.wait(ctx)
	if m.NoWait && !m.IsRequest && !m.IsResponse {
		return s.sendNoWait(ctx, m, req, sentSession)
	}
	resp, err := s.core.do(s.life, ctx, req)
	if err != nil {
		return err
	}
	return s.answered(resp, req, m, sentSession)
}

// sendNoWait POSTs a notification in the background and returns once it has been written
// (or has failed before that); the answer is handled as Send would, its failure reported
// as a note.
func (s *StreamableHTTP) sendNoWait(ctx context.Context, m Outgoing, req request, sentSession string) error {
	wrote := make(chan struct{})
	var once sync.Once
	req.wrote = func() { once.Do(func() { close(wrote) }) }
	failed := make(chan error, 1)
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return ErrClosed
	}
	s.wg.Add(1)
	s.mu.Unlock()
	settled := s.settle.begin()
	go func() {
		defer s.wg.Done()
		defer settled()
		resp, err := s.core.do(s.life, s.life, req)
		if err == nil {
			err = s.answered(resp, req, m, sentSession)
		}
		if err != nil {
			select {
			case failed <- err:
			default:
			}
			if !errIsClosing(s.life, err) {
				s.core.sink.Note(Note{Kind: "post-failed", Text: fmt.Sprintf("%s: %v", m.Method, err)})
			}
		}
	}()
	select {
	case <-wrote:
		return nil
	case err := <-failed:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// answered handles the answer to a POST of m.
func (s *StreamableHTTP) answered(resp *response, req request, m Outgoing, sentSession string) error {
	s.settle.answeredOver(resp.ProtoMajor)
	status := resp.StatusCode
	ended := ""
	if status == http.StatusNotFound && sentSession != "" {
		s.expire(sentSession)
		ended = sentSession
	}
	if status < 200 || status > 299 {
		defer resp.release()
		head, size, trunc, _ := readBody(resp.Body, s.core.maxFrame)
		if isJSONRPC(head) {
			s.core.sink.Received(head, RecvInfo{Via: "http", Exchange: resp.ex, Size: size, Truncated: trunc})
			return &HTTPStatusError{Status: status, Body: bodyHead(head), Delivered: true, Hint: resp.hint(), SessionEnded: ended, Auth: resp.authErr}
		}
		err := s.core.statusError(req, resp, head)
		var se *HTTPStatusError
		if errors.As(err, &se) {
			se.SessionEnded = ended
		}
		return err
	}
	if m.Method == "initialize" && !m.Stateless {
		s.learnSession(resp.Header.Get(hdrSessionID))
	} else if got := resp.Header.Get(hdrSessionID); got != "" && sentSession != "" && got != sentSession {
		resp.sessionChanged = sentSession + " → " + got
		s.core.sink.Note(Note{Kind: "session-changed", Text: fmt.Sprintf(
			"the answer to %s carries Mcp-Session-Id %s, but the session is %s: the server assigns the id once, in its answer to initialize; mcpscope keeps %s",
			m.Method, got, sentSession, sentSession)})
	}
	return s.readResponse(resp, m)
}

// messageHeaders sets the protocol headers for m and returns the session id it sent.
func (s *StreamableHTTP) messageHeaders(h http.Header, m Outgoing) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if m.ProtocolVersion != "" {
		s.protoVersion = m.ProtocolVersion
		h.Set(hdrProtocolVersion, m.ProtocolVersion)
	}
	s.stateless = m.Stateless // the era of the latest message decides (a probe may precede a fallback)
	if m.Stateless {
		// 2026-07-28: no session; the method (all requests) and the tool/prompt name or
		// resource URI (tools/call, prompts/get, resources/read) are mirrored into headers.
		if m.IsRequest && m.Method != "" {
			h.Set(hdrMethod, m.Method)
		}
		if m.Name != "" {
			h.Set(hdrName, HeaderValue(m.Name))
		}
		for _, p := range m.Params {
			// As declared, not canonicalized: the row shows the name the server chose, and
			// header names are compared case-insensitively on the other side.
			h[hdrParamPrefix+p.Name] = []string{HeaderValue(p.Value)}
		}
		return ""
	}
	if s.sessionID != "" {
		h.Set(hdrSessionID, s.sessionID)
	}
	return s.sessionID
}

// streamHeaders sets the headers of a GET or DELETE: session id and protocol version.
func (s *StreamableHTTP) streamHeaders(h http.Header) (sessionID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.protoVersion != "" {
		h.Set(hdrProtocolVersion, s.protoVersion)
	}
	if s.sessionID == "" || s.stateless {
		return ""
	}
	h.Set(hdrSessionID, s.sessionID)
	return s.sessionID
}

// HeaderValue encodes a header value (Mcp-Name, Mcp-Param-*) per 2026-07-28 "Value
// Encoding": a value with a non-ASCII or control character (tab included), leading or
// trailing whitespace, or the look of the sentinel becomes =?base64?…?= of its UTF-8 bytes.
func HeaderValue(v string) string {
	plain := !strings.HasPrefix(v, " ") && !strings.HasSuffix(v, " ") &&
		!(strings.HasPrefix(v, "=?base64?") && strings.HasSuffix(v, "?="))
	for i := 0; plain && i < len(v); i++ {
		c := v[i]
		plain = c >= 0x20 && c <= 0x7E
	}
	if plain {
		return v
	}
	return "=?base64?" + base64.StdEncoding.EncodeToString([]byte(v)) + "?="
}

func (s *StreamableHTTP) learnSession(id string) {
	if id == "" {
		return
	}
	s.mu.Lock()
	changed := s.sessionID != id
	s.sessionID = id
	s.mu.Unlock()
	if changed {
		s.core.sink.Note(Note{Kind: "session", Text: "server assigned session " + id})
	}
}

// expire forgets a session the server answered 404 for.
func (s *StreamableHTTP) expire(id string) {
	s.mu.Lock()
	if s.sessionID == id {
		s.sessionID = ""
	}
	s.mu.Unlock()
	s.core.sink.Note(Note{Kind: "session-expired", Text: fmt.Sprintf(
		"server answered 404 Not Found for session %s: the session has ended", id)})
}

// readResponse handles a 2xx answer to a POST.
func (s *StreamableHTTP) readResponse(resp *response, m Outgoing) error {
	mt := mediaType(resp.Header.Get("Content-Type"))
	switch {
	case resp.StatusCode == http.StatusAccepted || resp.ContentLength == 0:
		defer resp.release()
		head, size, _, _ := readBody(resp.Body, errorBodyHead)
		switch {
		case size > 0:
			s.core.sink.Note(Note{Kind: "unexpected-body", Text: fmt.Sprintf(
				"POST answered %d with a %d-byte body, which is ignored: %s", resp.StatusCode, size, bodyHead(head))})
		case m.IsRequest:
			s.core.sink.Note(Note{Kind: "empty-body", Text: fmt.Sprintf(
				"POST of request %s answered %d with no body: its response will not arrive on it", m.ID, resp.StatusCode)})
		}
		return nil
	case mt == mediaEventStream:
		resp.detach()
		st := newPostStream(m.ID, m.Stateless)
		s.posts.add(st)
		if !s.spawn(resp, func() { s.runStream(st, resp) }) {
			s.posts.remove(st)
		}
		return nil
	default:
		if mt != mediaJSON {
			s.core.sink.Note(Note{Kind: "content-type", Text: fmt.Sprintf(
				"POST answered with Content-Type %q, neither %s nor %s; the body is passed on as one frame",
				resp.Header.Get("Content-Type"), mediaJSON, mediaEventStream)})
		}
		resp.detach()
		s.spawn(resp, func() { s.readJSON(resp) })
		return nil
	}
}

// spawn runs f in a goroutine owned by the transport, which f must end with s.wg.Done. After
// Close has begun it runs nothing and releases resp instead.
func (s *StreamableHTTP) spawn(resp *response, f func()) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		resp.release()
		return false
	}
	s.wg.Add(1)
	go f()
	return true
}

// readJSON reports a JSON body as one frame (a JSON array is passed whole: it is a batch).
func (s *StreamableHTTP) readJSON(resp *response) {
	defer s.wg.Done()
	defer resp.release()
	head, size, trunc, err := readBody(resp.Body, s.core.maxFrame)
	if err != nil {
		if !errIsClosing(s.life, err) {
			s.core.sink.Note(Note{Kind: "stream-end", Text: fmt.Sprintf("reading JSON response body: %v (%d bytes read)", err, size)})
		}
		if len(head) == 0 {
			return
		}
	}
	s.core.sink.Received(head, RecvInfo{Via: "http", Exchange: resp.ex, Size: size, Truncated: trunc, SessionChanged: resp.sessionChanged})
}

// Close cancels every stream and request, ends the session with DELETE when the server
// assigned one (a 405 answer means the server does not allow it, and is reported), and
// waits for the transport's goroutines.
func (s *StreamableHTTP) Close(ctx context.Context) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	started := s.started
	s.mu.Unlock()
	s.settle.wait(ctx) // the DELETE takes their connection; stop would close it
	s.stop()
	var errs []error
	if started {
		errs = append(errs, s.deleteSession(ctx))
	}
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		errs = append(errs, fmt.Errorf("close: waiting for streams: %w", ctx.Err()))
	}
	errs = append(errs, s.core.closeAuth(ctx)) // after DELETE, which carries the token
	s.core.closeIdle()
	if started {
		s.core.sink.Exited(ExitInfo{ByUs: true})
	}
	return errors.Join(errs...)
}

// deleteSession sends DELETE with the session id, if there is one.
func (s *StreamableHTTP) deleteSession(ctx context.Context) error {
	h := http.Header{}
	if s.streamHeaders(h) == "" {
		return nil
	}
	req := request{purpose: "delete", method: http.MethodDelete, url: s.url, header: h}
	resp, err := s.core.do(ctx, ctx, req)
	if err != nil {
		return fmt.Errorf("end session: %w", err)
	}
	defer resp.release()
	head, _, _, _ := readBody(resp.Body, errorBodyHead)
	switch {
	case resp.StatusCode >= 200 && resp.StatusCode <= 299:
		return nil
	case resp.StatusCode == http.StatusMethodNotAllowed:
		s.core.sink.Note(Note{Kind: "delete", Text: "server does not let clients end sessions (405 Method Not Allowed); the session stays until the server expires it"})
		return nil
	case resp.StatusCode == http.StatusNotFound:
		s.core.sink.Note(Note{Kind: "delete", Text: "server no longer knows the session (404 Not Found)"})
		return nil
	default:
		return s.core.statusError(req, resp, head)
	}
}
