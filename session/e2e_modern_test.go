package session_test

import (
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
}
