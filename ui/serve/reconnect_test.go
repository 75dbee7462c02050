package serve

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/session/transport"
)

// killable opens sessions as eraOpener does and remembers the last server process.
type killable struct {
	mu   sync.Mutex
	last *transport.Stdio
}

func (k *killable) open(t Target) (*Opened, error) {
	o, tr := eraSession(t)
	k.mu.Lock()
	k.last = tr.(*transport.Stdio)
	k.mu.Unlock()
	return o, nil
}

// kill ends the last server process and waits until the session says it is closed.
func (k *killable) kill(t *testing.T, cs *mcp.ClientSession) {
	t.Helper()
	k.mu.Lock()
	pid := k.last.Pid()
	k.mu.Unlock()
	p, err := os.FindProcess(pid)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Kill(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; {
		var list SessionList
		callInto(t, cs, "sessions", map[string]any{}, &list)
		if strings.HasPrefix(list.Sessions[0].State, "closed") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the session is not closed after its server was killed: %+v", list)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestReconnect: with reconnect, a call after the server died starts a new session on the
// same target: the call is answered, seqs go on from the old session's, the timeline and
// the recording hold both sessions and the break between them, and sessions counts it.
// Without it, the call fails.
func TestReconnect(t *testing.T) {
	bin := sessiontest.BuildMCPScope(t)
	k := &killable{}
	s := New(Options{Open: k.open, RecordDir: t.TempDir()})
	defer s.Close()
	cs := inMemory(t, s)
	var c Connected
	callInto(t, cs, "connect", map[string]any{"command": []string{bin, "demo"}, "protocol": "2025-11-25", "reconnect": true}, &c)
	var before Answer
	callInto(t, cs, "call_tool", map[string]any{"session": c.Session, "name": "echo", "arguments": map[string]any{"text": "one"}}, &before)
	k.kill(t, cs)
	var list SessionList
	callInto(t, cs, "sessions", map[string]any{}, &list)
	if !strings.Contains(list.Sessions[0].State, "reconnects on the next call") || list.Sessions[0].Exit == "" {
		t.Errorf("sessions after the kill: %+v", list.Sessions[0])
	}

	var after Answer
	callInto(t, cs, "call_tool", map[string]any{"session": c.Session, "name": "echo", "arguments": map[string]any{"text": "two"}}, &after)
	if !strings.Contains(string(after.Result), "two") || after.Exchange.RequestSeq <= before.Exchange.ResponseSeq {
		t.Fatalf("call after the kill: %s %+v (before: %+v)", after.Result, after.Exchange, before.Exchange)
	}
	callInto(t, cs, "sessions", map[string]any{}, &list)
	if list.Sessions[0].Reconnects != 1 || list.Sessions[0].State != "ready" {
		t.Errorf("sessions after the reconnect: %+v", list.Sessions[0])
	}
	var tl Timeline
	callInto(t, cs, "timeline", map[string]any{"session": c.Session, "limit": 500}, &tl)
	var last uint64
	inits, exits, breaks := 0, 0, 0
	for _, e := range tl.Events {
		if e.Break != "" {
			breaks++
		}
		if e.Seq <= last {
			t.Errorf("seq %d after %d", e.Seq, last)
		}
		last = e.Seq
		if e.Method == "initialize" && e.Dir == "out" {
			inits++
		}
		if e.Kind == "exit" && e.Seq < after.Exchange.RequestSeq {
			exits++
		}
	}
	if inits != 2 || exits != 1 || breaks != 1 {
		t.Errorf("the timeline holds %d initialize requests, %d exits before the new call and %d breaks, want 2, 1 and 1", inits, exits, breaks)
	}
	for _, seq := range []uint64{before.Exchange.ResponseSeq, after.Exchange.ResponseSeq} {
		var f Frame
		callInto(t, cs, "frame", map[string]any{"session": c.Session, "seq": seq}, &f)
		if !strings.Contains(f.Bytes, `"result"`) {
			t.Errorf("frame %d: %+v", seq, f)
		}
	}
	var d Disconnected
	callInto(t, cs, "disconnect", map[string]any{"session": c.Session}, &d)
	r, err := recordings.Open(d.Recording)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	evs, _ := r.Events()
	gens := map[int]int{}
	for _, e := range evs {
		if e.Event.Frame != nil && e.Event.Frame.Method == "initialize" {
			gens[e.Gen]++
		}
	}
	if len(gens) != 2 {
		t.Errorf("the recording's initialize requests by session: %v, want one in each of two", gens)
	}

	// Without reconnect the call fails, saying the session ended.
	callInto(t, cs, "connect", map[string]any{"command": []string{bin, "demo"}, "protocol": "2025-11-25"}, &c)
	k.kill(t, cs)
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "call_tool", Arguments: map[string]any{"session": c.Session, "name": "echo", "arguments": map[string]any{"text": "x"}}})
	b, _ := json.Marshal(res)
	if err != nil || !res.IsError && !strings.Contains(string(b), "failure") {
		t.Errorf("a call on a dead session without reconnect: %v %+v", err, res)
	}
}

// endingRoundTripper passes requests to the demo and, once end is set, answers the next
// POST that carries a session id 404 Not Found, as a server that ended the session does.
type endingRoundTripper struct {
	mu  sync.Mutex
	end bool
}

func (e *endingRoundTripper) RoundTrip(r *http.Request) (*http.Response, error) {
	e.mu.Lock()
	end := e.end && r.Method == http.MethodPost && r.Header.Get("Mcp-Session-Id") != ""
	if end {
		e.end = false
	}
	e.mu.Unlock()
	if end {
		return &http.Response{StatusCode: http.StatusNotFound, Status: "404 Not Found", Header: http.Header{},
			Body: io.NopCloser(strings.NewReader("session not found")), Request: r}, nil
	}
	return http.DefaultTransport.RoundTrip(r)
}

// TestReconnectHTTPSessionEnded: a url session reconnects by default: when the server ends
// the HTTP session (404), the call is sent again on the new session and answered.
func TestReconnectHTTPSessionEnded(t *testing.T) {
	streamable, _ := sessiontest.StartDemoHTTP(t)
	rt := &endingRoundTripper{}
	open := func(tg Target) (*Opened, error) {
		tr := transport.NewStreamableHTTP(transport.HTTPOptions{URL: tg.URL, Client: &http.Client{Transport: rt}})
		s := session.New(session.Config{Transport: tr, Protocol: "2025-11-25", Caps: session.DefaultCaps()})
		return &Opened{Session: s, Header: recordings.Header{Server: tg.URL, Transport: "http"}}, nil
	}
	s := New(Options{Open: open, RecordDir: t.TempDir()})
	defer s.Close()
	cs := inMemory(t, s)
	var c Connected
	callInto(t, cs, "connect", map[string]any{"url": streamable}, &c)
	rt.mu.Lock()
	rt.end = true
	rt.mu.Unlock()
	var a Answer
	callInto(t, cs, "call_tool", map[string]any{"session": c.Session, "name": "echo", "arguments": map[string]any{"text": "again"}}, &a)
	if !strings.Contains(string(a.Result), "again") || a.Exchange.Failure != "" {
		t.Errorf("a call whose session the server ended: %s %+v", a.Result, a.Exchange)
	}
	var tl Timeline
	callInto(t, cs, "timeline", map[string]any{"session": c.Session, "query": "method:initialize"}, &tl)
	inits := 0
	for _, e := range tl.Events {
		if e.FrameKind == "request" {
			inits++
		}
	}
	if inits != 2 {
		t.Errorf("initialize requests: %d, want the first and the new session's", inits)
	}

	// Without reconnect the call fails, saying the server ended the session.
	callInto(t, cs, "connect", map[string]any{"url": streamable, "reconnect": false}, &c)
	rt.mu.Lock()
	rt.end = true
	rt.mu.Unlock()
	if msg, _ := toolError(t, cs, "call_tool", map[string]any{"session": c.Session, "name": "echo", "arguments": map[string]any{"text": "lost"}}); !strings.Contains(msg, "the server ended session") {
		t.Errorf("without reconnect: %s", msg)
	}
}
