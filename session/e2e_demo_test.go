package session_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/demo"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/session/transport"
)

// demoTransports are the ways to reach the built-in demo server: `mcpscope demo` spawned
// over stdio, and its HTTP handler over Streamable HTTP.
func demoTransports(t *testing.T) []struct {
	name string
	make func() transport.Transport
} {
	bin := sessiontest.BuildMCPScope(t)
	streamable, _ := sessiontest.StartDemoHTTP(t)
	return []struct {
		name string
		make func() transport.Transport
	}{
		{"stdio", func() transport.Transport {
			return transport.NewStdio(transport.StdioOptions{Command: bin, Args: []string{"demo"}})
		}},
		{"http", func() transport.Transport { return transport.NewStreamableHTTP(transport.HTTPOptions{URL: streamable}) }},
	}
}

// TestDemoEras connects to the demo server in each era and checks the handshake each one
// implies, the per-request _meta of the stateless era, pagination and a plain call.
func TestDemoEras(t *testing.T) {
	eras := []struct {
		protocol  string
		stateless bool
		rev       protocol.Revision
	}{
		{"2026-07-28", true, protocol.Rev20260728},
		{"2025-11-25", false, protocol.Rev20251125},
		{"auto", true, protocol.Rev20260728},
	}
	for _, tr := range demoTransports(t) {
		for _, era := range eras {
			t.Run(tr.name+"/"+era.protocol, func(t *testing.T) {
				s, rec := connectChecked(t, tr.make(), session.Config{Protocol: era.protocol, Caps: session.DefaultCaps(),
					Responder: &session.Headless{Roots: []session.Root{{URI: testRootURI, Name: "e2e"}}}})
				info := s.Info()
				if info.Stateless != era.stateless || info.Revision != era.rev {
					t.Fatalf("Info: stateless %v revision %s, want %v %s", info.Stateless, info.Revision, era.stateless, era.rev)
				}
				if info.Implementation.Name != demo.DefaultName {
					t.Errorf("server name %q, want %q", info.Implementation.Name, demo.DefaultName)
				}
				resp, text := callTool(t, s, "echo", map[string]any{"text": "two\nlines"})
				if !strings.Contains(text, "two\nlines") {
					t.Errorf("echo: %q", text)
				}
				rec.Reached(t, resp.Event.Seq)
				initialize := rec.Find(sessiontest.Sent("initialize"))
				discover := rec.Find(sessiontest.Sent("server/discover"))
				if era.stateless {
					if initialize != nil || discover == nil {
						t.Errorf("stateless era: initialize sent %v, server/discover sent %v", initialize != nil, discover != nil)
					}
					checkMeta(t, resp.Request.Frame, string(era.rev))
				} else {
					if initialize == nil || rec.Find(sessiontest.Sent("notifications/initialized")) == nil {
						t.Errorf("stateful era without the initialize handshake:\n%s", rec.Timeline())
					}
					if strings.Contains(string(resp.Request.Frame.Raw), "io.modelcontextprotocol/protocolVersion") {
						t.Errorf("stateful era request carries the stateless _meta: %s", resp.Request.Frame.Raw)
					}
				}
				resources, err := s.List(testCtx(t), session.ListResources)
				if err != nil {
					t.Fatalf("resources/list: %v", err)
				}
				if len(resources) < 30 {
					t.Errorf("resources/list gave %d items, want the demo's 30", len(resources))
				}
				checkPagination(t, rec, "resources/list", "resources", resources, 3)
				// A chain with no elicitation in it: list_roots asks for the client's roots.
				resp, text = callTool(t, s, "list_roots", nil)
				if !strings.Contains(text, testRootURI) {
					t.Errorf("list_roots: %q", text)
				}
				checkInputChain(t, rec, resp, era.stateless, "roots/list")
				checkNoFindings(t, rec)
			})
		}
	}
}

// TestDemoElicitChain answers the demo's ask_user form with Headless accept-defaults, in the
// stateless era (an input_required result, then a retry carrying inputResponses and the
// requestState) and the stateful one (an elicitation/create request on the session).
func TestDemoElicitChain(t *testing.T) {
	for _, tr := range demoTransports(t) {
		for _, p := range []string{"2026-07-28", "2025-11-25"} {
			t.Run(tr.name+"/"+p, func(t *testing.T) {
				s, rec := connectChecked(t, tr.make(), session.Config{Protocol: p, Caps: session.DefaultCaps(),
					Responder: &session.Headless{Elicit: session.ElicitAcceptDefaults}})
				resp, text := callTool(t, s, "ask_user", nil)
				stateless := s.Info().Stateless
				checkInputChain(t, rec, resp, stateless, "elicitation/create")
				if isError(resp.Result) || !strings.Contains(text, "You answered") {
					t.Errorf("ask_user answered with defaults: want the demo's thanks, got %s", resp.Result)
				}
			})
		}
	}
}

// checkInputChain checks how a tool that needs client input ran. Stateless: the response's
// Chain holds the first request and its retry, the retry's ChainSeq is the first request's
// Seq, the first answer was input_required, and the retry carried inputResponses and the
// exact requestState. Stateful: the server asked with a request of method during the call,
// and mcpscope answered it.
func checkInputChain(t *testing.T, rec *sessiontest.Checked, resp *session.Response, stateless bool, method string) {
	t.Helper()
	rec.Reached(t, resp.Event.Seq)
	if !stateless {
		checkServerRequestAnswered(t, rec, method, resp)
		if len(resp.Chain) > 1 {
			t.Errorf("stateful era: a chain of %d requests", len(resp.Chain))
		}
		return
	}
	if len(resp.Chain) < 2 {
		t.Fatalf("input_required chain has %d request(s), want 2 or more:\n%s", len(resp.Chain), rec.Timeline())
	}
	first := resp.Chain[0]
	if first.Corr.ChainSeq != 0 {
		t.Errorf("the first request has ChainSeq %d", first.Corr.ChainSeq)
	}
	for i, e := range resp.Chain[1:] {
		if e.Corr.ChainSeq != first.Seq {
			t.Errorf("retry %d has ChainSeq %d, want %d", i+1, e.Corr.ChainSeq, first.Seq)
		}
		if e.Frame.ID.Key() == first.Frame.ID.Key() {
			t.Errorf("retry %d reuses the id %s", i+1, first.Frame.ID)
		}
	}
	if resp.Request != resp.Chain[len(resp.Chain)-1] {
		t.Errorf("Response.Request is not the last request of the chain")
	}
	answer := rec.Find(func(e *session.Event) bool {
		return sessiontest.Received("")(e) && e.Corr.RequestSeq == first.Seq
	})
	if answer == nil || protocol.ResultType(answer.Frame) != "input_required" {
		t.Fatalf("the first request was not answered input_required:\n%s", rec.Timeline())
	}
	var asked struct {
		InputRequests map[string]struct {
			Method string `json:"method"`
		} `json:"inputRequests"`
		RequestState string `json:"requestState"`
	}
	var retried struct {
		InputResponses map[string]json.RawMessage `json:"inputResponses"`
		RequestState   string                     `json:"requestState"`
	}
	_ = json.Unmarshal(answer.Frame.Result, &asked)
	_ = json.Unmarshal(resp.Chain[1].Frame.Params, &retried)
	for key, in := range asked.InputRequests {
		if in.Method != method {
			t.Errorf("input request %q is %s, want %s", key, in.Method, method)
		}
		if _, ok := retried.InputResponses[key]; !ok {
			t.Errorf("the retry does not answer input request %q: %s", key, resp.Chain[1].Frame.Raw)
		}
	}
	if asked.RequestState == "" || retried.RequestState != asked.RequestState {
		t.Errorf("requestState %q was retried as %q", asked.RequestState, retried.RequestState)
	}
	if protocol.ResultType(resp.Event.Frame) != "complete" {
		t.Errorf("the chain ended with resultType %q", protocol.ResultType(resp.Event.Frame))
	}
}

// checkMeta checks a stateless-era request carries the per-request _meta.
func checkMeta(t *testing.T, f *protocol.Frame, rev string) {
	t.Helper()
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if err := json.Unmarshal(f.Params, &p); err != nil {
		t.Fatalf("request params: %v: %s", err, f.Raw)
	}
	var version string
	_ = json.Unmarshal(p.Meta["io.modelcontextprotocol/protocolVersion"], &version)
	if version != rev {
		t.Errorf("_meta protocolVersion %q, want %q: %s", version, rev, f.Raw)
	}
	for _, k := range []string{"io.modelcontextprotocol/clientCapabilities", "io.modelcontextprotocol/clientInfo"} {
		if len(p.Meta[k]) == 0 {
			t.Errorf("_meta lacks %s: %s", k, f.Raw)
		}
	}
}

// TestDemoLegacySSE speaks the oldest revision to the demo's HTTP+SSE endpoint, so frames of
// 2024-11-05 are schema-checked too.
func TestDemoLegacySSE(t *testing.T) {
	_, sse := sessiontest.StartDemoHTTP(t)
	s, rec := connectChecked(t, transport.NewLegacySSE(transport.HTTPOptions{URL: sse}),
		session.Config{Protocol: "2024-11-05", Caps: session.DefaultCaps()})
	if info := s.Info(); info.Revision != protocol.Rev20241105 || info.Stateless || info.Transport != "sse" {
		t.Fatalf("Info: %+v", info)
	}
	tools, err := s.List(testCtx(t), session.ListTools)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	mustContain(t, "tools", field(tools, "name"), "echo", "add", "fail")
	checkPagination(t, rec, "tools/list", "tools", tools, 2)
	if _, text := callTool(t, s, "add", map[string]any{"a": 2, "b": 40}); !strings.Contains(text, "42") {
		t.Errorf("add 2+40: %q", text)
	}
	if _, err := s.Ping(testCtx(t)); err != nil {
		t.Errorf("ping: %v", err)
	}
	checkNoFindings(t, rec)
}

// TestHeadlessAcceptDefaultsIsValid pins what Headless accept-defaults answers to a form
// like the demo's ask_user: the answer must satisfy the form's requestedSchema (name is
// required with minLength 1) and the revision's ElicitResult schema (whose content values
// are strings, integers, booleans or string arrays: 7.5 is not one).
func TestHeadlessAcceptDefaultsIsValid(t *testing.T) {
	params := json.RawMessage(`{"mode":"form","message":"About you","requestedSchema":{"type":"object",
		"properties":{"name":{"type":"string","minLength":1},"rating":{"type":"number","default":7.5},"age":{"type":"integer","minimum":18}},
		"required":["name","age"]}}`)
	h := &session.Headless{Elicit: session.ElicitAcceptDefaults}
	result, rerr := h.Respond(testCtx(t), &session.ServerRequest{Method: "elicitation/create", Params: params, Revision: protocol.Rev20251125})
	if rerr != nil {
		t.Fatalf("Respond: %v", rerr)
	}
	frame, _ := protocol.EncodeResult(protocol.IntID(1), result)
	if err := sessiontest.Schemas(t).CheckSent("2025-11-25", "elicitation/create", frame); err != nil {
		t.Errorf("the answer is not a valid ElicitResult: %v", err)
	}
	var answer struct {
		Content struct {
			Name string  `json:"name"`
			Age  float64 `json:"age"`
		} `json:"content"`
	}
	if err := json.Unmarshal(result, &answer); err != nil {
		t.Fatalf("answer: %v: %s", err, result)
	}
	if len(answer.Content.Name) < 1 || answer.Content.Age < 18 {
		t.Errorf("the answer breaks the requested schema (name minLength 1, age minimum 18): %s", result)
	}
}
