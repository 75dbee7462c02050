package transport

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func newSSEHandler() http.Handler {
	srv := newMCPServer()
	return mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return srv }, nil)
}

// runLegacySession runs initialize, initialized, tools/list and tools/call over tr.
func runLegacySession(t *testing.T, tr Transport, sink *httpSink) {
	t.Helper()
	mustSend(t, tr, outInitialize())
	if f := sink.waitFrame(t, `"id":1`); f.info.Via != "sse" || f.info.SSEEvent != "message" || !strings.Contains(f.raw, `"serverInfo"`) {
		t.Fatalf("initialize response %q via %+v", f.raw, f.info)
	}
	mustSend(t, tr, outNotify(initializedMsg, "notifications/initialized", "2025-11-25"))
	mustSend(t, tr, outRequest(toolsListMsg, 2, "tools/list", "2025-11-25"))
	sink.waitFrame(t, `"id":2`)
	mustSend(t, tr, outRequest(toolsCallMsg, 3, "tools/call", "2025-11-25"))
	if f := sink.waitFrame(t, `"id":3`); !strings.Contains(f.raw, "echo: hi") {
		t.Fatalf("tools/call answered %q", f.raw)
	}
}

func TestLegacySSERealServer(t *testing.T) {
	ts, log := serve(t, newSSEHandler())
	tr := NewLegacySSE(HTTPOptions{URL: ts.URL})
	sink := startHTTP(t, tr)
	if n := sink.waitNote(t, "endpoint"); !strings.Contains(n.Text, ts.URL+"/?sessionid=") {
		t.Fatalf("endpoint note %q", n.Text)
	}
	if !strings.HasPrefix(tr.Endpoint(), ts.URL+"/?sessionid=") || tr.Name() != "sse" {
		t.Fatalf("Endpoint %q Name %q", tr.Endpoint(), tr.Name())
	}
	runLegacySession(t, tr, sink)
	ctx, cancel := context.WithTimeout(context.Background(), httpWait)
	defer cancel()
	if err := tr.Close(ctx); err != nil {
		t.Fatalf("Close: %v", err)
	}
	checkNoHTTPGoroutines(t)
	gets := log.byMethod(http.MethodGet)
	if len(gets) != 1 || gets[0].header.Get("Accept") != "text/event-stream" {
		t.Fatalf("GETs %v", gets)
	}
	if ex := exchangesFor(sink, "legacy-sse"); len(ex) != 1 || ex[0].Status != 200 {
		t.Fatalf("legacy-sse exchange %+v", ex)
	}
	for _, ex := range exchangesFor(sink, "post") {
		if ex.Status != http.StatusAccepted || !strings.Contains(ex.URL, "sessionid=") {
			t.Errorf("post exchange %+v", ex)
		}
	}
	sink.mu.Lock()
	defer sink.mu.Unlock()
	if len(sink.exits) != 1 || !sink.exits[0].ByUs {
		t.Errorf("exits %+v", sink.exits)
	}
}

func TestResolveEndpoint(t *testing.T) {
	base, _ := url.Parse("http://h:1/sse/x?a=b")
	tests := []struct{ data, want string }{
		{"/messages?sessionid=1", "http://h:1/messages?sessionid=1"},
		{"messages", "http://h:1/sse/messages"},
		{" ?s=2 \n", "http://h:1/sse/x?s=2"},
		{"http://h:1/m", "http://h:1/m"},
		{"http://evil:1/m", ""},
		{"https://h:1/m", ""},
	}
	for _, tt := range tests {
		u, err := resolveEndpoint(base, tt.data)
		got := ""
		if err == nil {
			got = u.String()
		}
		if got != tt.want {
			t.Errorf("resolveEndpoint(%q) = %q (%v), want %q", tt.data, got, err, tt.want)
		}
	}
}

// TestLegacySSEStreamEndsBeforeEndpoint: a stream without an endpoint event fails Start.
func TestLegacySSEStreamEndsBeforeEndpoint(t *testing.T) {
	ts, _ := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, ": hello\n\nevent: message\ndata: {}\n\n")
	}))
	tr := NewLegacySSE(HTTPOptions{URL: ts.URL})
	ctx, cancel := context.WithTimeout(context.Background(), httpWait)
	defer cancel()
	sink := newHTTPSink()
	err := tr.Start(ctx, sink)
	if err == nil || !strings.Contains(err.Error(), "before the endpoint event") {
		t.Fatalf("Start = %v, want an error about the missing endpoint", err)
	}
	closeAndCheck(t, tr)
}

// TestLegacySSEServerGoesAway: the event stream ending is the connection lost for good.
func TestLegacySSEServerGoesAway(t *testing.T) {
	end := make(chan struct{})
	ts, _ := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "event: endpoint\ndata: /m\n\n")
		w.(http.Flusher).Flush()
		select {
		case <-end:
		case <-r.Context().Done():
		}
	}))
	tr := NewLegacySSE(HTTPOptions{URL: ts.URL})
	sink := startHTTP(t, tr)
	close(end)
	sink.waitFor(t, "Exited", func() bool { return len(sink.exits) == 1 })
	sink.mu.Lock()
	ex := sink.exits[0]
	sink.mu.Unlock()
	if ex.ByUs || !strings.Contains(ex.Err, "ended") {
		t.Fatalf("exit %+v", ex)
	}
}
