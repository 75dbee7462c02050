package recordings

import (
	"bytes"
	"context"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/secret"
	"github.com/mcpscope/mcpscope/session/transport"
	"github.com/mcpscope/mcpscope/session/transport/sse"
)

// httpTap is the reverse proxy of a tap in front of a Streamable HTTP (or HTTP+SSE) server.
type httpTap struct {
	t    *Tap
	up   *url.URL
	rp   *httputil.ReverseProxy
	next atomic.Uint64 // exchange ids

	faults *httpFaults // nil without fault rules (tap_http_fault.go)
}

// exchangeKey carries an exchange through the proxy.
type exchangeKey struct{}

// exchange is one request passing through, until its response headers are in.
type exchange struct {
	id      uint64
	started time.Time
	purpose string
	method  string
	headers http.Header
	after   func() // once the request has reached the server: what a fault rule left to do
}

// HTTPProxy returns a handler that forwards every request to upstream's scheme and host with
// its method, path, query, headers and body unchanged, and the response back likewise,
// flushing each piece of the body as it arrives (event streams event by event). A POST
// body is recorded as a client→server frame, a JSON response body as a server→client frame
// and each event of an event-stream response as one, and every exchange is recorded with
// its headers masked.
func (t *Tap) HTTPProxy(upstream *url.URL) http.Handler {
	p := &httpTap{t: t, up: upstream}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.DisableCompression = true // forward the body as the server encoded it
	target := &url.URL{Scheme: upstream.Scheme, Host: upstream.Host}
	p.rp = &httputil.ReverseProxy{
		Rewrite:        func(pr *httputil.ProxyRequest) { pr.SetURL(target) },
		Transport:      tr,
		FlushInterval:  -1,
		ModifyResponse: p.response,
		ErrorHandler:   p.failed,
	}
	if t.cfg.Faults != nil {
		p.faults = &httpFaults{p: p, eng: t.cfg.Faults}
		t.mu.Lock()
		t.onClose = p.faults.releaseAll
		t.mu.Unlock()
	}
	return p
}

// ServeHTTP records the request's body, then proxies it.
func (p *httpTap) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ex := &exchange{id: p.next.Add(1), started: time.Now(), method: r.Method, headers: secret.Headers(r.Header)}
	switch r.Method {
	case http.MethodPost:
		ex.purpose = "post"
	case http.MethodGet:
		ex.purpose = "listen"
		if r.Header.Get("Last-Event-ID") != "" {
			ex.purpose = "resume"
		}
	case http.MethodDelete:
		ex.purpose = "delete"
	default:
		ex.purpose = strings.ToLower(r.Method)
	}
	if r.Method == http.MethodPost && r.Body != nil && r.Body != http.NoBody {
		max := p.t.cfg.MaxFrame
		head, err := io.ReadAll(io.LimitReader(r.Body, max+1))
		if err != nil {
			p.exchanged(ex, r.URL.String(), nil, "read the request body: "+err.Error())
			http.Error(w, "mcpscope tap: "+err.Error(), http.StatusBadRequest)
			return
		}
		rest := r.Body
		if int64(len(head)) > max {
			p.t.frame(protocol.ClientToServer, head[:transport.TruncatedHead], transport.RecvInfo{Via: "http", Exchange: ex.id,
				Size: int64(len(head)), Truncated: true})
			r.Body = struct {
				io.Reader
				io.Closer
			}{io.MultiReader(bytes.NewReader(head), rest), rest}
		} else {
			if len(bytes.TrimSpace(head)) > 0 {
				p.t.frame(protocol.ClientToServer, head, transport.RecvInfo{Via: "http", Exchange: ex.id, Size: int64(len(head))})
			}
			r.Body = struct {
				io.Reader
				io.Closer
			}{bytes.NewReader(head), rest}
			if p.faults != nil && len(bytes.TrimSpace(head)) > 0 && !p.faults.request(w, r, ex, head) {
				return
			}
		}
	}
	p.rp.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), exchangeKey{}, ex)))
}

// exchanged records an exchange once its response headers (or its failure) are in.
func (p *httpTap) exchanged(ex *exchange, u string, resp *http.Response, failure string) {
	h := &transport.HTTPExchange{ID: ex.id, Purpose: ex.purpose, Method: ex.method, URL: u, ReqHeaders: ex.headers,
		Started: ex.started, Duration: time.Since(ex.started), Err: failure}
	if resp != nil {
		h.Status, h.RespHeaders = resp.StatusCode, secret.Headers(resp.Header)
		h.ContentType = resp.Header.Get("Content-Type")
	}
	p.t.publish(&session.Event{Kind: session.EvHTTP, HTTP: h, Time: ex.started})
}

// response records the exchange and arranges for the body's frames to be recorded as the
// body passes through.
func (p *httpTap) response(resp *http.Response) error {
	ex, _ := resp.Request.Context().Value(exchangeKey{}).(*exchange)
	if ex == nil {
		return nil
	}
	p.exchanged(ex, resp.Request.URL.String(), resp, "")
	if ex.after != nil {
		defer ex.after()
	}
	if resp.Body == nil || resp.Body == http.NoBody {
		return nil
	}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch {
	case mt == "text/event-stream":
		resp.Body = p.sseBody(ex.id, resp.Body)
		if p.faults != nil {
			resp.Body = p.faults.sse(resp.Request, resp.Body)
		}
	case mt == "application/json" || strings.HasSuffix(mt, "+json"):
		resp.Body = &jsonBody{rc: resp.Body, length: resp.ContentLength, max: p.t.cfg.MaxFrame,
			done: func(b []byte, size int64, truncated bool) {
				if len(bytes.TrimSpace(b)) > 0 {
					p.t.frame(protocol.ServerToClient, b, transport.RecvInfo{Via: "http", Exchange: ex.id, Size: size, Truncated: truncated})
				}
			}}
		if p.faults != nil {
			return p.faults.response(resp)
		}
	}
	return nil
}

// failed records an exchange that got no response and answers 502 Bad Gateway.
func (p *httpTap) failed(w http.ResponseWriter, r *http.Request, err error) {
	if ex, _ := r.Context().Value(exchangeKey{}).(*exchange); ex != nil {
		p.exchanged(ex, r.URL.String(), nil, err.Error())
		if ex.after != nil {
			ex.after()
		}
	}
	if errors.Is(err, errDisconnected) {
		panic(http.ErrAbortHandler) // a disconnect rule: the host's connection is closed
	}
	w.WriteHeader(http.StatusBadGateway)
}

// jsonBody passes a JSON body through and records it as one frame once it is complete:
// before its last bytes are handed on when its length is known, else at its end.
type jsonBody struct {
	rc     io.ReadCloser
	length int64
	max    int64
	done   func(b []byte, size int64, truncated bool)

	buf  []byte
	size int64
	once sync.Once
}

func (j *jsonBody) Read(p []byte) (int, error) {
	n, err := j.rc.Read(p)
	if n > 0 {
		j.size += int64(n)
		head := j.max
		if j.size > j.max {
			head = transport.TruncatedHead
		}
		if room := head - int64(len(j.buf)); room > 0 {
			j.keep(p[:min(int64(n), room)], head)
		}
		if j.length >= 0 && j.size >= j.length {
			j.finish()
		}
	}
	if err != nil {
		j.finish()
	}
	return n, err
}

// keep appends p to the body kept, growing it to the length announced or by doubling (up to
// limit): append's growth would copy a body of megabytes several times while it passes.
func (j *jsonBody) keep(p []byte, limit int64) {
	if need := len(j.buf) + len(p); need > cap(j.buf) {
		size := max(int64(need), 2*int64(cap(j.buf)), 4096)
		if j.length > 0 {
			size = max(int64(need), j.length)
		}
		nb := make([]byte, len(j.buf), min(size, max(limit, int64(need))))
		copy(nb, j.buf)
		j.buf = nb
	}
	j.buf = append(j.buf, p...)
}

func (j *jsonBody) finish() {
	j.once.Do(func() {
		b := j.buf
		if j.size > j.max {
			b = b[:min(len(b), transport.TruncatedHead)]
		}
		j.done(b, j.size, j.size > j.max)
	})
}

func (j *jsonBody) Close() error {
	if j.size > 0 {
		j.finish()
	}
	return j.rc.Close()
}

// sseBody passes an event stream through and records each event carrying data as a frame
// before the chunk that completes it is handed on: the parser runs in its own goroutine
// and is given one chunk at a time, and a chunk is released when the parser asks for more,
// which it does only after returning every event the chunk completed.
func (p *httpTap) sseBody(id uint64, rc io.ReadCloser) io.ReadCloser {
	b := &sseTee{rc: rc, in: make(chan []byte), ack: make(chan struct{}, 1), done: make(chan struct{})}
	go func() {
		defer close(b.done)
		parser := sse.NewParser(&sseFeed{b: b}, int(min(p.t.cfg.MaxFrame, 1<<31-1)))
		for {
			ev, err := parser.Next()
			if err != nil {
				return
			}
			if !ev.HasData || ev.Data == "" {
				continue // keep-alives, retry hints and priming events carry no message
			}
			if ev.Type == "endpoint" { // HTTP+SSE: where to POST, not a message
				p.t.note("endpoint", ev.Data)
				continue
			}
			p.t.frame(protocol.ServerToClient, []byte(ev.Data), transport.RecvInfo{Via: "sse", Exchange: id, SSEID: ev.ID,
				SSEEvent: ev.Type, Size: int64(len(ev.Data)), Truncated: ev.Truncated})
		}
	}()
	return b
}

// sseTee is an event-stream body on its way to the host.
type sseTee struct {
	rc        io.ReadCloser
	in        chan []byte   // chunks for the parser
	ack       chan struct{} // the parser is done with the last chunk (buffered: it never waits)
	done      chan struct{} // the parser has ended
	closeOnce sync.Once
}

func (b *sseTee) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	if n > 0 {
		select {
		case b.in <- p[:n]:
			select {
			case <-b.ack:
			case <-b.done:
			}
		case <-b.done:
		}
	}
	if err != nil {
		b.end()
	}
	return n, err
}

// end tells the parser the stream is over and waits for it to record what it completed.
func (b *sseTee) end() {
	b.closeOnce.Do(func() { close(b.in) })
	<-b.done
}

func (b *sseTee) Close() error {
	err := b.rc.Close()
	b.end()
	return err
}

// sseFeed is the parser's side of an sseTee.
type sseFeed struct {
	b       *sseTee
	cur     []byte
	holding bool // a chunk was taken and not yet released
}

func (f *sseFeed) Read(p []byte) (int, error) {
	if len(f.cur) == 0 {
		if f.holding {
			f.b.ack <- struct{}{}
			f.holding = false
		}
		c, ok := <-f.b.in
		if !ok {
			return 0, io.EOF
		}
		f.cur, f.holding = c, true
	}
	n := copy(p, f.cur)
	f.cur = f.cur[n:]
	return n, nil
}
