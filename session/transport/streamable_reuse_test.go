package transport

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestStreamableReusesTheConnection: a server that is slow to end the SSE stream of
// initialize after its response, and slow to answer notifications/initialized with 202,
// still gets initialize, the notification, tools/list and DELETE on one connection, each
// after the one before it was answered: the transport waits for the connection to be free
// instead of opening another.
func TestStreamableReusesTheConnection(t *testing.T) {
	const hold = 60 * time.Millisecond
	type seen struct {
		what, remote string
		arrived      time.Time
		done         time.Time
	}
	var mu sync.Mutex
	var log []*seen
	ts, _ := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		_ = json.Unmarshal(body, &msg)
		s := &seen{what: r.Method + " " + msg.Method, remote: r.RemoteAddr, arrived: time.Now()}
		mu.Lock()
		log = append(log, s)
		mu.Unlock()
		defer func() { mu.Lock(); s.done = time.Now(); mu.Unlock() }()
		w.Header().Set("Mcp-Session-Id", "s1")
		switch {
		case r.Method == http.MethodDelete:
		case msg.Method == "initialize":
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprintf(w, "event: message\ndata: %s\n\n", `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"slow","version":"1"}}}`)
			w.(http.Flusher).Flush()
			time.Sleep(hold) // the stream ends a while after the response
		case msg.ID == nil:
			time.Sleep(hold)
			w.WriteHeader(http.StatusAccepted)
		default:
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"tools":[]}}`, msg.ID)
		}
	}))
	tr := NewStreamableHTTP(HTTPOptions{URL: ts.URL})
	sink := startHTTP(t, tr)
	mustSend(t, tr, outInitialize())
	sink.waitFrame(t, `"id":1`)
	n := outNotify(initializedMsg, "notifications/initialized", "2025-11-25")
	n.NoWait = true
	mustSend(t, tr, n)
	mustSend(t, tr, outRequest(toolsListMsg, 2, "tools/list", "2025-11-25"))
	sink.waitFrame(t, `"id":2`)
	closeAndCheck(t, tr)

	mu.Lock()
	defer mu.Unlock()
	var got []string
	for _, s := range log {
		got = append(got, s.what)
	}
	if want := "POST initialize,POST notifications/initialized,POST tools/list,DELETE "; strings.Join(got, ",") != want {
		t.Fatalf("requests %q, want %q", got, want)
	}
	for i, s := range log[1:] {
		prev := log[i]
		if s.remote != prev.remote {
			t.Errorf("%s came on a new connection (%s; %s came on %s)", s.what, s.remote, prev.what, prev.remote)
		}
		if s.arrived.Before(prev.done) {
			t.Errorf("%s arrived before %s was answered", s.what, prev.what)
		}
	}
}

// TestStreamableWaitsOnceForAStuckStream: a server that keeps the SSE stream of
// initialize open after the response delays the next message by the bound once; the
// messages after it go out at once, on other connections.
func TestStreamableWaitsOnceForAStuckStream(t *testing.T) {
	release := make(chan struct{})
	ts, log := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		_ = json.Unmarshal(body, &msg)
		w.Header().Set("Mcp-Session-Id", "s1")
		switch {
		case r.Method == http.MethodDelete:
		case msg.Method == "initialize":
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprintf(w, "event: message\ndata: %s\n\n", `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"stuck","version":"1"}}}`)
			w.(http.Flusher).Flush()
			select { // the stream stays open after the response
			case <-release:
			case <-r.Context().Done():
			}
		case msg.ID == nil:
			w.WriteHeader(http.StatusAccepted)
		default:
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"tools":[]}}`, msg.ID)
		}
	}))
	defer close(release)
	tr := NewStreamableHTTP(HTTPOptions{URL: ts.URL})
	sink := startHTTP(t, tr)
	mustSend(t, tr, outInitialize())
	sink.waitFrame(t, `"id":1`)
	for i := range 4 {
		id := 2 + i
		mustSend(t, tr, outRequest(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`, id), id, "tools/list", "2025-11-25"))
		sink.waitFrame(t, fmt.Sprintf(`"id":%d`, id))
	}
	tr.settle.mu.Lock()
	bounded := tr.settle.bounded
	tr.settle.mu.Unlock()
	if bounded != 1 {
		t.Errorf("%d messages waited the whole bound for the stuck stream, want 1", bounded)
	}
	if n := len(log.byMethod(http.MethodPost)); n != 5 {
		t.Errorf("%d POSTs, want 5", n)
	}
}
