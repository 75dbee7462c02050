package cli_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mcpscope/mcpscope/ui/cli"
)

// endingServer is a Streamable HTTP server of the 2025-11-25 era that ends every session
// at its first request after the handshake: 404 Not Found for the session id, as a server
// that restarted or expired the session does. Each initialize starts a session with a new
// id, which then works.
type endingServer struct {
	url string

	mu      sync.Mutex
	next    int
	fresh   map[string]bool // sessions whose next request is answered 404
	ended   map[string]bool
	methods []string // "method@session" of every request, in order
}

func newEndingServer(t *testing.T) *endingServer {
	t.Helper()
	es := &endingServer{fresh: map[string]bool{}, ended: map[string]bool{}}
	srv := httptest.NewServer(http.HandlerFunc(es.serve))
	t.Cleanup(srv.Close)
	es.url = srv.URL + "/mcp"
	return es
}

func (es *endingServer) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodDelete {
		w.WriteHeader(http.StatusOK)
		return
	}
	if r.Method != http.MethodPost {
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	_ = json.Unmarshal(body, &msg)
	sid := r.Header.Get("Mcp-Session-Id")
	es.mu.Lock()
	defer es.mu.Unlock()
	es.methods = append(es.methods, msg.Method+"@"+sid)
	if msg.Method != "initialize" && msg.Method != "notifications/initialized" && es.fresh[sid] {
		delete(es.fresh, sid)
		es.ended[sid] = true
	}
	if sid != "" && es.ended[sid] {
		http.Error(w, "session not found", http.StatusNotFound)
		return
	}
	reply := func(result string) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, msg.ID, result)
	}
	switch msg.Method {
	case "initialize":
		es.next++
		id := fmt.Sprintf("s%d", es.next)
		if es.next == 1 {
			es.fresh[id] = true // only the first session ends
		}
		w.Header().Set("Mcp-Session-Id", id)
		reply(`{"protocolVersion":"2025-11-25","capabilities":{"tools":{},"resources":{}},"serverInfo":{"name":"ending","version":"1"}}`)
	case "tools/list":
		reply(`{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]}`)
	case "tools/call":
		reply(`{"content":[{"type":"text","text":"called"}]}`)
	case "resources/read":
		reply(`{"contents":[{"uri":"x:a","text":"read"}]}`)
	default:
		w.WriteHeader(http.StatusAccepted)
	}
}

// sent is the "method@session" of each request with method.
func (es *endingServer) sent(method string) []string {
	es.mu.Lock()
	defer es.mu.Unlock()
	var out []string
	for _, m := range es.methods {
		if strings.HasPrefix(m, method+"@") {
			out = append(out, m)
		}
	}
	return out
}

// TestSessionEnded404: when the server answers 404 for the session id, a headless command
// starts the new session (a new initialize without a session id), sends a read-only
// request again there once and says so; a tools/call is not sent again unless
// --retry-calls is given.
func TestSessionEnded404(t *testing.T) {
	args := []string{"--protocol", "2025-11-25", "--no-listen", "--transport", "http"}
	t.Run("list", func(t *testing.T) {
		es := newEndingServer(t)
		stdout, stderr, code := run(t, append(args, "list", "tools", "--url", es.url)...)
		if code != cli.ExitOK || !strings.Contains(stdout, `"echo"`) {
			t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
		}
		if !strings.Contains(stderr, "ended the session before answering tools/list; sending it again in new session s2") {
			t.Errorf("stderr does not say the list was sent again:\n%s", stderr)
		}
		if got, want := es.sent("initialize"), []string{"initialize@", "initialize@"}; !slices.Equal(got, want) {
			t.Errorf("initialize requests %q, want %q (the new one without a session id)", got, want)
		}
		if got, want := es.sent("tools/list"), []string{"tools/list@s1", "tools/list@s2"}; !slices.Equal(got, want) {
			t.Errorf("tools/list requests %q, want %q", got, want)
		}
	})
	t.Run("read", func(t *testing.T) {
		es := newEndingServer(t)
		stdout, stderr, code := run(t, append(args, "read", "x:a", "--url", es.url)...)
		if code != cli.ExitOK || !strings.Contains(stdout, `"read"`) {
			t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
		}
		if got := es.sent("resources/read"); len(got) != 2 {
			t.Errorf("resources/read requests %q, want two", got)
		}
	})
	t.Run("call", func(t *testing.T) {
		es := newEndingServer(t)
		stdout, stderr, code := run(t, append(args, "call", "echo", "--url", es.url)...)
		if code == cli.ExitOK || strings.Contains(stdout, "called") {
			t.Fatalf("a call the server never processed succeeded: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
		}
		if !strings.Contains(stderr, "new session s2 is ready, but tools/call was not sent again") || !strings.Contains(stderr, "--retry-calls") {
			t.Errorf("stderr does not name the way out:\n%s", stderr)
		}
		if got := es.sent("tools/call"); len(got) != 1 {
			t.Errorf("tools/call requests %q, want one", got)
		}
		if got := es.sent("initialize"); len(got) != 2 {
			t.Errorf("initialize requests %q, want two: the new session is made all the same", got)
		}
	})
	t.Run("call-with-args", func(t *testing.T) {
		// The tools/list that types the arguments meets the 404: it is sent again, and the
		// call goes out once, on the new session.
		es := newEndingServer(t)
		stdout, stderr, code := run(t, append(args, "call", "echo", "text=hi", "--url", es.url)...)
		if code != cli.ExitOK || !strings.Contains(stdout, "called") {
			t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
		}
		if got, want := es.sent("tools/call"), []string{"tools/call@s2"}; !slices.Equal(got, want) {
			t.Errorf("tools/call requests %q, want %q", got, want)
		}
	})
	t.Run("retry-calls", func(t *testing.T) {
		es := newEndingServer(t)
		stdout, stderr, code := run(t, append(args, "call", "echo", "--retry-calls", "--url", es.url)...)
		if code != cli.ExitOK || !strings.Contains(stdout, "called") {
			t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
		}
		if got, want := es.sent("tools/call"), []string{"tools/call@s1", "tools/call@s2"}; !slices.Equal(got, want) {
			t.Errorf("tools/call requests %q, want %q", got, want)
		}
	})
}
