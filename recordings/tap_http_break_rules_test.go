package recordings_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/fault"
	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// TestTapHTTPHeldThenJudged: in an HTTP tap with fault rules, a breakpoint holds a host's
// call first; forwarded, it is judged by the rules as the bytes delivered (here answered
// with the rule's error in the server's place); so is the server's answer held on its
// event stream.
func TestTapHTTPHeldThenJudged(t *testing.T) {
	dir, err := os.MkdirTemp("", "mcpscope-hr-") // a socket's path must be short
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	t.Setenv(recordings.TapDirEnv, dir)
	mcpURL, _ := sessiontest.StartDemoHTTP(t)
	up, _ := url.Parse(mcpURL)
	rules, err := fault.ParseRules([]string{"error=-32001:refused tool:=echo dir:out", "error=-32002:replaced tool:=add dir:in"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tap, err := recordings.NewTap(recordings.TapConfig{Name: "hr", ExactName: true, Faults: fault.NewEngine(rules, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer tap.Close()
	srv := httptest.NewServer(tap.HTTPProxy(up))
	defer srv.Close()
	l, err := recordings.Dial("hr")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	fromViewer := make(chan string, 16)
	go func() {
		for {
			e, err := l.Next()
			if err != nil {
				return
			}
			if e.Event.Kind == session.EvTransport && e.Event.Note == fault.HoldNoteKind && strings.HasPrefix(e.Event.Text, "breakpoints from the viewer") {
				fromViewer <- e.Event.Text
			}
		}
	}()
	u := srv.URL + up.Path
	sid := ""
	post := func(body string) chan string {
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
	<-post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"h","version":"1"}}}`)
	<-post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	bps := l.Breakpoints()
	for i, c := range []struct{ point, call, want string }{
		{"tool:=echo dir:out", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`, `"code":-32001`},
		{"tool:=add dir:in", `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}}`, `"code":-32002`},
	} {
		if i > 0 {
			bps.Remove(bps.List()[0].ID)
		}
		if _, err := bps.Add(c.point); err != nil {
			t.Fatal(err)
		}
		for took := false; !took; {
			select {
			case n := <-fromViewer:
				took = strings.HasSuffix(n, ": "+c.point)
			case <-time.After(20 * time.Second):
				t.Fatal("the tap never took the breakpoint")
			}
		}
		deadline := time.Now().Add(20 * time.Second)
		answer := post(c.call)
		var held []fault.Held
		for len(held) == 0 && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
			held = bps.Held()
		}
		if len(held) != 1 {
			t.Fatalf("%s: held %d", c.point, len(held))
		}
		if err := bps.Decide(held[0].ID, fault.Decision{Verb: fault.Forward}); err != nil {
			t.Fatal(err)
		}
		select {
		case got := <-answer:
			if !strings.Contains(got, c.want) {
				t.Errorf("%s: the host got %s, want the rule's error", c.point, got)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("%s: no answer", c.point)
		}
	}
}
