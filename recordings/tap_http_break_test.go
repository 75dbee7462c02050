package recordings_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/fault"
	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// TestTapHTTPBreakpoints holds messages in an HTTP tap in front of the demo server, its
// breakpoints set through its viewer socket as attach does: a host's call held, edited
// and forwarded (the host gets the answer to the edited call), the server's answer held
// and forwarded edited, and a call held when the viewer goes away forwarded as it came.
func TestTapHTTPBreakpoints(t *testing.T) {
	dir, err := os.MkdirTemp("", "mcpscope-hb-") // a socket's path must be short
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	t.Setenv(recordings.TapDirEnv, dir)
	mcpURL, _ := sessiontest.StartDemoHTTP(t)
	up, _ := url.Parse(mcpURL)
	tap, err := recordings.NewTap(recordings.TapConfig{Name: "hb", ExactName: true})
	if err != nil {
		t.Fatal(err)
	}
	defer tap.Close()
	srv := httptest.NewServer(tap.HTTPProxy(up))
	defer srv.Close()
	l, err := recordings.Dial("hb")
	if err != nil {
		t.Fatal(err)
	}
	notes := make(chan string, 64)
	go func() {
		defer close(notes)
		for {
			e, err := l.Next()
			if err != nil {
				return
			}
			if e.Event.Kind == session.EvTransport && e.Event.Note == fault.HoldNoteKind {
				notes <- e.Event.Text
			}
		}
	}()
	waitNote := func(prefix string) {
		t.Helper()
		for {
			select {
			case n, ok := <-notes:
				if !ok {
					t.Fatalf("the tap's stream ended before a note %q", prefix)
				}
				if strings.HasPrefix(n, prefix) {
					return
				}
			case <-time.After(20 * time.Second):
				t.Fatalf("no note %q", prefix)
			}
		}
	}
	u := srv.URL + up.Path
	sid := ""
	postAsync := func(body string) chan string {
		out := make(chan string, 1)
		go func() {
			req, _ := http.NewRequest(http.MethodPost, u, strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
			if sid != "" {
				req.Header.Set("Mcp-Session-Id", sid)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				out <- "error: " + err.Error()
				return
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			if sid == "" {
				sid = resp.Header.Get("Mcp-Session-Id")
			}
			out <- string(b)
		}()
		return out
	}
	post := func(body string) string {
		t.Helper()
		select {
		case s := <-postAsync(body):
			return s
		case <-time.After(20 * time.Second):
			t.Fatalf("no answer to %s", body)
			return ""
		}
	}
	post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"h","version":"1"}}}`)
	post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	bps := l.Breakpoints()

	if _, err := bps.Add("tool:=echo dir:out"); err != nil {
		t.Fatal(err)
	}
	waitNote("breakpoints from the viewer: tool:=echo dir:out")
	answer := postAsync(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"as typed"}}}`)
	waitNote("held #1 by breakpoint tool:=echo dir:out")
	held := bps.Held()
	if len(held) != 1 || held[0].Dir != protocol.ClientToServer || !held[0].Request {
		t.Fatalf("held %+v", held)
	}
	edited := bytes.Replace(held[0].Raw, []byte("as typed"), []byte("as edited"), 1)
	if err := bps.Decide(held[0].ID, fault.Decision{Verb: fault.Forward, Raw: edited}); err != nil {
		t.Fatal(err)
	}
	if got := <-answer; !strings.Contains(got, "as edited") {
		t.Errorf("the host got %s, want the answer to the edited call", got)
	}

	bps.Remove(1)
	if _, err := bps.Add("tool:=add dir:in"); err != nil {
		t.Fatal(err)
	}
	waitNote("breakpoints from the viewer: tool:=add dir:in")
	answer = postAsync(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}}`)
	waitNote("held #2 by breakpoint tool:=add dir:in")
	held = bps.Held()
	if len(held) != 1 || held[0].Dir != protocol.ServerToClient || held[0].Method != "tools/call" {
		t.Fatalf("held %+v", held)
	}
	changed := []byte(`{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"changed at a breakpoint"}]}}`)
	if err := bps.Decide(held[0].ID, fault.Decision{Verb: fault.Forward, Raw: changed}); err != nil {
		t.Fatal(err)
	}
	if got := <-answer; !strings.Contains(got, "changed at a breakpoint") || strings.Contains(got, "1 + 2") {
		t.Errorf("the host got %s, want the edited answer", got)
	}

	answer = postAsync(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":2}}}`)
	waitNote("held #3 by breakpoint tool:=add dir:in")
	l.Close() // the viewer goes away: the answer is forwarded as the server sent it
	select {
	case got := <-answer:
		if !strings.Contains(got, `"id":4`) || strings.Contains(got, "changed") {
			t.Errorf("after the viewer went away the host got %s", got)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the answer held when the viewer went away was never forwarded")
	}
}
