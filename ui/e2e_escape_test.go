package ui_test

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// TestTmuxEscapes runs the escapeserver, whose metadata holds a clipboard write (OSC 52),
// screen clears, hyperlinks and characters that hide or reorder text, in a real terminal at
// 80×24 and 160×48: the status bar, the timeline, the explorer and the server page show them
// as escapes, and none reaches the terminal (tmux's paste buffer, which OSC 52 would set,
// stays empty).
func TestTmuxEscapes(t *testing.T) {
	t.Parallel()
	srv := sessiontest.BuildEscapeServer(t)
	tm := startTerm(t, 80, 24, "--no-record", "--", srv)
	tm.waitFor(`status "ready" naming the server escaped`, func(s string) bool {
		return ready(s) && strings.Contains(statusLine(s), `escape\x1b]52;c;ZXZpbA==\x07server`) && bodyContains(s, "prompts/list")
	})
	tm.keys("2")
	tm.waitFor("the explorer naming the tool escaped", func(s string) bool {
		return bodyContains(s, `\x1b]52;c;ZXZpbA==\x07read_file`) && bodyContains(s, `read\u200bfile`) &&
			bodyContains(s, `Reads a file.\x1b]8;;https://evil.example/\x07`)
	})
	tm.resize(160, 48)
	tm.keys("3")
	tm.waitFor("the server page with the instructions escaped", func(s string) bool {
		return bodyContains(s, `Escape\u200b\u202e\u2066\U000e0041\ufe0f\u00adServer`) &&
			bodyContains(s, `Use\x1b]8;;https://evil.example/\x07 this\x1b]8;;\x07 server.\x1b[2J`)
	})
	tm.keys("1")
	tm.waitFor("the handshake's state row", func(s string) bool {
		return bodyContains(s, `ready: escape\x1b]52;c;ZXZpbA==\x07server 1.0\u009b31m`)
	})
	if out, err := tm.cmd("list-buffers").CombinedOutput(); err != nil || len(out) > 0 {
		t.Errorf("a clipboard write reached the terminal: tmux buffers %q (%v)", out, err)
	}
	tm.quit()
}
