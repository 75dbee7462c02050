package recordings

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session/fault"
)

// An HTTP tap with fault rules (TapConfig.Faults), or with a viewer's breakpoints enabled,
// judges each message whole: a POST body
// before it is forwarded, a JSON response body once it is all in, each event of an event
// stream once its blank line is in. A message no rule acts on is forwarded as the very
// bytes it came as (an event: its block, every field and line end as the server wrote it).
//
// What each action does on HTTP: delay waits before forwarding (a response: before its
// headers, or before its event); drop forwards nothing (a notification or a response the
// host posted is accepted with 202; a request's exchange stays open, unanswered, until the
// host gives up; a JSON response is never sent, the exchange ending when the host gives
// up; an event is left out of its stream); error answers a request in the other side's
// place (the host gets a JSON-RPC error body with status 200; a server's request on an
// event stream is answered with a POST to the server) or replaces a response; corrupt
// forwards the damaged bytes (a changed event keeps its other fields; duplicate posts a
// request twice, and sends an event or a JSON body twice); reorder holds the message (the
// exchange waits; an event waits outside its stream) until the next message the rule
// matches has passed; disconnect closes the host's connection (a POST: before any answer;
// a response: instead of its headers; an event stream: where the event was); throttle
// sends the bytes at that rate (a POST body to the server, a response body or an event to
// the host). Each fault is recorded as the stdio tap records it (faultReport). While no
// rule and no enabled breakpoint is there, bodies pass unjudged as they come, and an event
// stream event by event.

// errDisconnected ends an exchange a disconnect rule cut.
var errDisconnected = errors.New("disconnected by a fault rule")

// httpFaults applies a tap's rules to an HTTP tap's messages.
type httpFaults struct {
	p   *httpTap
	eng *fault.Engine

	mu   sync.Mutex
	held map[string][]func() // reorder: a held message's bytes → how to let it go
}

// hold keeps raw until release or releaseAll lets it go with let.
func (f *httpFaults) hold(raw []byte, let func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.held == nil {
		f.held = map[string][]func(){}
	}
	f.held[string(raw)] = append(f.held[string(raw)], let)
}

// release lets go the messages the engine released after the one that passed.
func (f *httpFaults) release(msgs [][]byte) {
	for _, raw := range msgs {
		f.mu.Lock()
		lets := f.held[string(raw)]
		var let func()
		if len(lets) > 0 {
			let = lets[0]
			if len(lets) == 1 {
				delete(f.held, string(raw))
			} else {
				f.held[string(raw)] = lets[1:]
			}
		}
		f.mu.Unlock()
		if let != nil {
			let()
		}
	}
}

// releaseAll lets every held message go (the tap closes: nothing is held forever).
func (f *httpFaults) releaseAll() {
	f.mu.Lock()
	all := f.held
	f.held = nil
	f.mu.Unlock()
	for _, lets := range all {
		for _, let := range lets {
			let()
		}
	}
	f.eng.Release(protocol.ClientToServer)
	f.eng.Release(protocol.ServerToClient)
}

// request judges a POST body (recorded already) before it is forwarded. It returns false
// when the exchange was answered or ended here; else r's body is what to forward.
func (f *httpFaults) request(w http.ResponseWriter, r *http.Request, ex *exchange, body []byte) bool {
	if !f.eng.Active() {
		return true
	}
	msg := bytes.TrimSpace(body)
	v := f.eng.Judge(protocol.ClientToServer, msg, time.Now())
	if v.Hold != "" {
		return f.holdRequest(w, r, ex, msg, v)
	}
	return f.applyRequest(w, r, ex, msg, v)
}

// applyRequest does what verdict v says with POST body msg.
func (f *httpFaults) applyRequest(w http.ResponseWriter, r *http.Request, ex *exchange, msg []byte, v fault.Verdict) bool {
	if v.Applied == nil {
		if len(v.Deliver) > 1 {
			ex.after = func() { f.release(v.Deliver[1:]) }
		}
		return true
	}
	a := v.Applied
	f.p.t.faultReport(a)
	ctx := r.Context()
	if a.Held {
		let := make(chan struct{})
		f.hold(msg, func() { close(let) })
		select {
		case <-let:
			return true // forwarded as it came
		case <-ctx.Done():
			return false
		}
	}
	if fault.Sleep(ctx, v.Wait) != nil {
		return false
	}
	switch {
	case v.Answer != nil:
		f.answerHost(w, r, ex, v.Answer)
		return false
	case v.Disconnect:
		f.p.exchanged(ex, r.URL.String(), nil, errDisconnected.Error())
		panic(http.ErrAbortHandler) // closes the host's connection
	case len(v.Deliver) == 0: // dropped
		f.dropRequest(w, r, ex, msg)
		return false
	}
	out := v.Deliver[0]
	if len(v.Deliver) > 1 { // duplicate: the copies follow this one
		extra := v.Deliver[1:]
		ex.after = func() { go f.repost(r, extra) }
	}
	r.ContentLength = int64(len(out))
	r.Body = io.NopCloser(throttled(ctx, bytes.NewReader(out), v.Rate))
	return true
}

// repost sends copies of a request the host posted once (corrupt=duplicate) to the server
// with the host's headers; the server's answers are read and let go, not passed to the host.
func (f *httpFaults) repost(r *http.Request, msgs [][]byte) {
	for _, m := range msgs {
		if !f.p.post(context.WithoutCancel(r.Context()), r.URL.RequestURI(), r.Header, m) {
			return
		}
	}
}

// response judges a JSON response body once it is all in. It returns an error when the
// host gets no answer (drop, disconnect).
func (f *httpFaults) response(resp *http.Response) error {
	if !f.eng.Active() {
		return nil
	}
	max := f.p.t.cfg.MaxFrame
	head, err := io.ReadAll(io.LimitReader(resp.Body, max+1))
	rest := resp.Body
	if err != nil || int64(len(head)) > max {
		resp.Body = readCloser{io.MultiReader(bytes.NewReader(head), rest), rest}
		return nil // a read error or a body longer than MaxFrame passes on unjudged
	}
	msg := bytes.TrimSpace(head)
	if len(msg) == 0 {
		resp.Body = readCloser{bytes.NewReader(head), rest}
		return nil
	}
	v := f.eng.Judge(protocol.ServerToClient, msg, time.Now())
	if v.Hold != "" {
		return f.holdResponse(resp, head, rest, msg, v)
	}
	return f.applyResponse(resp, head, rest, msg, v)
}

// applyResponse does what verdict v says with JSON response body msg (head, as it came).
func (f *httpFaults) applyResponse(resp *http.Response, head []byte, rest io.ReadCloser, msg []byte, v fault.Verdict) error {
	ctx := resp.Request.Context()
	if v.Applied == nil {
		resp.Body = readCloser{bytes.NewReader(head), rest}
		f.release(v.Deliver[1:])
		return nil
	}
	a := v.Applied
	f.p.t.faultReport(a)
	if a.Held {
		let := make(chan struct{})
		f.hold(msg, func() { close(let) })
		select {
		case <-let:
			resp.Body = readCloser{bytes.NewReader(head), rest}
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	if err := fault.Sleep(ctx, v.Wait); err != nil {
		return err
	}
	if v.Answer != nil {
		go f.answerServer(resp.Request, v.Answer)
	}
	switch {
	case v.Disconnect:
		return errDisconnected
	case len(v.Deliver) == 0: // dropped: the host waits until it gives up
		<-ctx.Done()
		return errDropped
	}
	out := bytes.Join(v.Deliver, []byte("\n"))
	resp.ContentLength = int64(len(out))
	resp.Header.Del("Content-Length")
	resp.Body = readCloser{throttled(ctx, bytes.NewReader(out), v.Rate), rest}
	return nil
}

// errDropped ends an exchange whose answer a drop rule kept from the host.
var errDropped = errors.New("the answer was dropped by a fault rule")

// answerServer posts an answer mcpscope made in the host's place (to a request the server
// sent on an event stream) to the server, with the headers of the host's request.
func (f *httpFaults) answerServer(hostReq *http.Request, answer []byte) {
	_ = f.p.post(context.WithoutCancel(hostReq.Context()), hostReq.URL.RequestURI(), hostReq.Header, answer)
}

// post sends body to the server at uri (on the upstream) with the session's headers from
// h and reads (and discards) the answer: it answers mcpscope, not the
// host. It reports whether the server answered.
func (p *httpTap) post(ctx context.Context, uri string, h http.Header, body []byte) bool {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.up.Scheme+"://"+p.up.Host+uri, bytes.NewReader(body))
	if err != nil {
		return false
	}
	for _, k := range []string{"Authorization", "Mcp-Session-Id", "Mcp-Protocol-Version", "Cookie"} {
		if v := h.Values(k); len(v) > 0 {
			req.Header[k] = append([]string(nil), v...)
		}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := p.rp.Transport.RoundTrip(req)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, p.t.cfg.MaxFrame))
	return true
}

// readCloser reads from one reader and closes another.
type readCloser struct {
	io.Reader
	c io.Closer
}

func (r readCloser) Close() error { return r.c.Close() }

// throttled reads r at rate bytes a second (in pieces every 50 ms); r itself when rate is 0.
func throttled(ctx context.Context, r io.Reader, rate int64) io.Reader {
	if rate <= 0 {
		return r
	}
	return &throttle{ctx: ctx, r: r, rate: rate}
}

type throttle struct {
	ctx  context.Context
	r    io.Reader
	rate int64
}

func (t *throttle) Read(p []byte) (int, error) {
	piece := int(max(1, t.rate/20))
	if len(p) > piece {
		p = p[:piece]
	}
	n, err := t.r.Read(p)
	if n > 0 {
		if e := fault.Sleep(t.ctx, time.Duration(float64(n)/float64(t.rate)*float64(time.Second))); e != nil {
			return n, e
		}
	}
	return n, err
}
