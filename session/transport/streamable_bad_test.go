package transport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// The handlers here are fixtures of misbehaving or unusual servers: behaviour a
// well-behaved server does not show on demand.

const (
	progressMsg = `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}`
	result7     = `{"jsonrpc":"2.0","id":7,"result":{}}`
)

func sseHeader(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
}

func request7() Outgoing {
	return outRequest(`{"jsonrpc":"2.0","id":7,"method":"ping"}`, 7, "ping", "")
}

// TestStreamableHTTPResumesPOSTStream: the POST stream ends before the response after
// retry: 50; the transport resumes with GET and Last-Event-ID and gets the response.
func TestStreamableHTTPResumesPOSTStream(t *testing.T) {
	ts, log := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodPost:
			sseHeader(w)
			fmt.Fprint(w, "id: s1-0\nretry: 50\ndata:\n\n: ping\n\n: ping\n\nid: s1-1\ndata: "+progressMsg+"\n\n")
		case http.MethodGet:
			if r.Header.Get("Last-Event-ID") != "s1-1" {
				http.Error(w, "bad Last-Event-ID", http.StatusBadRequest)
				return
			}
			sseHeader(w)
			fmt.Fprint(w, "id: s1-2\ndata: "+result7+"\n\n")
		}
	}))
	tr := NewStreamableHTTP(HTTPOptions{URL: ts.URL})
	sink := startHTTP(t, tr)
	mustSend(t, tr, request7())
	resp := sink.waitFrame(t, `"id":7`)
	prog := sink.waitFrame(t, "notifications/progress")
	if prog.info.SSEID != "s1-1" || resp.info.SSEID != "s1-2" || prog.info.Exchange == resp.info.Exchange {
		t.Fatalf("frames %+v / %+v", prog.info, resp.info)
	}
	if n := sink.waitNote(t, "reconnect"); !strings.Contains(n.Text, "50ms") || !strings.Contains(n.Text, `"s1-1"`) {
		t.Errorf("reconnect note %q", n.Text)
	}
	closeAndCheck(t, tr)
	gets := log.byMethod(http.MethodGet)
	if len(gets) != 1 || gets[0].header.Get("Accept") != "text/event-stream" {
		t.Fatalf("resume GETs %v, want exactly one", gets)
	}
	if ex := exchangesFor(sink, "resume"); len(ex) != 1 || ex[0].Status != 200 {
		t.Errorf("resume exchanges %+v", ex)
	}
	if n := sink.noteCount("keep-alive"); n != 1 {
		t.Errorf("%d keep-alive notes, want 1", n)
	}
	if n := len(sink.frameList()); n != 2 {
		t.Errorf("%d frames, want 2 (the priming event carries none)", n)
	}
}

// TestStreamableHTTPStreamEndsWithoutID: without an event id there is nothing to resume.
func TestStreamableHTTPStreamEndsWithoutID(t *testing.T) {
	ts, log := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sseHeader(w)
		fmt.Fprint(w, "data: "+progressMsg+"\n\ndata: {\"jsonrpc\"")
	}))
	tr := NewStreamableHTTP(HTTPOptions{URL: ts.URL})
	sink := startHTTP(t, tr)
	mustSend(t, tr, request7())
	if n := sink.waitNote(t, "stream-end"); !strings.Contains(n.Text, "no event id") {
		t.Errorf("stream-end note %q", n.Text)
	}
	sink.waitNote(t, "incomplete-event")
	closeAndCheck(t, tr)
	if len(log.byMethod(http.MethodGet)) != 0 {
		t.Error("tried to resume a stream without event ids")
	}
}

// TestStreamableHTTPListenRefusedAndDelete405: GET answered 405 and DELETE answered 405
// are reported, not errors.
func TestStreamableHTTPListenRefusedAndDelete405(t *testing.T) {
	ts, log := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodPost:
			w.Header().Set("Mcp-Session-Id", "sess-1")
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"jsonrpc":"2.0","id":1,"result":{}}`)
		default:
			http.Error(w, "no", http.StatusMethodNotAllowed)
		}
	}))
	tr := NewStreamableHTTP(HTTPOptions{URL: ts.URL})
	sink := startHTTP(t, tr)
	mustSend(t, tr, outInitialize())
	if f := sink.waitFrame(t, `"id":1`); f.info.Via != "http" {
		t.Fatalf("frame via %q", f.info.Via)
	}
	if err := tr.Listen(context.Background()); err != nil {
		t.Fatalf("Listen: %v", err)
	}
	if n := sink.waitNote(t, "listen"); !strings.Contains(n.Text, "405") {
		t.Errorf("listen note %q", n.Text)
	}
	if ex := exchangesFor(sink, "listen"); len(ex) != 1 || ex[0].Status != 405 {
		t.Errorf("listen exchange %+v", ex)
	}
	closeAndCheck(t, tr)
	sink.waitNote(t, "delete")
	if d := log.byMethod(http.MethodDelete); len(d) != 1 || d[0].header.Get("Mcp-Session-Id") != "sess-1" {
		t.Errorf("DELETE %v", d)
	}
}

// TestStreamableHTTPSessionExpired: 404 with a session id ends the session.
func TestStreamableHTTPSessionExpired(t *testing.T) {
	var posts atomic.Int32
	ts, log := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && posts.Add(1) == 1 {
			w.Header().Set("Mcp-Session-Id", "sess-2")
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"jsonrpc":"2.0","id":1,"result":{}}`)
			return
		}
		http.Error(w, "session not found", http.StatusNotFound)
	}))
	tr := NewStreamableHTTP(HTTPOptions{URL: ts.URL})
	sink := startHTTP(t, tr)
	mustSend(t, tr, outInitialize())
	sink.waitFrame(t, `"id":1`)
	err := tr.Send(context.Background(), request7())
	if statusOf(err) != http.StatusNotFound || !strings.Contains(err.Error(), "session not found") {
		t.Fatalf("Send = %v, want a 404 HTTPStatusError", err)
	}
	sink.waitNote(t, "session-expired")
	if tr.SessionID() != "" {
		t.Errorf("session id %q kept after 404", tr.SessionID())
	}
	closeAndCheck(t, tr)
	if len(log.byMethod(http.MethodDelete)) != 0 {
		t.Error("DELETE sent for an expired session")
	}
}

// TestStreamableHTTPErrorBodies: a JSON-RPC body on an error status is a frame; anything
// else is an *HTTPStatusError with the head of the body.
func TestStreamableHTTPErrorBodies(t *testing.T) {
	const rpcErr = `{"jsonrpc":"2.0","error":{"code":-32600,"message":"rejected"}}`
	html := "<html><body>" + strings.Repeat("x", 2000) + "</body></html>"
	ts, _ := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/rpc" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, rpcErr)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusInternalServerError)
		fmt.Fprint(w, html)
	}))
	tr := NewStreamableHTTP(HTTPOptions{URL: ts.URL + "/rpc"})
	sink := startHTTP(t, tr)
	var se *HTTPStatusError
	if err := tr.Send(context.Background(), outNotify(initializedMsg, "notifications/initialized", "")); !errors.As(err, &se) || !se.Delivered || se.Status != http.StatusBadRequest {
		t.Fatalf("Send with a JSON-RPC error body = %v, want a delivered 400 HTTPStatusError", err)
	}
	if f := sink.waitFrame(t, "rejected"); f.raw != rpcErr || f.info.Via != "http" || f.info.Size != int64(len(rpcErr)) {
		t.Fatalf("frame %q %+v", f.raw, f.info)
	}

	tr2 := NewStreamableHTTP(HTTPOptions{URL: ts.URL + "/html"})
	sink2 := startHTTP(t, tr2)
	err := tr2.Send(context.Background(), request7())
	se = nil
	if !errors.As(err, &se) || se.Status != 500 || len(se.Body) > 512 || !strings.HasPrefix(se.Body, "<html>") {
		t.Fatalf("Send = %v, want a 500 HTTPStatusError with the body's head", err)
	}
	sink2.waitNote(t, "http-error")
	if n := len(sink2.frameList()); n != 0 {
		t.Errorf("%d frames from an HTML error", n)
	}
}

// TestStreamableHTTPEventShapes: multi-line data, an oversized event and keep-alives.
func TestStreamableHTTPEventShapes(t *testing.T) {
	big := `{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"` + strings.Repeat("y", 5000) + `"}}`
	ts, _ := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sseHeader(w)
		fmt.Fprint(w, ": keep-alive\r\n\r\ndata: "+big+"\r\n\r\n")
		fmt.Fprint(w, "event: message\r\ndata: {\"jsonrpc\":\"2.0\",\r\ndata: \"id\":7,\"result\":{}}\r\n\r\n")
	}))
	tr := NewStreamableHTTP(HTTPOptions{URL: ts.URL, MaxFrame: 1024})
	sink := startHTTP(t, tr)
	mustSend(t, tr, request7())
	resp := sink.waitFrame(t, `"id":7`)
	if resp.raw != "{\"jsonrpc\":\"2.0\",\n\"id\":7,\"result\":{}}" || resp.info.Truncated {
		t.Fatalf("multi-line frame %q %+v", resp.raw, resp.info)
	}
	f := sink.waitFrame(t, "notifications/message")
	if !f.info.Truncated || len(f.raw) > 1024 || f.info.Size <= int64(len(f.raw)) {
		t.Fatalf("oversized frame: len %d, %+v", len(f.raw), f.info)
	}
	closeAndCheck(t, tr)
	if n := sink.noteCount("keep-alive"); n != 1 {
		t.Errorf("%d keep-alive notes", n)
	}
	if n := sink.noteCount("stream-end"); n != 0 {
		t.Errorf("stream end noted after its response arrived: %v", sink.noteList())
	}
}

// TestStreamableHTTPListenReconnects: the standalone stream is reopened with
// Last-Event-ID after the server's retry delay, and Close ends the held stream.
func TestStreamableHTTPListenReconnects(t *testing.T) {
	var gets atomic.Int32
	ts, log := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		sseHeader(w)
		if gets.Add(1) == 1 {
			fmt.Fprint(w, "id: L1\nretry: 20\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/one\"}\n\n")
			return
		}
		fmt.Fprint(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/two\"}\n\n")
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	tr := NewStreamableHTTP(HTTPOptions{URL: ts.URL})
	sink := startHTTP(t, tr)
	if err := tr.Listen(context.Background()); err != nil {
		t.Fatalf("Listen: %v", err)
	}
	sink.waitFrame(t, "notifications/one")
	sink.waitFrame(t, "notifications/two")
	if len(httpGoroutines()) == 0 {
		t.Fatal("the goroutine check does not see the open stream's reader")
	}
	closeAndCheck(t, tr)
	g := log.byMethod(http.MethodGet)
	if len(g) != 2 || g[0].header.Get("Last-Event-ID") != "" || g[1].header.Get("Last-Event-ID") != "L1" {
		t.Fatalf("GETs %v", g)
	}
	if len(exchangesFor(sink, "listen")) != 1 || len(exchangesFor(sink, "resume")) != 1 {
		t.Errorf("exchanges %+v", sink.exchangeList())
	}
}

// TestStreamableHTTPStatelessHeaders: 2026-07-28 requests carry Mcp-Method and Mcp-Name
// (Base64 when not plain ASCII), never a session id even if the server offers one, and
// their streams are not resumed.
func TestStreamableHTTPStatelessHeaders(t *testing.T) {
	ts, log := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Mcp-Session-Id", "should-not-be-used")
		sseHeader(w)
		fmt.Fprint(w, "id: 1\nretry: 10\ndata: "+progressMsg+"\n\n")
	}))
	tr := NewStreamableHTTP(HTTPOptions{URL: ts.URL})
	sink := startHTTP(t, tr)
	read := `{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"uri":"file:///ü.txt"}}`
	for range 2 {
		mustSend(t, tr, Outgoing{Raw: []byte(read), ID: []byte("7"), Method: "resources/read", Name: "file:///ü.txt",
			IsRequest: true, ProtocolVersion: "2026-07-28", Stateless: true})
	}
	sink.waitFor(t, "two stream-end notes", func() bool {
		n := 0
		for _, note := range sink.notes {
			if note.Kind == "stream-end" && strings.Contains(note.Text, "cannot be resumed") {
				n++
			}
		}
		return n == 2
	})
	closeAndCheck(t, tr)
	for _, r := range log.list() {
		if r.method != http.MethodPost {
			t.Errorf("stateless transport sent %s", r.method)
			continue
		}
		h := r.header
		if h.Get("Mcp-Method") != "resources/read" || h.Get("Mcp-Name") != "=?base64?ZmlsZTovLy/DvC50eHQ=?=" ||
			h.Get("Mcp-Protocol-Version") != "2026-07-28" || h.Get("Mcp-Session-Id") != "" {
			t.Errorf("headers %v", h)
		}
	}
	if tr.SessionID() != "" {
		t.Errorf("stateless transport learned session %q", tr.SessionID())
	}
}

// testAuth adds X-Fresh once Unauthorized has been called.
type testAuth struct {
	mu    sync.Mutex
	fresh bool
	calls int
}

func (a *testAuth) Authorize(req *http.Request) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.fresh {
		req.Header.Set("X-Fresh-Token", "new-credential-1234")
	}
	return nil
}

func (a *testAuth) Unauthorized(context.Context, *http.Response) (bool, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.fresh, a.calls = true, a.calls+1
	return true, nil
}

func (a *testAuth) Forbidden(context.Context, *http.Response) (bool, error) { return false, nil }

// TestStreamableHTTPUnauthorizedRetry: a 401 asks the Authorizer and retries once.
func TestStreamableHTTPUnauthorizedRetry(t *testing.T) {
	ts, _ := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Fresh-Token") == "" {
			w.Header().Set("WWW-Authenticate", `Bearer realm="x"`)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, result7)
	}))
	auth := &testAuth{}
	tr := NewStreamableHTTP(HTTPOptions{URL: ts.URL, Auth: auth})
	sink := startHTTP(t, tr)
	mustSend(t, tr, request7())
	sink.waitFrame(t, `"id":7`)
	ex := exchangesFor(sink, "post")
	auth.mu.Lock()
	calls := auth.calls
	auth.mu.Unlock()
	if len(ex) != 2 || ex[0].Status != 401 || ex[1].Status != 200 || calls != 1 {
		t.Fatalf("exchanges %+v, Unauthorized calls %d", ex, calls)
	}
	if got := ex[1].ReqHeaders.Get("X-Fresh-Token"); got != "****1234" {
		t.Errorf("reported X-Fresh-Token %q, want it masked", got)
	}
}

// TestStreamableHTTPSendContext: Send's context bounds the wait for headers, not the
// stream that follows.
func TestStreamableHTTPSendContext(t *testing.T) {
	release := make(chan struct{})
	ts, _ := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/hang" {
			// The body read whole, the server watches the connection and so sees the
			// client give up (it does not while a body is left unread).
			_, _ = io.Copy(io.Discard, r.Body)
			<-r.Context().Done()
			return
		}
		sseHeader(w)
		w.(http.Flusher).Flush()
		select {
		case <-release:
			fmt.Fprint(w, "data: "+result7+"\n\n")
		case <-r.Context().Done():
		}
	}))
	tr := NewStreamableHTTP(HTTPOptions{URL: ts.URL})
	sink := startHTTP(t, tr)
	ctx, cancel := context.WithCancel(context.Background())
	if err := tr.Send(ctx, request7()); err != nil {
		t.Fatalf("Send: %v", err)
	}
	cancel()
	close(release)
	sink.waitFrame(t, `"id":7`)

	hang := NewStreamableHTTP(HTTPOptions{URL: ts.URL + "/hang"})
	startHTTP(t, hang)
	ctx, cancel = context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- hang.Send(ctx, request7()) }()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Send with a cancelled context = %v", err)
	}
}

// TestStreamableHTTPDeleteUnauthorized: a 401 to the DELETE that ends the session is
// reported, and the Authorizer is not asked: closing never starts a login.
func TestStreamableHTTPDeleteUnauthorized(t *testing.T) {
	ts, _ := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodDelete || r.Header.Get("X-Fresh-Token") == "" {
			w.Header().Set("WWW-Authenticate", `Bearer realm="x"`)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		w.Header().Set("Mcp-Session-Id", "s-1")
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}`)
	}))
	auth := &testAuth{}
	tr := NewStreamableHTTP(HTTPOptions{URL: ts.URL, Auth: auth})
	sink := startHTTP(t, tr)
	mustSend(t, tr, outInitialize())
	sink.waitFrame(t, `"id":1`)
	if err := tr.Close(context.Background()); err != nil {
		t.Logf("Close: %v", err)
	}
	auth.mu.Lock()
	calls := auth.calls
	auth.mu.Unlock()
	del := exchangesFor(sink, "delete")
	if len(del) != 1 || del[0].Status != http.StatusUnauthorized {
		t.Fatalf("DELETE exchanges %+v, want one answered 401", del)
	}
	if calls != 1 {
		t.Errorf("Unauthorized called %d times, want 1 (the POST's, not the DELETE's)", calls)
	}
}
