package ui_test

import (
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// TestTmuxBigResult calls the misbehaving server's bigtext tool (a 20 MiB text) and reads
// its 4 MiB ui:// HTML page from the explorer at 80×24: the first screen of each comes
// soon after the answer, page down answers while the rest is laid out, and the full view
// reaches the end of what is shown at once, where it says the rest is in the timeline.
// The bounds are loose, for a loaded machine; BenchmarkExplorerBigResult measures.
func TestTmuxBigResult(t *testing.T) {
	t.Parallel()
	bad := sessiontest.BuildBadServer(t)
	tm := startTerm(t, 80, 24, "--", bad, "-resources")
	tm.waitFor(`status "ready"`, ready)
	tm.keys("2")
	tm.waitFor("the lists", func(s string) bool { return bodyContains(s, "resources 1") && bodyContains(s, "echo") })
	tm.explorerFind("bigtext")
	within := func(what string, limit time.Duration, cond func(string) bool) {
		t.Helper()
		start := time.Now()
		tm.waitFor(what, cond)
		if d := time.Since(start); d > limit {
			t.Errorf("%s took %s, want under %s", what, d.Round(time.Millisecond), limit)
		}
	}
	tm.keys("Enter") // a tool without arguments is called at once
	within("the result's first screen", 10*time.Second, func(s string) bool {
		return bodyContains(s, "Result ·") && bodyContains(s, "line 0000001: the quick brown fox")
	})
	tm.keys("PageDown")
	within("page down", 3*time.Second, func(s string) bool { return !bodyContains(s, "Result ·") })
	tm.keys("z")
	within("the laid-out text in the full view", 10*time.Second, func(s string) bool {
		return !bodyContains(s, "▶bigtext") && bodyContains(s, ": the quick brown fox jumps over the lazy dog, again and again.") &&
			!bodyContains(s, `\nline`)
	})
	tm.keys("G")
	within("the end of the shown text", 3*time.Second, func(s string) bool {
		return bodyContains(s, "MB more") && bodyContains(s, "of the result not shown: T shows")
	})

	tm.keys("z") // back to the list
	tm.waitFor("the list", func(s string) bool { return bodyContains(s, "▶bigtext") })
	tm.explorerClear()
	tm.keys("l")
	tm.waitFor("the resources list", func(s string) bool { return bodyContains(s, "ui://big/page.html") })
	tm.keys("Enter")
	within("the page's first screen", 10*time.Second, func(s string) bool {
		return bodyContains(s, "resources/read ui://big/page.html") && bodyContains(s, `p0000001`)
	})
	tm.keys("z")
	within("the laid-out page", 10*time.Second, func(s string) bool {
		return bodyContains(s, "text/html;profile=mcp-app") && bodyContains(s, `<p id="p0000001">a paragraph`)
	})
	tm.keys("G")
	within("the end of the shown page", 3*time.Second, func(s string) bool {
		return bodyContains(s, "of the result not shown: T shows")
	})
	if s := tm.last; strings.Contains(s, "laying out") {
		t.Errorf("the preview is still on screen:\n%s", s)
	}
	tm.quit()
}
