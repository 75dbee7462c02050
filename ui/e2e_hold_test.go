package ui_test

import (
	"strings"
	"testing"
)

// TestTmuxHoldEditSentAnyway is the journey of a held call at 80x24 on the demo, with a
// fault rule: the rules and the seed are the first rows; a breakpoint set with b on the
// echo call holds the next one; edited into text that is not JSON, it is flagged (the flag
// read whole), sent anyway as one frame (one parse error, the server still serving), the
// delay rule then judges a call forwarded as it came.
func TestTmuxHoldEditSentAnyway(t *testing.T) {
	t.Parallel()
	tm := startTerm(t, 80, 24, "--fault", "delay=1s tool:=echo dir:out", "--seed", "7")
	tm.waitFor("ready", ready)
	tm.keys("g")
	tm.waitFor("the rules and the seed at the top", func(s string) bool { return bodyContains(s, "1 fault rule, --seed 7") })
	first := true
	call := func() {
		tm.keys("2")
		tm.waitFor("the explorer", func(s string) bool { return bodyContains(s, "create_ticket") })
		if first {
			tm.filter("echo")
			first = false
		}
		tm.waitFor("echo chosen", func(s string) bool { return bodyContains(s, "▶echo") })
		tm.keys("Enter")
		tm.waitFor("the echo form", func(s string) bool { return bodyContains(s, "tools/call echo") })
		tm.keys("C-s")
	}
	call()
	tm.waitFor("the result", func(s string) bool { return bodyContains(s, "Result") })
	tm.keys("1")
	tm.filter("method:tools/call")
	tm.waitFor("the echo rows", func(s string) bool { return bodyHas(s, "res", "tools/call echo") })
	tm.keys("b")
	tm.waitFor("the breakpoint set", func(s string) bool { return strings.Contains(s, "breakpoint 1: tool:=echo") })
	tm.clearFilter()
	call()
	tm.waitFor("the hold dialog", func(s string) bool { return bodyContains(s, "Held #1") })
	tm.keys("e")
	tm.waitFor("the editor", func(s string) bool { return bodyContains(s, "Edit, then ctrl+s forwards it") })
	tm.keys("M->")
	tm.typeText("xx")
	tm.keys("C-s")
	tm.waitFor("the flag, whole", func(s string) bool {
		return bodyContains(s, "flagged: not valid JSON") && bodyContains(s, "is one line)")
	})
	tm.keys("C-s")
	tm.waitFor("the hold dialog closed", func(s string) bool { return !bodyContains(s, "Held #1") })
	tm.keys("1", "G")
	s := tm.waitFor("one parse error, the server still up", func(s string) bool {
		return bodyContains(s, "Parse error") && bodyContains(s, "not JSON on stdin") && bodyContains(s, "forwarded after")
	})
	if n := strings.Count(s, "Parse error"); n != 1 {
		t.Errorf("%d parse errors, want 1:\n%s", n, s)
	}
	call()
	tm.waitFor("the second hold", func(s string) bool { return bodyContains(s, "Held #2") })
	tm.keys("f")
	tm.waitFor("its answer held too (the breakpoint holds either way)", func(s string) bool { return bodyContains(s, "Held #3") })
	tm.keys("f")
	tm.waitFor("no more held", func(s string) bool { return !bodyContains(s, "Held #") })
	tm.keys("1", "G")
	tm.waitFor("the delay rule judged the forwarded call", func(s string) bool {
		return bodyContains(s, "held #2 forwarded") && bodyContains(s, "⚡ delay 1s (rule 1")
	})
	tm.quit()
}
