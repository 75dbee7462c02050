package session_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/transport"
)

// streamServer is a Streamable HTTP server of the 2025-11-25 era whose response streams
// end early: tools/call answers an event stream with one event id and no response, and
// each resumption an event stream that ends at once (retry 50 ms). The standalone GET
// stream stays open. It counts the resumptions.
type streamServer struct {
	srv *httptest.Server

	mu      sync.Mutex
	resumes int // GETs with Last-Event-ID
}

func newStreamServer(t *testing.T) *streamServer {
	t.Helper()
	ss := &streamServer{}
	ss.srv = httptest.NewServer(http.HandlerFunc(ss.serve))
	t.Cleanup(ss.srv.Close)
	return ss
}

func (ss *streamServer) resumed() int {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.resumes
}

func (ss *streamServer) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodDelete {
		return
	}
	if r.Method == http.MethodGet {
		if r.Header.Get("Last-Event-ID") != "" {
			ss.mu.Lock()
			ss.resumes++
			ss.mu.Unlock()
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "retry: 50\n\n")
		if r.Header.Get("Last-Event-ID") == "" {
			w.(http.Flusher).Flush()
			<-r.Context().Done() // the standalone stream stays open while the server runs
		}
		return // a resumption ends at once
	}
	body, _ := io.ReadAll(r.Body)
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	_ = json.Unmarshal(body, &msg)
	switch msg.Method {
	case "initialize":
		w.Header().Set("Mcp-Session-Id", "s1")
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"streams","version":"1"}}}`, msg.ID)
	case "tools/call":
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "id: e1\nretry: 50\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"working\"}}\n\n")
	case "ping":
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{}}`, msg.ID)
	default:
		w.WriteHeader(http.StatusAccepted)
	}
}

// TestCancelledStreamNotResumed: the response stream of a request the caller gave up on
// is not resumed once it ends, while that of a live request would be.
func TestCancelledStreamNotResumed(t *testing.T) {
	ss := newStreamServer(t)
	s, rec := connectChecked(t, transport.NewStreamableHTTP(transport.HTTPOptions{URL: ss.srv.URL + "/mcp", ReconnectLimit: 50}),
		session.Config{Protocol: "2025-11-25", Caps: session.DefaultCaps(), NoListen: true})
	ctx, cancel := context.WithCancel(testCtx(t))
	done := make(chan error, 1)
	go func() {
		_, err := s.Call(ctx, "tools/call", map[string]any{"name": "slow"})
		done <- err
	}()
	rec.WaitFor(t, 10*time.Second, "a resumption of the call's stream", func(e *session.Event) bool {
		return e.Kind == session.EvHTTP && e.HTTP.Purpose == "resume"
	})
	cancel()
	if err := <-done; err == nil {
		t.Fatal("the cancelled call succeeded")
	}
	rec.WaitFor(t, 10*time.Second, "the stream given up", func(e *session.Event) bool {
		return e.Kind == session.EvTransport && e.Note == "stream-end" && strings.Contains(e.Text, "cancelled")
	})
	if n := ss.resumed(); n >= 50 {
		t.Errorf("the stream was resumed %d times", n)
	}
}

// TestLinkState: when the server goes away, the state says what the transport knows:
// reconnecting N/M while the standalone stream retries, unreachable once it gave up and a
// request could not be sent; reachable again once an answer comes.
func TestLinkState(t *testing.T) {
	ss := newStreamServer(t)
	s, rec := connectChecked(t, transport.NewStreamableHTTP(transport.HTTPOptions{URL: ss.srv.URL + "/mcp", ReconnectLimit: 3}),
		session.Config{Protocol: "2025-11-25", Caps: session.DefaultCaps()})
	if s.Link() != "" {
		t.Errorf("Link before any trouble = %q", s.Link())
	}
	ss.srv.Config.SetKeepAlivesEnabled(false)
	ss.srv.Listener.Close() // nothing answers any more: connection refused
	ss.srv.CloseClientConnections()
	link := func(text string) func(*session.Event) bool {
		return func(e *session.Event) bool {
			return e.Kind == session.EvState && e.Note == session.NoteLink && e.Text == text && e.State == session.StateReady
		}
	}
	rec.WaitFor(t, 10*time.Second, "reconnecting 1/3", link("reconnecting 1/3"))
	rec.WaitFor(t, 10*time.Second, "reconnecting 2/3", link("reconnecting 2/3"))
	rec.WaitFor(t, 10*time.Second, "reconnecting 3/3", link("reconnecting 3/3"))
	rec.WaitFor(t, 10*time.Second, "unreachable after the stream gave up", link("unreachable"))
	if _, err := s.Ping(testCtx(t)); err == nil {
		t.Fatal("ping to a server that is gone succeeded")
	}
	if got := s.Link(); got != "unreachable" {
		t.Errorf("Link after a failed ping = %q, want unreachable", got)
	}
}
