package session_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/session/transport"
)

// sessionServer is a Streamable HTTP server of the 2025-11-25 era on loopback that gives
// each initialize a new session id, can end a session (404 for its id from then on), and
// answers ping with another session id in the header.
type sessionServer struct {
	mu     sync.Mutex
	next   int
	ended  map[string]bool
	listed []string // the session id of every tools/list it received, answered or not
	srvURL string
	// modernOnly: initialize is refused and server/discover answers a DiscoverResult.
	modernOnly bool
	discovers  int // server/discover requests received
	inits      int // initialize requests received
}

func newSessionServer(t *testing.T) *sessionServer {
	t.Helper()
	ss := &sessionServer{ended: map[string]bool{}}
	srv := httptest.NewServer(http.HandlerFunc(ss.serve)) // binds 127.0.0.1
	t.Cleanup(srv.Close)
	ss.srvURL = srv.URL + "/mcp"
	return ss
}

func (ss *sessionServer) endSession(id string) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	ss.ended[id] = true
}

func (ss *sessionServer) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(body, &msg) != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	sid := r.Header.Get("Mcp-Session-Id")
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if msg.Method == "tools/list" {
		ss.listed = append(ss.listed, sid)
	}
	if sid != "" && ss.ended[sid] {
		http.Error(w, "session not found", http.StatusNotFound)
		return
	}
	reply := func(result string) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, msg.ID, result)
	}
	switch {
	case msg.Method == "initialize":
		ss.inits++
	case msg.Method == "server/discover":
		ss.discovers++
	}
	if ss.modernOnly {
		switch msg.Method {
		case "server/discover":
			reply(`{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"resultType":"complete","ttlMs":0,"cacheScope":"private"}`)
		case "tools/list":
			reply(`{"tools":[],"resultType":"complete"}`)
		default:
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found"}}`, msg.ID)
		}
		return
	}
	switch msg.Method {
	case "initialize":
		ss.next++
		w.Header().Set("Mcp-Session-Id", fmt.Sprintf("s%d", ss.next))
		reply(`{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"sessions","version":"1"}}`)
	case "notifications/initialized":
		w.WriteHeader(http.StatusAccepted)
	case "tools/list":
		reply(`{"tools":[]}`)
	case "server/discover": // what a server of the earlier era may answer to any request
		reply(`{}`)
	case "ping":
		w.Header().Set("Mcp-Session-Id", "someone-else")
		reply(`{}`)
	default:
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"no"}}`, msg.ID)
	}
}

func (ss *sessionServer) connect(t *testing.T) (*session.Session, *sessiontest.Recorder) {
	t.Helper()
	return ss.connectWith(t, "2025-11-25")
}

func (ss *sessionServer) connectWith(t *testing.T, protocol string) (*session.Session, *sessiontest.Recorder) {
	t.Helper()
	return ss.connectConfig(t, session.Config{Protocol: protocol})
}

func (ss *sessionServer) connectConfig(t *testing.T, cfg session.Config) (*session.Session, *sessiontest.Recorder) {
	t.Helper()
	cfg.Caps = session.DefaultCaps()
	s, rec := connectChecked(t, transport.NewStreamableHTTP(transport.HTTPOptions{URL: ss.srvURL}), cfg)
	return s, rec.Recorder
}

// TestHTTPSessionEndedStartsNewSession: a 404 for the session id fails that request with an
// error that says so, starts a new session (a new initialize, marked in the timeline) and
// sends nothing again by itself; the next request goes out on the new session.
func TestHTTPSessionEndedStartsNewSession(t *testing.T) {
	ss := newSessionServer(t)
	s, rec := ss.connect(t)
	ss.endSession("s1")

	_, err := s.Call(testCtx(t), "tools/list", nil)
	if err == nil || !strings.Contains(err.Error(), "ended session s1") || !strings.Contains(err.Error(), "not sent again") {
		t.Fatalf("tools/list on an ended session: err = %v; want an error naming the ended session and saying nothing was re-sent", err)
	}
	if !errors.Is(err, session.ErrSessionEnded) {
		t.Errorf("err = %v; want it to be ErrSessionEnded", err)
	}
	if id, err := s.AwaitNewSession(testCtx(t)); err != nil || id != "s2" {
		t.Fatalf("AwaitNewSession = %q, %v; want the new session s2", id, err)
	}
	rec.WaitFor(t, 10*time.Second, "the new-session marker", func(e *session.Event) bool {
		return e.Kind == session.EvState && e.Note == session.NoteNewSession
	})
	rec.WaitFor(t, 10*time.Second, "ready on the new session", func(e *session.Event) bool {
		return e.Kind == session.EvState && e.State == session.StateReady && strings.HasSuffix(e.Text, "(new session)")
	})
	if n := len(rec.FindAll(sessiontest.Sent("initialize"))); n != 2 {
		t.Fatalf("initialize sent %d times, want 2\n%s", n, rec.Timeline())
	}
	if _, err := s.Call(testCtx(t), "tools/list", nil); err != nil {
		t.Fatalf("tools/list on the new session: %v\n%s", err, rec.Timeline())
	}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if want := []string{"s1", "s2"}; strings.Join(ss.listed, ",") != strings.Join(want, ",") {
		t.Fatalf("the server saw tools/list on sessions %v, want %v (one failed, nothing re-sent, one on the new session)", ss.listed, want)
	}
}

// TestHTTPSessionIDChangedIsFinding: a response whose Mcp-Session-Id differs from the one
// initialize assigned carries a finding, and the session keeps its id.
func TestHTTPSessionIDChangedIsFinding(t *testing.T) {
	ss := newSessionServer(t)
	s, rec := ss.connect(t)
	resp, err := s.Call(testCtx(t), "ping", nil)
	if err != nil {
		t.Fatalf("ping: %v", err)
	}
	found := false
	for _, f := range resp.Event.Frame.Findings {
		found = found || f.Code == protocol.FindSessionChanged && strings.Contains(f.Message, "s1 → someone-else")
	}
	if !found {
		t.Fatalf("ping's response has findings %v, want %s naming both ids\n%s", resp.Event.Frame.Findings, protocol.FindSessionChanged, rec.Timeline())
	}
	if _, err := s.Call(testCtx(t), "tools/list", nil); err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if len(ss.listed) != 1 || ss.listed[0] != "s1" {
		t.Fatalf("tools/list went out on session %v, want s1 (the id initialize assigned)", ss.listed)
	}
}

// TestDiscoverResultInvalidFallsBack: with protocol auto, a server/discover result that is
// not a DiscoverResult ({} here) is flagged on the response and the session falls back to
// initialize; with an explicit 2026-07-28 it is flagged and the session goes on.
func TestDiscoverResultInvalidFallsBack(t *testing.T) {
	ss := newSessionServer(t)
	s, rec := ss.connectWith(t, "auto")
	if info := s.Info(); info.Stateless || info.Revision != "2025-11-25" {
		t.Fatalf("auto against a server answering {} to server/discover: revision %s stateless=%v, want the initialize era\n%s", info.Revision, info.Stateless, rec.Timeline())
	}
	rec.WaitFor(t, 5*time.Second, "the finding on the discover result", sessiontest.HasFinding(protocol.FindDiscoverResult))
	rec.WaitFor(t, 5*time.Second, "the fallback step", func(e *session.Event) bool {
		return e.Kind == session.EvState && strings.Contains(e.Text, "no valid DiscoverResult") && strings.Contains(e.Text, "falling back to initialize")
	})

	ss2 := newSessionServer(t)
	s2, rec2 := ss2.connectWith(t, "2026-07-28")
	if info := s2.Info(); !info.Stateless {
		t.Fatalf("explicit 2026-07-28: the session should stay stateless as asked\n%s", rec2.Timeline())
	}
	rec2.WaitFor(t, 5*time.Second, "the finding on the discover result", sessiontest.HasFinding(protocol.FindDiscoverResult))
}
