package ui_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// TestTmuxTruncatedFrame calls the misbehaving server's huge tool (a 3 MB response) from
// the explorer: the timeline's row says the frame is held truncated in memory with its full
// size, and its detail reads the whole frame back from the recording and shows it
// pretty-printed.
func TestTmuxTruncatedFrame(t *testing.T) {
	t.Parallel()
	bad := sessiontest.BuildBadServer(t)
	rec := filepath.Join(t.TempDir(), "huge.jsonl")
	tm := startTerm(t, 160, 45, "--record", rec, "--", bad, "-huge-size", "3000000")
	tm.waitFor(`status "ready"`, ready)
	tm.keys("2")
	tm.waitFor("the tools list with huge", func(s string) bool { return bodyContains(s, "huge") })
	tm.explorerFind("huge")
	tm.keys("Enter") // a tool without arguments is called at once
	tm.waitFor("the result", func(s string) bool { return bodyHas(s, "tools/call huge") && bodyContains(s, "xxxxxxxx") })

	tm.keys("1")
	tm.waitFor("the timeline", func(s string) bool { return bodyContains(s, "tools/list") })
	tm.filter("kind:response method:tools/call")
	tm.waitFor("the filter applied", func(s string) bool { return strings.Contains(statusLine(s), "1 row matches") })
	tm.keys("g", "Enter")
	tm.waitFor("the truncated row and the frame read back whole", func(s string) bool {
		return bodyHas(s, "tools/call huge ✂ truncated in memory", "3.0M") &&
			bodyContains(s, "✂ truncated in memory: first 65.5 KB of 3.0 MB") &&
			bodyContains(s, "read back whole") && bodyContains(s, `"content": [`)
	})
	if s := tm.last; strings.Contains(s, "could not read") {
		t.Errorf("the detail could not read the frame back:\n%s", s)
	}
	tm.quit()
}
