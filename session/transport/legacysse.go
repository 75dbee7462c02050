package transport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/mcpscope/mcpscope/session/secret"
	"sync"

	"github.com/mcpscope/mcpscope/session/transport/sse"
)

// LegacySSE is the HTTP+SSE transport of protocol revision 2024-11-05: one long-lived GET
// event stream carries every server message, and its first event, "endpoint", names the
// URL the client POSTs its messages to.
type LegacySSE struct {
	core *httpCore
	url  string

	life context.Context // ends on Close
	stop context.CancelFunc
	wg   sync.WaitGroup // the stream reader

	mu       sync.Mutex
	started  bool
	closed   bool
	exited   bool     // Exited was reported
	endpoint *url.URL // where messages are POSTed
}

var _ Transport = (*LegacySSE)(nil)

// NewLegacySSE returns an HTTP+SSE transport whose event stream is at o.URL.
func NewLegacySSE(o HTTPOptions) *LegacySSE {
	life, stop := context.WithCancel(context.Background())
	return &LegacySSE{core: newHTTPCore(o), url: o.URL, life: life, stop: stop}
}

// Name reports "sse".
func (l *LegacySSE) Name() string { return "sse" }

// Endpoint is the message endpoint the server announced; "" before it did.
func (l *LegacySSE) Endpoint() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.endpoint == nil {
		return ""
	}
	return l.endpoint.String()
}

// Start opens the event stream and waits (within ctx) for the server's endpoint event.
func (l *LegacySSE) Start(ctx context.Context, sink Sink) error {
	base, err := checkURL(l.url)
	if err != nil {
		return err
	}
	l.mu.Lock()
	if l.started || l.closed {
		l.mu.Unlock()
		return errors.New("HTTP+SSE transport: already started or closed")
	}
	l.started = true
	l.core.sink = sink
	l.core.bindAuth()
	l.mu.Unlock()

	h := http.Header{}
	h.Set("Accept", mediaEventStream)
	h.Set("Cache-Control", "no-cache")
	req := request{purpose: "legacy-sse", method: http.MethodGet, url: l.url, header: h}
	resp, err := l.core.do(l.life, ctx, req)
	if err != nil {
		return err
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		defer resp.release()
		head, _, _, _ := readBody(resp.Body, errorBodyHead)
		return l.core.statusError(req, resp, head)
	}
	if ct := resp.Header.Get("Content-Type"); mediaType(ct) != mediaEventStream {
		resp.release()
		err := fmt.Errorf("GET %s: answered Content-Type %q, want %s: not an HTTP+SSE endpoint", secret.URL(l.url), ct, mediaEventStream)
		l.core.sink.Note(Note{Kind: "http-error", Text: err.Error()})
		return err
	}
	resp.detach()
	ready := make(chan error, 1)
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		resp.release()
		return errors.New("HTTP+SSE transport: closed")
	}
	l.wg.Add(1)
	go l.read(resp, base, ready)
	l.mu.Unlock()
	select {
	case err := <-ready:
		return err
	case <-ctx.Done():
		resp.cancel() // the reader sees the body fail and ends
		return fmt.Errorf("waiting for the endpoint event: %w", ctx.Err())
	}
}

// read reports the stream's events until it ends. The first endpoint event (or the end of
// the stream before one) is signalled on ready.
func (l *LegacySSE) read(resp *response, base *url.URL, ready chan<- error) {
	defer l.wg.Done()
	defer resp.release()
	signalled := false
	signal := func(err error) {
		if !signalled {
			signalled = true
			ready <- err
		}
	}
	notedComments, failed := false, false
	_, err := readEvents(l.core, resp, func(ev *sse.Event, _ string) bool {
		switch {
		case ev.Type == "endpoint" && ev.HasData:
			u, err := resolveEndpoint(base, ev.Data)
			if err != nil {
				l.core.sink.Note(Note{Kind: "endpoint", Text: err.Error()})
				if !signalled {
					failed = true
					signal(err)
					return false // without a first endpoint there is no connection
				}
				return true
			}
			l.mu.Lock()
			l.endpoint = u
			l.mu.Unlock()
			l.core.sink.Note(Note{Kind: "endpoint", Text: "server's message endpoint: " + secret.URL(u.String())})
			signal(nil)
			ev.HasData = false // the endpoint is not a frame
		case len(ev.Comments) > 0 && !ev.HasData && !notedComments:
			notedComments = true
			l.core.sink.Note(Note{Kind: "keep-alive", Text: fmt.Sprintf("HTTP+SSE stream: server sends SSE comments (%q); later ones are not noted", ev.Comments[0])})
		}
		return true
	})
	if !signalled {
		why := "ended"
		if err != nil {
			why = err.Error()
		}
		signal(fmt.Errorf("GET %s: event stream %s before the endpoint event", secret.URL(l.url), why))
		return
	}
	if failed || l.life.Err() != nil {
		return
	}
	why := "the server closed it"
	if err != nil && !errors.Is(err, io.EOF) {
		why = err.Error()
	}
	l.core.sink.Note(Note{Kind: "stream-end", Text: "HTTP+SSE event stream ended (" + why + "); the connection is lost"})
	l.exit(ExitInfo{Code: -1, Err: "HTTP+SSE event stream ended: " + why})
}

// resolveEndpoint resolves the endpoint event's data against the stream URL. An endpoint
// on another origin is refused: the client's credentials would follow it there.
func resolveEndpoint(base *url.URL, data string) (*url.URL, error) {
	ref, err := url.Parse(strings.TrimSpace(data))
	if err != nil {
		return nil, fmt.Errorf("endpoint event %q is not a URL: %w", secret.URL(data), maskURLError(err))
	}
	u := base.ResolveReference(ref)
	if u.Scheme != base.Scheme || u.Host != base.Host {
		return nil, fmt.Errorf("endpoint event %q points to another origin than %s://%s; refusing to send messages there", secret.URL(data), base.Scheme, base.Host)
	}
	return u, nil
}

func (l *LegacySSE) exit(info ExitInfo) {
	l.mu.Lock()
	done := l.exited
	l.exited = true
	l.mu.Unlock()
	if !done {
		l.core.sink.Exited(info)
	}
}

// Send POSTs m to the endpoint. The server should answer 202 and send the response on the
// event stream. A non-2xx answer whose body is a JSON-RPC message is reported as a frame;
// any other is an *HTTPStatusError.
func (l *LegacySSE) Send(ctx context.Context, m Outgoing) error {
	l.mu.Lock()
	closed, endpoint := l.closed, l.endpoint
	l.mu.Unlock()
	switch {
	case closed:
		return errors.New("HTTP+SSE transport: closed")
	case endpoint == nil:
		return errors.New("HTTP+SSE transport: no endpoint yet (Start first)")
	}
	h := http.Header{}
	h.Set("Content-Type", mediaJSON)
	if m.ProtocolVersion != "" {
		h.Set(hdrProtocolVersion, m.ProtocolVersion)
	}
	req := request{purpose: "post", method: http.MethodPost, url: endpoint.String(), body: m.Raw, header: h}
	if m.Probe {
		req.purpose = "probe"
	}
	resp, err := l.core.do(l.life, ctx, req)
	if err != nil {
		return err
	}
	defer resp.release()
	head, size, trunc, _ := readBody(resp.Body, l.core.maxFrame)
	if resp.StatusCode >= 200 && resp.StatusCode <= 299 {
		return nil // usually 202; any body ("Accepted") carries nothing for us
	}
	if isJSONRPC(head) {
		l.core.sink.Received(head, RecvInfo{Via: "http", Exchange: resp.ex, Size: size, Truncated: trunc})
		return nil
	}
	return l.core.statusError(req, resp, head)
}

// Close ends the event stream and waits for its reader.
func (l *LegacySSE) Close(ctx context.Context) error {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return nil
	}
	l.closed = true
	started := l.started
	l.mu.Unlock()
	l.stop()
	done := make(chan struct{})
	go func() { l.wg.Wait(); close(done) }()
	var err error
	select {
	case <-done:
	case <-ctx.Done():
		err = fmt.Errorf("close: waiting for the event stream: %w", ctx.Err())
	}
	err = errors.Join(err, l.core.closeAuth(ctx))
	l.core.closeIdle()
	if started {
		l.exit(ExitInfo{ByUs: true})
	}
	return err
}
