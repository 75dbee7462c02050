package session_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/transport"
)

// modernServer is a small 2026-07-28 Streamable HTTP server on loopback: it answers
// server/discover itself and every other request with handle's result (or a -32601 error
// when handle returns nil). It remembers the headers of each request by method.
type modernServer struct {
	URL     string
	mu      sync.Mutex
	headers map[string][]http.Header
}

func startModernServer(t *testing.T, caps string, handle func(method string, params json.RawMessage) any) *modernServer {
	t.Helper()
	ms := &modernServer{headers: map[string][]http.Header{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20)).Decode(&req); err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		ms.mu.Lock()
		ms.headers[req.Method] = append(ms.headers[req.Method], r.Header.Clone())
		ms.mu.Unlock()
		if req.ID == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		var result any
		if req.Method == "server/discover" {
			result = map[string]any{"resultType": "complete", "ttlMs": 0, "cacheScope": "private",
				"supportedVersions": []string{"2026-07-28"}, "capabilities": json.RawMessage(caps),
				"_meta": map[string]any{"io.modelcontextprotocol/serverInfo": map[string]string{"name": "modern", "version": "1"}}}
		} else {
			result = handle(req.Method, req.Params)
		}
		out := map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result}
		if result == nil {
			out = map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": map[string]any{"code": -32601, "message": "no " + req.Method}}
			delete(out, "result")
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(out)
	}))
	t.Cleanup(srv.Close)
	ms.URL = srv.URL
	return ms
}

// requests returns the headers of every request of method so far.
func (ms *modernServer) requests(method string) []http.Header {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	return append([]http.Header(nil), ms.headers[method]...)
}

func (ms *modernServer) connect(t *testing.T) (*session.Session, func()) {
	t.Helper()
	s, _ := connectChecked(t, transport.NewStreamableHTTP(transport.HTTPOptions{URL: ms.URL}),
		session.Config{Protocol: "2026-07-28"})
	return s, func() { _ = s.Close() }
}

// customHeaderTools are tools annotated as in 2026-07-28 (one valid, one not).
const customHeaderTools = `[
 {"name":"execute_sql","inputSchema":{"type":"object","properties":{
   "region":{"type":"string","x-mcp-header":"Region"},
   "priority":{"type":"integer","x-mcp-header":"Priority"},
   "verbose":{"type":"boolean","x-mcp-header":"Verbose"},
   "greeting":{"type":"string","x-mcp-header":"Greeting"},
   "query":{"type":"string"}}}},
 {"name":"bad_number","inputSchema":{"type":"object","properties":{"score":{"type":"number","x-mcp-header":"Score"}}}}]`

func TestParamHeadersMirrored(t *testing.T) {
	ms := startModernServer(t, `{"tools":{}}`, func(method string, _ json.RawMessage) any {
		switch method {
		case "tools/list":
			return map[string]any{"resultType": "complete", "ttlMs": 0, "cacheScope": "private", "tools": json.RawMessage(customHeaderTools)}
		case "tools/call":
			return map[string]any{"resultType": "complete", "content": []any{map[string]string{"type": "text", "text": "ok"}}}
		}
		return nil
	})
	s, done := ms.connect(t)
	defer done()
	sub := s.Subscribe(0)
	// No tools/list before: the session lists tools itself to learn the annotations.
	callTool(t, s, "execute_sql", map[string]any{"region": "us-west1", "priority": 42, "verbose": nil,
		"greeting": "Hello, 世界", "query": "SELECT 1"})
	calls := ms.requests("tools/call")
	if len(ms.requests("tools/list")) != 1 || len(calls) != 1 {
		t.Fatalf("tools/list %d, tools/call %d", len(ms.requests("tools/list")), len(calls))
	}
	h := calls[0]
	want := map[string]string{"Mcp-Param-Region": "us-west1", "Mcp-Param-Priority": "42",
		"Mcp-Param-Greeting": "=?base64?SGVsbG8sIOS4lueVjA==?=", "Mcp-Name": "execute_sql", "Mcp-Method": "tools/call"}
	for k, v := range want {
		if got := h.Get(k); got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
	if _, has := h[http.CanonicalHeaderKey("Mcp-Param-Verbose")]; has {
		t.Error("a null value must omit its header")
	}
	if _, has := h["Mcp-Param-Query"]; has {
		t.Error("an unannotated parameter must not be mirrored")
	}
	// The HTTP row of the call shows the headers as sent, with the declared case.
	// The tools/list response carries the finding that says why bad_number is excluded.
	var shown http.Header
	var finding string
	evs, _ := sub.Next(testCtx(t), 0)
	for _, ev := range evs {
		if ev.Kind == session.EvHTTP && ev.HTTP.ReqHeaders.Get("Mcp-Method") == "tools/call" {
			shown = ev.HTTP.ReqHeaders
		}
		if ev.Kind == session.EvFrame && ev.Frame != nil {
			for _, f := range ev.Frame.Findings {
				if f.Code == protocol.FindToolHeader {
					finding = f.Message
				}
			}
		}
	}
	if shown["Mcp-Param-Region"] == nil {
		t.Errorf("HTTP row headers %v lack Mcp-Param-Region", shown)
	}
	if !strings.Contains(finding, `tool "bad_number" is excluded`) || !strings.Contains(finding, `type "number"`) {
		t.Errorf("tools/list finding %q", finding)
	}

	th := s.ToolHeaders("bad_number")
	if !th.Excluded || len(th.Problems) != 1 {
		t.Fatalf("bad_number: %+v", th)
	}
	_, err := s.Call(testCtx(t), "tools/call", map[string]any{"name": "bad_number", "arguments": map[string]any{"score": 1.5}})
	var ex *session.ToolExcludedError
	if !errors.As(err, &ex) || ex.Tool != "bad_number" {
		t.Fatalf("call of an invalid tool: %v", err)
	}
	if n := len(ms.requests("tools/call")); n != 1 {
		t.Fatalf("the excluded tool was sent (%d calls)", n)
	}
}
