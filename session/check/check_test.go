package check_test

import (
	"context"
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
			rep := runCheck(t, tc.sp, check.Options{AllEras: true, Read: 3, CallWait: 300 * time.Millisecond})
			if codes, text := findings(rep, protocol.SevWarning); len(codes) > 0 {
				t.Errorf("the demo server has %d findings:%s", len(codes), text)
			}
			if len(rep.Runs) != 2 || !rep.Runs[0].Stateless || rep.Runs[1].Revision != protocol.Rev20251125 {
				t.Fatalf("want a 2026-07-28 run and a 2025-11-25 run, got %d runs", len(rep.Runs))
			}
			for _, run := range rep.Runs {
				d := run.Definitions
				if len(d.Tools) < 10 || len(d.Resources) != 30 || len(d.Prompts) == 0 || len(d.Templates) == 0 || d.ServerInfo.Name != "mcpscope-demo" {
					t.Errorf("%s: definitions: %d tools, %d resources, %d prompts, %d templates, server %q",
						run.Revision, len(d.Tools), len(d.Resources), len(d.Prompts), len(d.Templates), d.ServerInfo.Name)
				}
				if !slices.Contains(run.Calls, "echo") || slices.Contains(run.Calls, "create_ticket") {
					t.Errorf("%s: calls %v: want the read-only tools (echo) and not the others (create_ticket)", run.Revision, run.Calls)
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
		check.Options{Calls: calls, CallWait: 200 * time.Millisecond, Slow: map[string]time.Duration{"startup": time.Nanosecond}})
	codes, text := findings(rep, protocol.SevWarning)
	for _, want := range []string{protocol.FindNotJSON, protocol.FindDuplicateResponse, protocol.FindUnknownID,
		protocol.FindResultAndError, protocol.FindInvalidUTF8, protocol.FindStartup} {
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
		check.Options{Read: 3, CallWait: 500 * time.Millisecond})
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
