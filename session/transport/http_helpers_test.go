package transport

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// httpWait bounds every wait in the HTTP tests.
const httpWait = 10 * time.Second

// hframe is one frame an HTTP transport reported.
type hframe struct {
	raw  string
	info RecvInfo
}

// httpSink records what a transport reports and lets a test wait for it.
type httpSink struct {
	mu        sync.Mutex
	changed   chan struct{}
	frames    []hframe
	exchanges []HTTPExchange
	notes     []Note
	exits     []ExitInfo
	stderr    int
}

func newHTTPSink() *httpSink { return &httpSink{changed: make(chan struct{})} }

func (s *httpSink) record(f func()) {
	s.mu.Lock()
	f()
	close(s.changed)
	s.changed = make(chan struct{})
	s.mu.Unlock()
}

func (s *httpSink) Received(raw []byte, info RecvInfo) {
	s.record(func() { s.frames = append(s.frames, hframe{string(raw), info}) })
}
func (s *httpSink) Stderr([]byte) { s.record(func() { s.stderr++ }) }
func (s *httpSink) HTTP(ex *HTTPExchange) {
	s.record(func() { s.exchanges = append(s.exchanges, *ex) })
}
func (s *httpSink) Note(n Note)          { s.record(func() { s.notes = append(s.notes, n) }) }
func (s *httpSink) Exited(info ExitInfo) { s.record(func() { s.exits = append(s.exits, info) }) }

// waitFor waits until cond (called with the sink locked) holds.
func (s *httpSink) waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.NewTimer(httpWait)
	defer deadline.Stop()
	for {
		s.mu.Lock()
		ok, ch := cond(), s.changed
		s.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-ch:
		case <-deadline.C:
			t.Fatalf("timed out waiting for %s; notes: %v", what, s.noteList())
		}
	}
}

// waitFrame waits for a frame containing sub and returns it.
func (s *httpSink) waitFrame(t *testing.T, sub string) hframe {
	t.Helper()
	var got hframe
	s.waitFor(t, "a frame containing "+sub, func() bool {
		for _, f := range s.frames {
			if strings.Contains(f.raw, sub) {
				got = f
				return true
			}
		}
		return false
	})
	return got
}

// waitNote waits for a note of kind and returns it.
func (s *httpSink) waitNote(t *testing.T, kind string) Note {
	t.Helper()
	var got Note
	s.waitFor(t, "a "+kind+" note", func() bool {
		for _, n := range s.notes {
			if n.Kind == kind {
				got = n
				return true
			}
		}
		return false
	})
	return got
}

func (s *httpSink) noteCount(kind string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, note := range s.notes {
		if note.Kind == kind {
			n++
		}
	}
	return n
}

func (s *httpSink) noteList() []Note {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Note(nil), s.notes...)
}

func (s *httpSink) exchangeList() []HTTPExchange {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]HTTPExchange(nil), s.exchanges...)
}

func (s *httpSink) frameList() []hframe {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]hframe(nil), s.frames...)
}

// seenRequest is one request a test server received.
type seenRequest struct {
	method string
	header http.Header
}

// requestLog wraps a handler and records the requests it gets.
type requestLog struct {
	mu   sync.Mutex
	reqs []seenRequest
}

func (l *requestLog) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l.mu.Lock()
		l.reqs = append(l.reqs, seenRequest{method: r.Method, header: r.Header.Clone()})
		l.mu.Unlock()
		h.ServeHTTP(w, r)
	})
}

func (l *requestLog) list() []seenRequest {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]seenRequest(nil), l.reqs...)
}

func (l *requestLog) byMethod(m string) []seenRequest {
	var out []seenRequest
	for _, r := range l.list() {
		if r.method == m {
			out = append(out, r)
		}
	}
	return out
}

// echoInput is the echo tool's argument.
type echoInput struct {
	Text string `json:"text"`
}

// newMCPServer is a real MCP server with one tool, echo.
func newMCPServer() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "fixture", Version: "1.0.0"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "echo", Description: "Echo the text back."},
		func(_ context.Context, _ *mcp.CallToolRequest, in echoInput) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "echo: " + in.Text}}}, nil, nil
		})
	return srv
}

// serve starts h on a test server closed at the end of the test (after the transports,
// whose cleanups are registered later and so run first).
func serve(t *testing.T, h http.Handler) (*httptest.Server, *requestLog) {
	t.Helper()
	log := &requestLog{}
	ts := httptest.NewServer(log.wrap(h))
	t.Cleanup(ts.Close)
	return ts, log
}

// Frames the tests send.
const (
	initializeMsg  = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"mcpscope-test","version":"0"}}}`
	initializedMsg = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	toolsListMsg   = `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	toolsCallMsg   = `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`
)

func outInitialize() Outgoing {
	return Outgoing{Raw: []byte(initializeMsg), ID: []byte("1"), Method: "initialize", IsRequest: true}
}

func outNotify(raw, method, version string) Outgoing {
	return Outgoing{Raw: []byte(raw), Method: method, ProtocolVersion: version}
}

func outRequest(raw string, id int, method, version string) Outgoing {
	return Outgoing{Raw: []byte(raw), ID: []byte(fmt.Sprint(id)), Method: method, IsRequest: true, ProtocolVersion: version}
}

// mustSend sends m and fails the test on error.
func mustSend(t *testing.T, tr Transport, m Outgoing) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), httpWait)
	defer cancel()
	if err := tr.Send(ctx, m); err != nil {
		t.Fatalf("Send %s: %v", m.Method, err)
	}
}

// startHTTP starts tr with a new sink and closes it at the end of the test, checking that
// no goroutine of the HTTP transports outlives Close.
func startHTTP(t *testing.T, tr Transport) *httpSink {
	t.Helper()
	sink := newHTTPSink()
	ctx, cancel := context.WithTimeout(context.Background(), httpWait)
	defer cancel()
	if err := tr.Start(ctx, sink); err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() { closeAndCheck(t, tr) })
	return sink
}

// closeAndCheck closes tr (again, harmlessly, if the test did) and waits until no
// goroutine is running code of the HTTP transports.
func closeAndCheck(t *testing.T, tr Transport) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), httpWait)
	defer cancel()
	if err := tr.Close(ctx); err != nil {
		t.Errorf("Close: %v", err)
	}
	checkNoHTTPGoroutines(t)
}

// httpGoroutineMarks identify goroutines running HTTP transport code.
var httpGoroutineMarks = []string{
	"transport.(*StreamableHTTP)", "transport.(*LegacySSE)", "transport.(*AutoHTTP)",
	"transport.(*httpCore)", "transport.readEvents", "transport/sse.",
}

// checkNoHTTPGoroutines fails if a goroutine other than a test's still runs HTTP
// transport code once the deadline passes. The transports wait for their goroutines in
// Close, so this normally holds at once; the wait covers goroutines that are returning.
func checkNoHTTPGoroutines(t *testing.T) {
	t.Helper()
	deadline := time.NewTimer(httpWait)
	defer deadline.Stop()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		leaked := httpGoroutines()
		if len(leaked) == 0 {
			return
		}
		select {
		case <-tick.C:
		case <-deadline.C:
			t.Fatalf("goroutines still running after Close:\n%s", strings.Join(leaked, "\n\n"))
		}
	}
}

func httpGoroutines() []string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var out []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "testing.tRunner") || strings.Contains(g, "testing.(*M)") {
			continue
		}
		for _, mark := range httpGoroutineMarks {
			if strings.Contains(g, mark) {
				out = append(out, g)
				break
			}
		}
	}
	return out
}

// statusOf extracts the HTTP status of an *HTTPStatusError, or 0.
func statusOf(err error) int {
	var se *HTTPStatusError
	if errors.As(err, &se) {
		return se.Status
	}
	return 0
}

// exchangesFor returns the exchanges of one purpose.
func exchangesFor(s *httpSink, purpose string) []HTTPExchange {
	var out []HTTPExchange
	for _, ex := range s.exchangeList() {
		if ex.Purpose == purpose {
			out = append(out, ex)
		}
	}
	return out
}
