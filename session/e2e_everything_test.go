package session_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/session/transport"
)

// everythingTransport starts (when needed) the reference server for one transport and
// returns a fresh client transport to it.
type everythingTransport struct {
	name string
	make func(t *testing.T) func() transport.Transport
}

func everythingTransports() []everythingTransport {
	return []everythingTransport{
		{"stdio", func(t *testing.T) func() transport.Transport {
			node, index := sessiontest.NodePath(t), sessiontest.Everything(t)
			return func() transport.Transport {
				return transport.NewStdio(transport.StdioOptions{Command: node, Args: []string{index, "stdio"}})
			}
		}},
		{"http", func(t *testing.T) func() transport.Transport {
			base := sessiontest.StartEverythingHTTP(t, "streamableHttp")
			return func() transport.Transport {
				return transport.NewStreamableHTTP(transport.HTTPOptions{URL: base + "/mcp"})
			}
		}},
		{"sse", func(t *testing.T) func() transport.Transport {
			base := sessiontest.StartEverythingHTTP(t, "sse")
			return func() transport.Transport { return transport.NewLegacySSE(transport.HTTPOptions{URL: base + "/sse"}) }
		}},
	}
}

const (
	cannedReply = "a canned answer from the end-to-end test"
	testRootURI = "file:///srv/mcpscope-e2e-root"
)

// TestEverything drives @modelcontextprotocol/server-everything over each transport through
// every feature it has, and checks every frame mcpscope sent against the schema of the
// negotiated revision.
func TestEverything(t *testing.T) {
	for _, tt := range everythingTransports() {
		t.Run(tt.name, func(t *testing.T) {
			newTransport := tt.make(t)
			t.Run("answering", func(t *testing.T) {
				h := &session.Headless{SamplingReply: cannedReply, Elicit: session.ElicitAcceptDefaults,
					Roots: []session.Root{{URI: testRootURI, Name: "e2e"}}}
				s, rec := connectChecked(t, newTransport(), session.Config{Protocol: "auto", Caps: session.DefaultCaps(), Responder: h})
				everythingBasics(t, s, rec, tt.name)
				everythingServerRequests(t, s, rec)
				everythingSubscribe(t, s, rec)
				everythingProgress(t, s, rec)
				everythingCancel(t, s, rec)
			})
			// On its own: the form asks for a number whose default is 3.14, and the schema's
			// ElicitResult allows only integers, so this is where a schema failure shows.
			t.Run("elicit-accept-defaults", func(t *testing.T) {
				s, rec := connectChecked(t, newTransport(), session.Config{Protocol: "2025-11-25", Caps: session.DefaultCaps(),
					Responder: &session.Headless{Elicit: session.ElicitAcceptDefaults}})
				resp, text := callTool(t, s, "trigger-elicitation-request", nil)
				if !strings.Contains(text, "User provided the requested information") || !strings.Contains(text, "Favorite Integer: 42") {
					t.Errorf("elicitation accept-defaults: %q", text)
				}
				checkServerRequestAnswered(t, rec, "elicitation/create", resp)
			})
			t.Run("declining", func(t *testing.T) {
				s, rec := connectChecked(t, newTransport(), session.Config{Protocol: "2025-11-25", Caps: session.DefaultCaps(),
					Responder: &session.Headless{Elicit: session.ElicitDecline}})
				everythingDeclines(t, s, rec)
			})
		})
	}
}

func everythingBasics(t *testing.T, s *session.Session, rec *sessiontest.Checked, transportName string) {
	ctx := testCtx(t)
	info := s.Info()
	if info.Implementation.Name != "mcp-servers/everything" {
		t.Errorf("serverInfo.name = %q, want mcp-servers/everything", info.Implementation.Name)
	}
	if info.Revision != protocol.Rev20251125 || info.Stateless {
		t.Errorf("negotiated %s (stateless %v), want 2025-11-25 with initialize", info.Revision, info.Stateless)
	}
	if info.Transport != transportName {
		t.Errorf("Info().Transport = %q, want %q", info.Transport, transportName)
	}
	if transportName == "http" && info.SessionID == "" {
		t.Errorf("Streamable HTTP: no Mcp-Session-Id was learned")
	}
	if e := rec.Poll(10*time.Second, sessiontest.Sent("notifications/initialized")); e == nil ||
		rec.Find(sessiontest.Sent("server/discover")) == nil || rec.Find(sessiontest.Sent("initialize")) == nil {
		t.Errorf("the auto handshake did not probe server/discover and fall back to initialize:\n%s", rec.Timeline())
	}

	tools, err := s.List(ctx, session.ListTools)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	mustContain(t, "tools", field(tools, "name"), "echo", "get-sum", "trigger-long-running-operation",
		"toggle-subscriber-updates", "trigger-sampling-request", "trigger-elicitation-request", "get-roots-list")
	resources, err := s.List(ctx, session.ListResources)
	if err != nil {
		t.Fatalf("resources/list: %v", err)
	}
	mustContain(t, "resources", field(resources, "uri"), "demo://resource/static/document/features.md")
	checkPagination(t, rec, "resources/list", "resources", resources, 1)
	templates, err := s.List(ctx, session.ListTemplates)
	if err != nil {
		t.Fatalf("resources/templates/list: %v", err)
	}
	mustContain(t, "templates", field(templates, "uriTemplate"), "demo://resource/dynamic/text/{resourceId}")
	prompts, err := s.List(ctx, session.ListPrompts)
	if err != nil {
		t.Fatalf("prompts/list: %v", err)
	}
	mustContain(t, "prompts", field(prompts, "name"), "simple-prompt", "args-prompt", "completable-prompt")
	if cached, ok := s.Cached(session.ListPrompts); !ok || len(cached) != len(prompts) {
		t.Errorf("Cached(prompts) = %d items (%v), want %d", len(cached), ok, len(prompts))
	}

	if _, text := callTool(t, s, "echo", map[string]any{"message": "hello from mcpscope"}); !strings.Contains(text, "Echo: hello from mcpscope") {
		t.Errorf("echo answered %q", text)
	}
	resp, text := callTool(t, s, "get-sum", map[string]any{"a": 1, "b": 2})
	if !strings.Contains(text, "3") || isError(resp.Result) {
		t.Errorf("get-sum 1+2 answered %q", text)
	}
	if resp.Event.Corr.RequestSeq != resp.Request.Seq || resp.Event.Corr.Method != "tools/call" || resp.Latency <= 0 {
		t.Errorf("response correlation %+v, request seq %d", resp.Event.Corr, resp.Request.Seq)
	}

	read, err := s.Call(ctx, "resources/read", map[string]string{"uri": "demo://resource/static/document/features.md"})
	if err != nil {
		t.Fatalf("resources/read: %v", err)
	}
	if text := contentText(t, read.Result); len(text) < 20 {
		t.Errorf("resources/read gave %q", text)
	}
	read, err = s.Call(ctx, "resources/read", map[string]string{"uri": "demo://resource/dynamic/text/7"})
	if err != nil {
		t.Fatalf("resources/read template: %v", err)
	}
	if text := contentText(t, read.Result); !strings.Contains(text, "Resource 7") {
		t.Errorf("resources/read of a template URI gave %q", text)
	}

	prompt, err := s.Call(ctx, "prompts/get", map[string]any{"name": "args-prompt", "arguments": map[string]string{"city": "Lyon", "state": "Rhône"}})
	if err != nil {
		t.Fatalf("prompts/get: %v", err)
	}
	if text := contentText(t, prompt.Result); !strings.Contains(text, "Lyon, Rhône") {
		t.Errorf("prompts/get args-prompt gave %q", text)
	}

	values, err := s.Complete(ctx, map[string]string{"type": "ref/prompt", "name": "completable-prompt"}, "department", "Eng", nil)
	if err != nil || len(values) != 1 || values[0] != "Engineering" {
		t.Errorf("complete department=Eng: %q, %v", values, err)
	}
	values, err = s.Complete(ctx, map[string]string{"type": "ref/prompt", "name": "completable-prompt"}, "name", "",
		map[string]string{"department": "Sales"})
	if err != nil || strings.Join(values, ",") != "David,Eve,Frank" {
		t.Errorf("complete name with department=Sales: %q, %v", values, err)
	}
	values, err = s.Complete(ctx, map[string]string{"type": "ref/resource", "uri": "demo://resource/dynamic/text/{resourceId}"}, "resourceId", "12", nil)
	if err != nil || len(values) != 1 || values[0] != "12" {
		t.Errorf("complete resourceId=12: %q, %v", values, err)
	}

	if rtt, err := s.Ping(ctx); err != nil || rtt <= 0 {
		t.Errorf("ping: %v, %v", rtt, err)
	}
}

// everythingServerRequests covers sampling, elicitation and roots answered by Headless.
func everythingServerRequests(t *testing.T, s *session.Session, rec *sessiontest.Checked) {
	resp, text := callTool(t, s, "trigger-sampling-request", map[string]any{"prompt": "Say hi", "maxTokens": 20})
	if !strings.Contains(text, cannedReply) {
		t.Errorf("sampling: the tool's result lacks the canned reply: %q", text)
	}
	checkServerRequestAnswered(t, rec, "sampling/createMessage", resp)

	resp, text = callTool(t, s, "get-roots-list", nil)
	if !strings.Contains(text, testRootURI) {
		t.Errorf("roots: the tool did not see our root: %q", text)
	}
	// The server asked before it answered: the recorder has it once it has the answer.
	rec.Reached(t, resp.Event.Seq)
	if rec.Find(sessiontest.Received("roots/list")) == nil {
		t.Errorf("the server never asked roots/list")
	}
}

// checkServerRequestAnswered finds the server's request of method made while resp's request
// ran, and mcpscope's result paired with it.
func checkServerRequestAnswered(t *testing.T, rec *sessiontest.Checked, method string, resp *session.Response) {
	t.Helper()
	rec.Reached(t, resp.Event.Seq)
	var req *session.Event
	for _, e := range rec.FindAll(sessiontest.Received(method)) {
		if e.Seq > resp.Request.Seq && e.Seq < resp.Event.Seq {
			req = e
		}
	}
	if req == nil {
		t.Errorf("no %s request from the server while the tool ran:\n%s", method, rec.Timeline())
		return
	}
	answer := rec.Find(func(e *session.Event) bool {
		return sessiontest.Sent("")(e) && e.Frame.Kind.IsResponse() && e.Corr.RequestSeq == req.Seq
	})
	if answer == nil {
		t.Errorf("mcpscope did not answer the server's %s", method)
		return
	}
	if answer.Frame.Kind != protocol.KindResult || answer.Frame.ID.Key() != req.Frame.ID.Key() {
		t.Errorf("answer to %s: %s", method, answer.Frame.Raw)
	}
}

// everythingSubscribe subscribes to a resource and turns on the server's simulated updates.
func everythingSubscribe(t *testing.T, s *session.Session, rec *sessiontest.Checked) {
	const uri = "demo://resource/static/document/architecture.md"
	ctx := testCtx(t)
	if err := s.SubscribeResource(ctx, uri); err != nil {
		t.Fatalf("resources/subscribe: %v", err)
	}
	callTool(t, s, "toggle-subscriber-updates", nil)
	rec.WaitFor(t, 20*time.Second, "notifications/resources/updated for "+uri, func(e *session.Event) bool {
		if !sessiontest.Received("notifications/resources/updated")(e) {
			return false
		}
		var p struct {
			URI string `json:"uri"`
		}
		return json.Unmarshal(e.Frame.Params, &p) == nil && p.URI == uri
	})
	callTool(t, s, "toggle-subscriber-updates", nil) // stop the updates
	if err := s.UnsubscribeResource(ctx, uri); err != nil {
		t.Errorf("resources/unsubscribe: %v", err)
	}
}

// everythingProgress runs a long operation with a progress token and checks every progress
// notification is tied to its request.
func everythingProgress(t *testing.T, s *session.Session, rec *sessiontest.Checked) {
	resp, text := callTool(t, s, "trigger-long-running-operation", map[string]any{"duration": 0.6, "steps": 3}, session.WithProgress())
	if !strings.Contains(text, "Long running operation completed") {
		t.Errorf("long running operation: %q", text)
	}
	var token struct {
		Meta struct {
			Token json.RawMessage `json:"progressToken"`
		} `json:"_meta"`
	}
	if err := json.Unmarshal(resp.Request.Frame.Params, &token); err != nil || len(token.Meta.Token) == 0 {
		t.Fatalf("the request carries no progressToken: %s", resp.Request.Frame.Raw)
	}
	rec.Reached(t, resp.Event.Seq)
	progress := rec.FindAll(func(e *session.Event) bool {
		return sessiontest.Received("notifications/progress")(e) && e.Seq > resp.Request.Seq && e.Seq < resp.Event.Seq
	})
	if len(progress) != 3 {
		t.Fatalf("%d progress notifications before the response, want 3:\n%s", len(progress), rec.Timeline())
	}
	for i, e := range progress {
		p := e.Corr.Progress
		if e.Corr.RequestSeq != resp.Request.Seq || p == nil || p.Progress != float64(i+1) || p.Total != 3 {
			t.Errorf("progress %d: corr %+v progress %+v, want request seq %d, %d/3", i, e.Corr, p, resp.Request.Seq, i+1)
		}
	}
}

// everythingCancel cancels a call mid-flight: the caller gets context.Canceled,
// notifications/cancelled names the request, a response arriving later is flagged late, and
// the session goes on working.
func everythingCancel(t *testing.T, s *session.Session, rec *sessiontest.Checked) {
	ctx, cancel := context.WithCancel(testCtx(t))
	defer cancel()
	type result struct {
		resp *session.Response
		err  error
	}
	done := make(chan result, 1)
	const steps = 4
	go func() {
		resp, err := s.Call(ctx, "tools/call", map[string]any{"name": "trigger-long-running-operation",
			"arguments": map[string]any{"duration": 2, "steps": steps}}, session.WithProgress())
		done <- result{resp, err}
	}()
	sent := rec.WaitFor(t, 20*time.Second, "the long-running tools/call", func(e *session.Event) bool {
		return sessiontest.Sent("tools/call")(e) && strings.Contains(string(e.Frame.Params), `"duration":2`)
	})
	rec.WaitFor(t, 20*time.Second, "a first progress notification", func(e *session.Event) bool {
		return sessiontest.Received("notifications/progress")(e) && e.Corr.RequestSeq == sent.Seq
	})
	cancel()
	var r result
	select {
	case r = <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("Call did not return within 10s of its context ending")
	}
	if !errors.Is(r.err, context.Canceled) {
		t.Fatalf("cancelled call returned %v", r.err)
	}
	// The handshake may have cancelled a request of its own before (the discover probe of a
	// server slow to start, on a loaded machine): the notification wanted is the one that
	// names the call.
	names := func(e *session.Event) string {
		var p struct {
			RequestID json.RawMessage `json:"requestId"`
		}
		_ = json.Unmarshal(e.Frame.Params, &p)
		return string(p.RequestID)
	}
	rec.WaitFor(t, 10*time.Second, "notifications/cancelled naming "+sent.Frame.ID.String(), func(e *session.Event) bool {
		return sessiontest.Sent("notifications/cancelled")(e) && names(e) == sent.Frame.ID.String()
	})
	if s.InFlight() != 0 {
		t.Errorf("%d requests still pending after the cancel", s.InFlight())
	}
	// The server finishes the operation anyway (its last progress report says so); any
	// response it then sends must be flagged late.
	rec.Poll(5*time.Second, func(e *session.Event) bool {
		return sessiontest.Received("notifications/progress")(e) && strings.Contains(string(e.Frame.Params), `"progress":4`)
	})
	if _, err := s.Ping(testCtx(t)); err != nil {
		t.Fatalf("the session does not work after a cancel: %v", err)
	}
	for _, e := range rec.FindAll(sessiontest.Received("")) {
		if e.Frame.Kind.IsResponse() && e.Frame.ID.Key() == sent.Frame.ID.Key() && !sessiontest.HasFinding(protocol.FindLateResponse)(e) {
			t.Errorf("a response to the cancelled request is not flagged late: %s", e.Summary())
		}
	}
}

// everythingDeclines checks what a server sees when mcpscope declines its requests.
func everythingDeclines(t *testing.T, s *session.Session, rec *sessiontest.Checked) {
	resp, text := callTool(t, s, "trigger-sampling-request", map[string]any{"prompt": "Say hi"})
	if !isError(resp.Result) || !strings.Contains(text, "sampling declined") {
		t.Errorf("declined sampling: want a tool error carrying our refusal, got %s", resp.Result)
	}
	rec.Reached(t, resp.Event.Seq)
	var req *session.Event
	for _, e := range rec.FindAll(sessiontest.Received("sampling/createMessage")) {
		req = e
	}
	if req == nil {
		t.Fatalf("the server never asked for sampling")
	}
	answer := rec.Find(func(e *session.Event) bool {
		return sessiontest.Sent("")(e) && e.Frame.Kind == protocol.KindError && e.Corr.RequestSeq == req.Seq
	})
	if answer == nil {
		t.Errorf("mcpscope did not send an error response to the declined sampling request:\n%s", rec.Timeline())
	}

	_, text = callTool(t, s, "trigger-elicitation-request", nil)
	if !strings.Contains(text, "declined") {
		t.Errorf("declined elicitation: %q", text)
	}
	checkNoFindings(t, rec)
}

// checkNoFindings fails on any finding on a frame of a well-behaved server's session.
func checkNoFindings(t *testing.T, rec *sessiontest.Checked) {
	t.Helper()
	for _, e := range rec.Events() {
		if e.Kind == session.EvFrame && len(session.AllFindings(e.Frame)) > 0 {
			t.Errorf("unexpected finding: %s", e.Summary())
		}
	}
}
