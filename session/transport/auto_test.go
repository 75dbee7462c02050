package transport

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestAutoHTTPFallsBackToSSE: the SSE-only server answers the initialize POST with 400,
// so the transport switches to HTTP+SSE and the session still works.
func TestAutoHTTPFallsBackToSSE(t *testing.T) {
	ts, log := serve(t, newSSEHandler())
	tr := NewAutoHTTP(HTTPOptions{URL: ts.URL})
	sink := startHTTP(t, tr)
	if tr.Name() != "http" {
		t.Fatalf("Name before the switch = %q", tr.Name())
	}
	runLegacySession(t, tr, sink)
	if tr.Name() != "sse" {
		t.Fatalf("Name after the switch = %q", tr.Name())
	}
	if n := sink.waitNote(t, "fallback"); !strings.Contains(n.Text, "400") {
		t.Errorf("fallback note %q", n.Text)
	}
	if err := tr.Listen(context.Background()); err != nil {
		t.Errorf("Listen after the switch: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), httpWait)
	defer cancel()
	if err := tr.Close(ctx); err != nil {
		t.Fatalf("Close: %v", err)
	}
	checkNoHTTPGoroutines(t)
	reqs := log.list()
	if reqs[0].method != http.MethodPost || reqs[1].method != http.MethodGet {
		t.Fatalf("first requests %s, %s; want POST then GET", reqs[0].method, reqs[1].method)
	}
	sink.mu.Lock()
	defer sink.mu.Unlock()
	if len(sink.exits) != 1 || !sink.exits[0].ByUs {
		t.Errorf("exits %+v, want exactly one by us", sink.exits)
	}
}

// TestAutoHTTPStaysOnStreamable: a Streamable HTTP server never triggers the fallback.
func TestAutoHTTPStaysOnStreamable(t *testing.T) {
	srv := newMCPServer()
	ts, log := serve(t, mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	tr := NewAutoHTTP(HTTPOptions{URL: ts.URL})
	sink := startHTTP(t, tr)
	mustSend(t, tr, outInitialize())
	sink.waitFrame(t, `"id":1`)
	mustSend(t, tr, outNotify(initializedMsg, "notifications/initialized", "2025-11-25"))
	mustSend(t, tr, outRequest(toolsCallMsg, 3, "tools/call", "2025-11-25"))
	sink.waitFrame(t, `"id":3`)
	if tr.Name() != "http" || tr.SessionID() == "" || sink.noteCount("fallback") != 0 {
		t.Fatalf("Name %q SessionID %q fallback notes %d", tr.Name(), tr.SessionID(), sink.noteCount("fallback"))
	}
	closeAndCheck(t, tr)
	if len(log.byMethod(http.MethodDelete)) != 1 {
		t.Error("no DELETE on close")
	}
}

// TestAutoHTTPProbeDoesNotFallBack: only initialize can trigger the switch; a 2026-07-28
// server/discover answered 400 is just an error.
func TestAutoHTTPProbeDoesNotFallBack(t *testing.T) {
	ts, log := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "bad request", http.StatusBadRequest)
	}))
	tr := NewAutoHTTP(HTTPOptions{URL: ts.URL})
	sink := startHTTP(t, tr)
	probe := `{"jsonrpc":"2.0","id":1,"method":"server/discover"}`
	err := tr.Send(context.Background(), Outgoing{Raw: []byte(probe), ID: []byte("1"), Method: "server/discover", IsRequest: true, ProtocolVersion: "2026-07-28", Stateless: true})
	if statusOf(err) != http.StatusBadRequest {
		t.Fatalf("Send = %v, want a 400 HTTPStatusError", err)
	}
	if tr.Name() != "http" || sink.noteCount("fallback") != 0 || len(log.byMethod(http.MethodGet)) != 0 {
		t.Fatalf("probe triggered a fallback: Name %q, notes %v", tr.Name(), sink.noteList())
	}
}

// TestAutoHTTPFallbackFails: neither transport works; the error names both.
func TestAutoHTTPFallbackFails(t *testing.T) {
	ts, _ := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "nothing here", http.StatusNotFound)
	}))
	tr := NewAutoHTTP(HTTPOptions{URL: ts.URL})
	sink := startHTTP(t, tr)
	err := tr.Send(context.Background(), outInitialize())
	if err == nil || !strings.Contains(err.Error(), "HTTP+SSE fallback") || statusOf(err) != http.StatusNotFound {
		t.Fatalf("Send = %v", err)
	}
	if sink.noteCount("fallback") != 2 || tr.Name() != "http" {
		t.Fatalf("notes %v, Name %q", sink.noteList(), tr.Name())
	}
}

// closingAuth is an Authorizer with work of its own: it counts the CloseAuth calls.
type closingAuth struct{ closes atomic.Int32 }

func (a *closingAuth) Authorize(*http.Request) error                              { return nil }
func (a *closingAuth) Unauthorized(context.Context, *http.Response) (bool, error) { return false, nil }
func (a *closingAuth) Forbidden(context.Context, *http.Response) (bool, error)    { return false, nil }
func (a *closingAuth) CloseAuth(context.Context) error                            { a.closes.Add(1); return nil }

// TestAutoHTTPPreferLegacy: with PreferLegacy the first initialize GETs the event stream
// with no POST before it; a Streamable HTTP server refuses the GET and the initialize goes
// out as a POST. Either way the authorizer's work ends once, with the AutoHTTP's Close, not
// with the inner transport that did not hold.
func TestAutoHTTPPreferLegacy(t *testing.T) {
	t.Run("sse", func(t *testing.T) {
		ts, log := serve(t, newSSEHandler())
		a := &closingAuth{}
		tr := NewAutoHTTP(HTTPOptions{URL: ts.URL, Auth: a})
		tr.PreferLegacy()
		sink := startHTTP(t, tr)
		runLegacySession(t, tr, sink)
		if reqs := log.list(); tr.Name() != "sse" || reqs[0].method != http.MethodGet {
			t.Fatalf("Name %q, first request %s; want sse and a GET first", tr.Name(), reqs[0].method)
		}
		closeAndCheck(t, tr)
		if n := a.closes.Load(); n != 1 {
			t.Errorf("CloseAuth called %d times, want 1", n)
		}
	})
	t.Run("streamable", func(t *testing.T) {
		srv := newMCPServer()
		ts, log := serve(t, mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
		a := &closingAuth{}
		tr := NewAutoHTTP(HTTPOptions{URL: ts.URL, Auth: a})
		tr.PreferLegacy()
		sink := startHTTP(t, tr)
		mustSend(t, tr, outInitialize())
		sink.waitFrame(t, `"id":1`)
		if n := a.closes.Load(); n != 0 {
			t.Fatalf("the failed HTTP+SSE attempt ended the authorizer's work (%d CloseAuth) while the session goes on", n)
		}
		mustSend(t, tr, outNotify(initializedMsg, "notifications/initialized", "2025-11-25"))
		mustSend(t, tr, outRequest(toolsCallMsg, 3, "tools/call", "2025-11-25"))
		sink.waitFrame(t, `"id":3`)
		noted := false
		for _, n := range sink.noteList() {
			noted = noted || strings.Contains(n.Text, "did not answer as before")
		}
		if tr.Name() != "http" || len(log.byMethod(http.MethodGet)) == 0 || !noted {
			t.Fatalf("Name %q, GETs %d, notes %v", tr.Name(), len(log.byMethod(http.MethodGet)), sink.noteList())
		}
		closeAndCheck(t, tr)
		if n := a.closes.Load(); n != 1 {
			t.Errorf("CloseAuth called %d times, want 1", n)
		}
	})
}
