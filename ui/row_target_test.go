package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/secret"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// TestRowTargetNames: tools/call, prompts/get and resources/read rows name what they act on;
// a tools/call request adds its arguments where the row has room, its response the tool.
func TestRowTargetNames(t *testing.T) {
	for _, w := range []int{80, 160} {
		m := newTimelineModel(t, Options{}, w, 30)
		wi := newEvWire()
		call := wi.req(dirOut, 1, "tools/call", `{"name":"echo","arguments":{"n":3,"message":"hi"}}`)
		prompt := wi.req(dirOut, 2, "prompts/get", `{"name":"greet"}`)
		read := wi.req(dirOut, 3, "resources/read", `{"uri":"file:///a.txt"}`)
		secretCall := wi.req(dirOut, 4, "tools/call", `{"name":"login","arguments":{"api_key":"hunter2hunter2","token":"ghp_0123456789abcdefghijABCDEFGHIJ012345"}}`)
		feedEvents(m, call, prompt, read, secretCall, wi.res(time.Millisecond, call, `{"content":[]}`),
			wi.res(time.Millisecond, prompt, `{"messages":[]}`), wi.res(time.Millisecond, read, `{"contents":[]}`))
		screen := plainScreen(m)
		if screenRow(screen, "→ req", "tools/call echo") == "" {
			t.Errorf("w=%d: no tool name on the request row:\n%s", w, screen)
		}
		if w >= 160 && screenRow(screen, "tools/call echo", `message="hi" n=3`) == "" {
			t.Errorf("w=%d: no argument summary:\n%s", w, screen)
		}
		for _, want := range []string{"prompts/get greet", "resources/read file:///a.txt"} {
			if screenRow(screen, "→ req    "+want) == "" || screenRow(screen, "← res    "+want) == "" {
				t.Errorf("w=%d: %q missing on request or response row:\n%s", w, want, screen)
			}
		}
		if strings.Contains(screen, "hunter2") || strings.Contains(screen, "ghp_0123") {
			t.Errorf("w=%d: a secret argument reached the screen:\n%s", w, screen)
		}
		if w >= 160 && screenRow(screen, "tools/call login api_key=****") == "" {
			t.Errorf("w=%d: secret argument not shown masked:\n%s", w, screen)
		}
		if r := screenRow(screen, "← res    tools/call echo"); r == "" || strings.Contains(r, "message=") {
			t.Errorf("w=%d: response row %q: want the tool name without arguments", w, r)
		}
	}
}

// TestArgsSummaryMasks: secret-named arguments are masked whole, secret shapes and the
// values the command line named before the value is cut, so no prefix of a secret shows;
// a long value of no secret shows its prefix.
func TestArgsSummaryMasks(t *testing.T) {
	got := argsSummary([]byte(`{"arguments":{"password":"hunter2hunter2","x":"ghp_0123456789abcdefghijABCDEFGHIJ012345"}}`), nil)
	if strings.Contains(got, "hunter2") || strings.Contains(got, "ghp_0123") || !strings.HasPrefix(got, "password=**** x=") {
		t.Errorf("summary %q", got)
	}
	got = argsSummary([]byte(`{"arguments":{"url":"http://127.0.0.1:8080/some/long/path","short":"ok"}}`), nil)
	if got != `short="ok" url="http://127.0.0.1:8080/…` {
		t.Errorf("summary %q", got)
	}
	// A value the command line named (no secret shape) is masked whole before the cut.
	named := secret.New([]string{"plainlookingvalue-0123456789"}, false)
	got = argsSummary([]byte(`{"arguments":{"path":"plainlookingvalue-0123456789-and-more"}}`), named)
	if strings.Contains(got, "plainlooking") || got != `path="****-and-more"` {
		t.Errorf("summary %q", got)
	}
}

// TestRowToolError: a tools/call result with isError is a red row, counted as an error in
// the history and the status bar; an ordinary result is not.
func TestRowToolError(t *testing.T) {
	m := newTimelineModel(t, Options{}, 120, 20)
	wi := newEvWire()
	ok := wi.req(dirOut, 1, "tools/call", `{"name":"echo","arguments":{}}`)
	bad := wi.req(dirOut, 2, "tools/call", `{"name":"fail","arguments":{}}`)
	feedEvents(m, ok, bad, wi.res(time.Millisecond, ok, `{"content":[],"isError":false}`),
		wi.res(time.Millisecond, bad, `{"content":[{"type":"text","text":"boom"}],"isError":true}`))
	if m.hist.Errors != 1 {
		t.Fatalf("errors = %d, want 1", m.hist.Errors)
	}
	raw := m.Render()
	screen := ansi.Strip(raw)
	if screenRow(screen, "← res", "tools/call fail ✗ tool error: boom") == "" {
		t.Errorf("no tool error row:\n%s", screen)
	}
	if !strings.Contains(screen, "1 error") {
		t.Errorf("status bar does not count the tool error:\n%s", screen)
	}
	red := m.c.Styles.Rows().Err.Paint("tools/call fail ✗ tool error: boom")
	if red == "tools/call fail ✗ tool error: boom" || !strings.Contains(raw, red) {
		t.Errorf("tool error row not in the error colour")
	}
	if screenRow(screen, "← res", "tools/call echo ✗") != "" {
		t.Errorf("isError false shown as a tool error:\n%s", screen)
	}
}

// TestEraHintOnError: after protocol auto negotiated the stateless era, a JSON-RPC error
// says so on its row, in the detail and on the server page, with how to force the earlier
// era; a forced revision gets no hint.
func TestEraHintOnError(t *testing.T) {
	for _, auto := range []bool{true, false} {
		m := newTimelineModel(t, Options{}, 200, 30)
		wi := newEvWire()
		info := session.ServerInfo{Revision: protocol.Rev20260728, Stateless: true, Auto: auto, Transport: "stdio"}
		m.Update(EventsMsg{Gen: 1, Events: []*session.Event{wi.state(session.StateReady, "")}, Info: &info})
		call := wi.req(dirOut, 1, "tools/call", `{"name":"elicit","arguments":{}}`)
		feedEvents(m, call, wi.rpcErr(time.Millisecond, call, -32603, `"elicitation/create" cannot be sent`))
		var errEntry *traffic.Entry
		for _, e := range m.hist.Entries() {
			if e.IsError() {
				errEntry = e
			}
		}
		hint := "--protocol 2025-11-25"
		row := ansi.Strip(rowText(m.c.Styles, errEntry, 160, m.hist.Start, wi.now))
		if got := strings.Contains(row, "(2026-07-28 via auto: try "+hint+")"); got != auto {
			t.Errorf("auto=%v: row %q", auto, row)
		}
		b := newTextBlock(m.c.Styles, 200)
		frameHeader(b, errEntry)
		if got := strings.Contains(ansi.Strip(strings.Join(b.lines, "\n")), "negotiated 2026-07-28 by --protocol auto; "+hint); got != auto {
			t.Errorf("auto=%v: detail header:\n%s", auto, strings.Join(b.lines, "\n"))
		}
		page := ansi.Strip(strings.Join(serverLines(m.c.Styles, info, "", "", "", nil, 200, nil), "\n"))
		if got := strings.Contains(page, hint); got != auto {
			t.Errorf("auto=%v: server page:\n%s", auto, page)
		}
	}
}
