package ui

import (
	"slices"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/protocol"
)

// TestComposeMethods: the composer offers the methods a client sends in the negotiated
// revision, and only those.
func TestComposeMethods(t *testing.T) {
	for _, tc := range []struct {
		rev       protocol.Revision
		has, lack []string
	}{
		{protocol.Rev20251125, []string{"initialize", "tools/call", "tasks/list", "notifications/initialized"}, []string{"server/discover", "sampling/createMessage", "notifications/message"}},
		{protocol.Rev20260728, []string{"server/discover", "subscriptions/listen", "tools/call"}, []string{"initialize", "ping", "logging/setLevel"}},
		{protocol.Rev20241105, []string{"ping", "resources/subscribe"}, []string{"elicitation/create", "tasks/get"}},
		{"", []string{"initialize", "server/discover", "tasks/update"}, []string{"roots/list"}},
	} {
		got := composeMethods(tc.rev)
		for _, m := range tc.has {
			if !slices.Contains(got, m) {
				t.Errorf("%s: %s is not offered (%v)", tc.rev, m, got)
			}
		}
		for _, m := range tc.lack {
			if slices.Contains(got, m) {
				t.Errorf("%s: %s is offered", tc.rev, m)
			}
		}
		first := slices.IndexFunc(got, func(s string) bool { return strings.HasPrefix(s, "notifications/") })
		if first >= 0 && slices.ContainsFunc(got[first:], func(s string) bool { return !strings.HasPrefix(s, "notifications/") }) {
			t.Errorf("%s: requests do not come before notifications: %v", tc.rev, got)
		}
	}
}

// TestComposeCompletion types the start of a method in the `:` composer on a real
// session: the matches show under the field, ↓ picks the next match, tab completes it and
// moves on to the params (whose placeholder fits the method), and a method holding
// characters no method has is flagged before it is sent.
func TestComposeCompletion(t *testing.T) {
	r := newRig(t, "2025-11-25", nil)
	r.keys(":")
	c := dialogOf[*composer](r.m)
	if c == nil {
		t.Fatal("the composer did not open")
	}
	if scr := r.screen(); !strings.Contains(scr, "type to complete") || !strings.Contains(scr, "initialize") {
		t.Fatalf("the empty method field does not list the methods:\n%s", scr)
	}
	r.typeText("tools/")
	scr := r.screen()
	if !strings.Contains(scr, "tab completes") || !strings.Contains(scr, "tools/list tools/call") {
		t.Fatalf("the matches of tools/ are not shown:\n%s", scr)
	}
	r.keys("down", "tab")
	if got := c.method.Value(); got != "tools/call" {
		t.Fatalf("down then tab completed to %q, want tools/call", got)
	}
	if c.field != 1 {
		t.Fatalf("completing left the focus on field %d, not on the params", c.field)
	}
	if scr := r.screen(); !strings.Contains(scr, `{"name": "…", "arguments": {}}`) {
		t.Fatalf("the params placeholder does not fit tools/call:\n%s", scr)
	}
	r.typeText(`{"name":"echo"}`)
	if c.method.Value() != "tools/call" {
		t.Fatalf("params typed after the completion went to the method: %q", c.method.Value())
	}
	r.keys("esc", ":")
	r.typeText("resources/rea")
	r.keys("tab")
	if c := dialogOf[*composer](r.m); c.field != 1 || !strings.Contains(r.screen(), `{"uri": "…"}`) {
		t.Fatalf("resources/read: field %d, placeholder:\n%s", c.field, r.screen())
	}
	r.keys("esc", ":")
	r.typeText(`resources/read{"uri":"x"}`)
	if scr := r.screen(); !strings.Contains(scr, "which no method has") {
		t.Fatalf("a method holding a brace is not flagged:\n%s", scr)
	}
	r.keys("ctrl+s")
	if c := dialogOf[*composer](r.m); c == nil || !strings.Contains(c.problem, "ctrl+s again sends it") {
		t.Fatalf("ctrl+s sent a method holding a brace without a warning")
	}
	r.keys("esc", ":")
	r.typeText("no/such")
	if scr := r.screen(); !strings.Contains(scr, "not a method of 2025-11-25") {
		t.Fatalf("an unknown method is not said to be one:\n%s", scr)
	}
	r.keys("tab")
	if c := dialogOf[*composer](r.m); c.field != 1 || c.method.Value() != "no/such" {
		t.Fatalf("tab on an unknown method did not move on as it is (%q, field %d)", c.method.Value(), c.field)
	}
}
