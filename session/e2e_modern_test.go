package session_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/session/transport"
)

// modernServer adds a connect helper to sessiontest.ModernServer.
type modernServer struct{ *sessiontest.ModernServer }

func (ms modernServer) requests(method string) []http.Header { return ms.Requests(method) }

func (ms modernServer) connect(t *testing.T) (*session.Session, func()) {
	t.Helper()
	s, _ := connectChecked(t, transport.NewStreamableHTTP(transport.HTTPOptions{URL: ms.URL}),
		session.Config{Protocol: "2026-07-28"})
	return s, func() { _ = s.Close() }
}

func TestParamHeadersMirrored(t *testing.T) {
	ms := modernServer{sessiontest.StartHeaderToolsServer(t)}
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
	// Exact sends what the user wrote: the composer and rpc can still call it.
	meta := map[string]any{"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": map[string]any{},
		"io.modelcontextprotocol/clientInfo": map[string]string{"name": "t", "version": "1"}}
	if _, err := s.Call(testCtx(t), "tools/call", map[string]any{"name": "bad_number", "arguments": map[string]any{"score": 1.5}, "_meta": meta},
		session.Exact()); err != nil || len(ms.requests("tools/call")) != 2 {
		t.Fatalf("exact call of an excluded tool: %v", err)
	}
}

// A HeaderMismatch answer to tools/call refreshes the tools list (the annotations may have
// changed) and is returned to the caller: nothing is retried.
func TestHeaderMismatchRefreshesTools(t *testing.T) {
	ms := modernServer{sessiontest.StartModernServer(t, `{"tools":{}}`, func(method string, _ json.RawMessage) any {
		switch method {
		case "tools/list":
			return map[string]any{"resultType": "complete", "ttlMs": 0, "cacheScope": "private", "tools": json.RawMessage(sessiontest.HeaderTools)}
		case "tools/call":
			return sessiontest.RPCError{Code: -32020, Message: "Header mismatch: Mcp-Param-Region missing", Status: http.StatusBadRequest}
		}
		return nil
	})}
	s, done := ms.connect(t)
	defer done()
	sub := s.Subscribe(0)
	_, err := s.Call(testCtx(t), "tools/call", map[string]any{"name": "execute_sql", "arguments": map[string]any{"region": "eu"}})
	var rpc *session.RPCError
	if !errors.As(err, &rpc) || rpc.Code != -32020 {
		t.Fatalf("call: %v", err)
	}
	for refreshed := false; !refreshed; {
		evs, ok := sub.Next(testCtx(t), 0)
		if !ok {
			t.Fatal("no tools list refresh after HeaderMismatch")
		}
		for _, ev := range evs {
			refreshed = refreshed || ev.Kind == session.EvLists && ev.Note == string(session.ListTools)
		}
	}
	if n, calls := len(ms.requests("tools/list")), len(ms.requests("tools/call")); n != 2 || calls != 1 {
		t.Fatalf("tools/list %d times, tools/call %d times", n, calls)
	}
}
