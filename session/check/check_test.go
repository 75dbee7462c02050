package check_test

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/check"
	"github.com/mcpscope/mcpscope/session/sessiontest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	sessiontest.Cleanup()
	os.Exit(code)
}

// patient are latency thresholds a busy test machine stays under: the tests are about
// what a server says, not how fast.
var patient = map[string]time.Duration{"": 10 * time.Second, "startup": 30 * time.Second}

// sessions makes the sessions of a check on the server sp reaches.
func sessions(t *testing.T, sp session.ServerSpec) check.NewSession {
	return func(proto string) (*session.Session, func(), error) {
		tr, err := sp.NewTransport()
		if err != nil {
			return nil, nil, err
		}
		s := session.New(session.Config{Transport: tr, Protocol: proto, RequestTimeout: 20 * time.Second})
		return s, func() { _ = s.Close() }, nil
	}
}

func runCheck(t *testing.T, sp session.ServerSpec, o check.Options) *check.Report {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	rep, err := check.Check(ctx, sessions(t, sp), o)
	if err != nil {
		t.Fatalf("check: %v", err)
	}
	return rep
}

// codes lists the findings' codes at or above sev, "code: message" for the failure text.
func findings(rep *check.Report, atLeast protocol.Severity) (codes []string, text string) {
	var b strings.Builder
	for _, run := range rep.Runs {
		for _, it := range run.Items {
			if check.Rank(it.Severity) >= check.Rank(atLeast) {
				codes = append(codes, it.Code)
				b.WriteString("\n  " + string(run.Revision) + " " + it.Code + ": " + it.Message)
			}
		}
	}
	return codes, b.String()
}

// TestCheckDemoClean checks the demo server in both eras, over stdio and Streamable HTTP:
// no warning and no error, every list fetched, the read-only tools called, the slow tool
// cancelled while running and the server still answering afterwards.
func TestCheckDemoClean(t *testing.T) {
	bin := sessiontest.BuildMCPScope(t)
	streamable, _ := sessiontest.StartDemoHTTP(t)
	for _, tc := range []struct {
		name string
		sp   session.ServerSpec
	}{
		{"stdio", session.ServerSpec{Command: []string{bin, "demo"}}},
		{"http", session.ServerSpec{URL: streamable, Transport: "http"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := runCheck(t, tc.sp, check.Options{AllEras: true, Read: 3, CallWait: 300 * time.Millisecond, Slow: patient})
			if codes, text := findings(rep, protocol.SevWarning); len(codes) > 0 {
				t.Errorf("the demo server has %d findings:%s", len(codes), text)
			}
			if len(rep.Runs) != 2 || !rep.Runs[0].Stateless || rep.Runs[1].Revision != protocol.Rev20251125 {
				t.Fatalf("want a 2026-07-28 run and a 2025-11-25 run, got %d runs", len(rep.Runs))
			}
			for _, run := range rep.Runs {
				d := run.Definitions
				if len(d.Tools) < 10 || len(d.Resources) != 31 || len(d.Prompts) == 0 || len(d.Templates) == 0 || d.ServerInfo.Name != "mcpscope-demo" {
					t.Errorf("%s: definitions: %d tools, %d resources, %d prompts, %d templates, server %q",
						run.Revision, len(d.Tools), len(d.Resources), len(d.Prompts), len(d.Templates), d.ServerInfo.Name)
				}
				if !slices.Contains(run.Calls, "echo") || slices.Contains(run.Calls, "create_ticket") || slices.Contains(run.Calls, "view_dice_reroll") {
					t.Errorf("%s: calls %v: want the read-only tools (echo), not the others (create_ticket) nor the app-only view_dice_reroll",
						run.Revision, run.Calls)
				}
				if !slices.ContainsFunc(run.Notes, func(n string) bool { return strings.Contains(n, "slow was still running") }) {
					t.Errorf("%s: the slow tool was not cancelled while running; notes: %q", run.Revision, run.Notes)
				}
				if len(run.Timing) == 0 {
					t.Errorf("%s: no timing", run.Revision)
				}
			}
		})
	}
}

// TestCheckDemoOlderRevisions: the demo has no finding at the older revisions either, where
// its tools that need newer features answer with a tool error instead of sending them.
func TestCheckDemoOlderRevisions(t *testing.T) {
	bin := sessiontest.BuildMCPScope(t)
	for _, rev := range []string{"2024-11-05", "2025-03-26", "2025-06-18"} {
		rep := runCheck(t, session.ServerSpec{Command: []string{bin, "demo"}},
			check.Options{Protocol: rev, Read: 2, CallWait: 300 * time.Millisecond, Slow: patient})
		if codes, text := findings(rep, protocol.SevInfo); len(codes) > 0 || string(rep.Runs[0].Revision) != rev {
			t.Errorf("%s: %s run with %d findings:%s", rev, rep.Runs[0].Revision, len(codes), text)
		}
	}
}

// TestCheckBadServer checks the misbehaving fixture, calling its broken tools by name: the
// banner and garbage on stdout, a duplicate response, an unknown id, a response with both
// result and error, bytes that are not UTF-8 and a call that never ends (cancelled, then
// ping still answered).
func TestCheckBadServer(t *testing.T) {
	bad := sessiontest.BuildBadServer(t)
	var calls []check.ToolCall
	for _, name := range []string{"notjson", "duplicate", "unknownid", "resulterror", "badutf8", "stall"} {
		calls = append(calls, check.ToolCall{Name: name})
	}
	rep := runCheck(t, session.ServerSpec{Command: []string{bad, "-banner"}},
		check.Options{Calls: calls, CallWait: 200 * time.Millisecond, Slow: map[string]time.Duration{"startup": time.Nanosecond, "tools/call": time.Nanosecond},
			StrictTiming: true})
	codes, text := findings(rep, protocol.SevWarning)
	for _, want := range []string{protocol.FindNotJSON, protocol.FindDuplicateResponse, protocol.FindUnknownID,
		protocol.FindResultAndError, protocol.FindInvalidUTF8, protocol.FindStartup, protocol.FindSlow} {
		if !slices.Contains(codes, want) {
			t.Errorf("no %s finding; findings:%s", want, text)
		}
	}
	run := rep.Runs[0]
	for _, it := range run.Items {
		if it.Code == protocol.FindNotJSON && (len(it.Frames) == 0 || it.Spec.Page != "basic/transports" || it.Excerpt == "") {
			t.Errorf("%s lacks its frames, excerpt or spec section: %+v", it.Code, it)
		}
	}
	if !slices.ContainsFunc(run.Notes, func(n string) bool { return strings.Contains(n, "stall was still running") }) {
		t.Errorf("the stalled call was not cancelled; notes %q", run.Notes)
	}
	if slices.Contains(codes, protocol.FindAfterCancel) {
		t.Errorf("ping after the cancellation was not answered:%s", text)
	}
}

// TestCheckEverything checks the reference server, whose findings README lists: an unknown
// tool answered with a tool error, resources/read without uri answered -32603, and a
// missing resource answered -32602 in 2025-11-25.
func TestCheckEverything(t *testing.T) {
	index := sessiontest.Everything(t)
	rep := runCheck(t, session.ServerSpec{Command: []string{sessiontest.NodePath(t), index}},
		check.Options{Read: 3, CallWait: 500 * time.Millisecond, Slow: patient})
	var got []string
	for _, it := range rep.Runs[0].Items {
		if check.Rank(it.Severity) >= 1 {
			got = append(got, it.Code+": "+it.Message)
		}
	}
	want := []string{
		"mcp.error-code: an unknown tool was answered with a tool error (isError)",
		"mcp.error-code: resources/read without uri was answered with error -32603",
		"mcp.error-code: a resource that does not exist was answered with error -32602",
	}
	for _, w := range want {
		if !slices.ContainsFunc(got, func(g string) bool { return strings.HasPrefix(g, w) }) {
			t.Errorf("no finding %q; findings:\n  %s", w, strings.Join(got, "\n  "))
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d findings, want %d (README lists them):\n  %s", len(got), len(want), strings.Join(got, "\n  "))
	}
}

// TestCheckModernRules checks a 2026-07-28 server that breaks the rules about definitions
// and answers: a tool name outside the naming rules, an inputSchema that is not JSON Schema,
// a cursor that repeats, a tool on two pages, structuredContent that does not match the
// outputSchema, an unknown tool answered with a tool error and a missing resource answered
// with empty contents.
func TestCheckModernRules(t *testing.T) {
	tool := func(name string, extra map[string]any) map[string]any {
		t := map[string]any{"name": name, "description": "d", "inputSchema": map[string]any{"type": "object"},
			"annotations": map[string]any{"readOnlyHint": true}}
		for k, v := range extra {
			t[k] = v
		}
		return t
	}
	done := func(m map[string]any) map[string]any { m["resultType"] = "complete"; return m }
	ms := sessiontest.StartModernServer(t, `{"tools":{},"resources":{}}`, func(method string, params json.RawMessage) any {
		var p struct {
			Cursor string `json:"cursor"`
			Name   string `json:"name"`
			URI    string `json:"uri"`
		}
		_ = json.Unmarshal(params, &p)
		switch method {
		case "tools/list":
			if p.Cursor == "" {
				return done(map[string]any{"nextCursor": "p2", "tools": []any{
					tool("weather", map[string]any{"outputSchema": map[string]any{"type": "object",
						"properties": map[string]any{"t": map[string]any{"type": "number"}}, "required": []string{"t"}}}),
					tool("bad name!", map[string]any{"inputSchema": map[string]any{"type": "object",
						"properties": map[string]any{"a": map[string]any{"type": "nope"}}}}),
					tool("dup", nil)}})
			}
			return done(map[string]any{"nextCursor": "p2", "tools": []any{tool("dup", nil)}})
		case "tools/call":
			if p.Name == "weather" {
				return done(map[string]any{"content": []any{}, "structuredContent": map[string]any{"t": "hot"}})
			}
			return done(map[string]any{"content": []any{map[string]any{"type": "text", "text": "no such tool"}}, "isError": true})
		case "resources/list":
			return done(map[string]any{"resources": []any{map[string]any{"uri": "a://x", "name": "x"}}})
		case "resources/templates/list":
			return done(map[string]any{"resourceTemplates": []any{}})
		case "resources/read":
			if p.URI == "" {
				return sessiontest.RPCError{Code: -32602, Message: "uri is required"}
			}
			if p.URI == "a://x" {
				return done(map[string]any{"contents": []any{map[string]any{"uri": "a://x", "text": "x"}}})
			}
			return done(map[string]any{"contents": []any{}})
		}
		return nil
	})
	rep := runCheck(t, session.ServerSpec{URL: ms.URL, Transport: "http"}, check.Options{Read: 5, CallWait: time.Second, Slow: patient})
	if !rep.Runs[0].Stateless {
		t.Fatalf("the server was not checked at 2026-07-28: %+v", rep.Runs[0])
	}
	var got []string
	for _, it := range rep.Runs[0].Items {
		got = append(got, it.Severity.String()+" "+it.Code+": "+it.Message)
	}
	for _, want := range []string{
		`warning mcp.tool-name: tool "bad name!"`,
		`error mcp.tool-schema: tool "bad name!": inputSchema is not a valid JSON Schema`,
		`warning mcp.pagination: tools/list repeats cursor "p2"`,
		`warning mcp.pagination: tools/list lists name "dup" on two pages`,
		`error mcp.structured-content: tool "weather": structuredContent does not match`,
		`warning mcp.error-code: an unknown tool was answered with a tool error`,
		`error mcp.error-code: a resource that does not exist was answered with a result`,
	} {
		if !slices.ContainsFunc(got, func(g string) bool { return strings.HasPrefix(g, want) }) {
			t.Errorf("no finding %q; findings:\n  %s", want, strings.Join(got, "\n  "))
		}
	}
}

// TestCheckOwnCancellationNotLate checks a server that answers the ping check cancels at once
// only after notifications/cancelled (hiddenserver -ping-after-cancel holds every ping's
// answer until the next line): the cancellation is tested, and the answer crossing it is
// check's own doing, not a late response of the server's.
func TestCheckOwnCancellationNotLate(t *testing.T) {
	hidden := sessiontest.BuildHiddenServer(t)
	rep := runCheck(t, session.ServerSpec{Command: []string{hidden, "-ping-after-cancel", "clean"}},
		check.Options{Slow: patient})
	codes, text := findings(rep, protocol.SevInfo)
	if slices.Contains(codes, protocol.FindLateResponse) {
		t.Errorf("check reported the answer to the ping it cancelled itself:%s", text)
	}
	if slices.ContainsFunc(rep.Runs[0].Notes, func(n string) bool { return strings.Contains(n, "cancellation not tested") }) {
		t.Errorf("the ping was not cancelled; notes %q", rep.Runs[0].Notes)
	}
}

// TestCheckSlowStartNotLate checks a server that starts slowly (badserver -start-delay
// reads nothing for 3 s) with a short era probe: mcpscope gives up on its server/discover
// probe, falls back to initialize, and the probe's answer comes late; that is mcpscope's
// doing, not a late response of the server's.
func TestCheckSlowStartNotLate(t *testing.T) {
	bad := sessiontest.BuildBadServer(t)
	sp := session.ServerSpec{Command: []string{bad, "-start-delay", "3s"}}
	lateProbe := make(chan bool, 4)
	newSession := func(proto string) (*session.Session, func(), error) {
		tr, err := sp.NewTransport()
		if err != nil {
			return nil, nil, err
		}
		s := session.New(session.Config{Transport: tr, Protocol: proto, RequestTimeout: 20 * time.Second, ProbeTimeout: 100 * time.Millisecond})
		sub := s.Subscribe(0)
		go func() {
			for {
				evs, ok := sub.Next(context.Background(), 64)
				for _, e := range evs {
					if e.Kind == session.EvFrame && e.Corr.Probe && e.Frame != nil &&
						slices.ContainsFunc(e.Frame.Findings, func(f protocol.Finding) bool { return f.Code == protocol.FindLateResponse }) {
						lateProbe <- true
					}
				}
				if !ok {
					return
				}
			}
		}()
		return s, func() { _ = s.Close() }, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	rep, err := check.Check(ctx, newSession, check.Options{Slow: patient})
	if err != nil {
		t.Fatalf("check: %v", err)
	}
	select {
	case <-lateProbe:
	case <-time.After(30 * time.Second):
		t.Fatal("no late answer to the probe came: the test proves nothing")
	}
	if codes, text := findings(rep, protocol.SevInfo); slices.Contains(codes, protocol.FindLateResponse) {
		t.Errorf("check blames the server for the answer to the probe mcpscope gave up on:%s", text)
	}
}
