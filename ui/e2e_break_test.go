package ui_test

import (
	"strings"
	"testing"
)

// TestTmuxBreakpointJourney is the breakpoint journey at 80×24 on the demo server: a
// breakpoint on the echo tool's calls (B, a), a call from the explorer held (the dialog,
// the status line's count), its argument edited in the editor and forwarded (ctrl+s),
// and the answer the server gave to the edited call.
func TestTmuxBreakpointJourney(t *testing.T) {
	t.Parallel()
	tm := startTerm(t, 80, 24)
	tm.waitFor(`status "ready"`, ready)
	tm.keys("B")
	tm.waitFor("the breakpoint list", func(s string) bool { return bodyContains(s, "Breakpoints") && bodyContains(s, "none yet") })
	tm.keys("a")
	tm.typeText("tool:=echo dir:out")
	tm.keys("Enter")
	tm.waitFor("the breakpoint", func(s string) bool { return bodyContains(s, "[x] 1  tool:=echo dir:out") })
	tm.keys("Escape")
	tm.waitFor("the list closed", func(s string) bool { return !bodyContains(s, "Breakpoints") })
	tm.keys("2")
	tm.waitFor("the tools list with echo", func(s string) bool { return bodyContains(s, "echo") })
	tm.explorerFind("echo")
	tm.keys("Enter")
	tm.waitFor("echo's form", func(s string) bool { return bodyHas(s, "tools/call echo") && bodyContains(s, "[ Send ]") })
	tm.keys("Enter")
	tm.typeText("as typed")
	tm.keys("C-s")
	tm.waitFor("the held call", func(s string) bool {
		return bodyContains(s, "Held #1  out request tools/call") && strings.Contains(statusLine(s), "1 held")
	})
	tm.keys("e")
	tm.waitFor("the editor", func(s string) bool { return bodyContains(s, "Edit, then ctrl+s forwards it") })
	// The call's JSON ends with its arguments: text, uppercase, then the name.
	tm.keys("Up", "Up", "Up", "Up", "Up", "End", "Left", "Left")
	for range len("typed") {
		tm.keys("BSpace")
	}
	tm.typeText("edited")
	tm.waitFor("the edited argument", func(s string) bool { return bodyContains(s, `"text": "as edited"`) })
	tm.keys("C-s")
	tm.waitFor("the answer to the edited call", func(s string) bool {
		return bodyContains(s, "Result") && bodyContains(s, "as edited") && !strings.Contains(statusLine(s), "held")
	})
	// The result shows the arguments it answers: the edit, said so.
	tm.waitFor("the delivered arguments above the result", func(s string) bool {
		return bodyContains(s, `arguments ⏸ edited at a breakpoint {"text":"as edited"`) && !bodyContains(s, "as typed")
	})
	tm.keys("1")
	tm.waitFor("the hold rows in the timeline", func(s string) bool {
		return bodyContains(s, "held #1 forwarded after") && bodyContains(s, "edited")
	})
	// The request's row summarises what the server got, marked at its head.
	tm.waitFor("the edited request's row", func(s string) bool {
		return bodyHas(s, "→ req", "⏸ edited tools/call echo") && !bodyContains(s, "as typed")
	})
	tm.quit()
}
