package ui_test

import (
	"os"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/ui"
)

// TestTmuxAttachBreakpoint is the breakpoint journey through a tap: the view attached to
// a tap between a scripted host and the demo server sets a breakpoint in the tap (B, a),
// the host's echo call is held there (the dialog, the status line's count), its argument
// is edited in the view and forwarded, and the host gets the server's answer to the
// edited call. A second call is held, the view quits, and the tap forwards it as it came.
func TestTmuxAttachBreakpoint(t *testing.T) {
	dir, err := os.MkdirTemp("", "mcpscope-attach-") // a socket's path must be short
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	t.Setenv("XDG_RUNTIME_DIR", dir)
	host := ui.StartTapHost(t, "brk", dir)
	tm := startTerm(t, 80, 24, "attach", "brk")
	tm.waitFor("the view attached to the tap", func(s string) bool {
		return strings.Contains(statusLine(s), "attached to brk (live)")
	})
	host.Handshake()
	tm.waitFor("the host's initialize", func(s string) bool { return bodyHas(s, "initialize", "res") })

	tm.keys("B")
	tm.waitFor("the breakpoint list", func(s string) bool { return bodyContains(s, "Breakpoints") && bodyContains(s, "none yet") })
	tm.keys("a")
	tm.typeText("tool:=echo dir:out")
	tm.keys("Enter")
	tm.waitFor("the breakpoint", func(s string) bool { return bodyContains(s, "[x] 1  tool:=echo dir:out") })
	tm.keys("Escape")
	tm.waitFor("the list closed", func(s string) bool { return !bodyContains(s, "Breakpoints") })

	// Wait for the list to reach the tap: a held call is what says it did.
	result := host.Send("tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"text": "as typed"}})
	tm.waitFor("the held call", func(s string) bool {
		return bodyContains(s, "Held #1  out request tools/call") && strings.Contains(statusLine(s), "1 held")
	})
	tm.keys("e")
	tm.waitFor("the editor", func(s string) bool { return bodyContains(s, "Edit, then ctrl+s forwards it") })
	// The host's call ends with its arguments' text, then the tool's name.
	tm.keys("Up", "Up", "Up", "Up", "End", "Left")
	for range len("typed") {
		tm.keys("BSpace")
	}
	tm.typeText("edited")
	tm.waitFor("the edited argument", func(s string) bool { return bodyContains(s, `"text": "as edited"`) })
	tm.keys("C-s")
	if got := string(result()); !strings.Contains(got, `"as edited"`) {
		t.Errorf("the host got %s, want the answer to the edited call", got)
	}
	tm.waitFor("the hold rows and the answer in the view", func(s string) bool {
		return bodyContains(s, "held #1 forwarded after") && bodyContains(s, "edited") && !strings.Contains(statusLine(s), "held")
	})

	second := host.Send("tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"text": "second"}})
	tm.waitFor("the second held call", func(s string) bool { return bodyContains(s, "Held #2  out request tools/call") })
	tm.keys("C-c")
	if got := string(second()); !strings.Contains(got, `"second"`) {
		t.Errorf("after the view quit the host got %s, want the answer to its call as it came", got)
	}
}
