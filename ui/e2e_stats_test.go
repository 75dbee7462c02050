package ui_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// statsRow is the stats page's row of method: its cells.
func statsRow(s, method string) []string {
	for _, l := range body(s) {
		if f := strings.Fields(l); len(f) > 0 && f[0] == method {
			return f
		}
	}
	return nil
}

// TestTmuxStatsDemo at 80×24: three tools/call on the demo (one answered, one a tool error,
// one a JSON-RPC error), the stats page counting them live with their errors, the order by
// p95, enter showing the method in the timeline; then the recording opened, its stats
// page counting the same calls from the file.
func TestTmuxStatsDemo(t *testing.T) {
	t.Parallel()
	rec := filepath.Join(t.TempDir(), "session.jsonl")
	tm := startTerm(t, 80, 24, "--record", rec)
	tm.waitFor(`status "ready" with a tools/list response`, func(s string) bool { return ready(s) && listsAnswered(s) })
	for _, name := range []string{"echo", "fail", "crash_rpc"} {
		tm.composeCall(`{"name":"` + name + `","arguments":{"text":"hi"}}`)
	}
	tm.keys("6")
	tm.waitFor("tools/call: 3 calls, 2 errors, latencies and bytes", func(s string) bool {
		f := statsRow(s, "tools/call")
		return bodyContains(s, "Traffic by method") && len(f) == 8 && f[1] == "3" && f[2] == "2" && strings.HasSuffix(f[3], "s")
	})
	tm.keys("s")
	tm.waitFor("the order by p95", func(s string) bool { return bodyContains(s, "by slowest p95") })
	tm.keys("g") // the cursor on the slowest method
	first := ""
	for _, l := range body(tm.last)[3:] { // below the title, a blank line and the header
		if f := strings.Fields(l); len(f) > 0 {
			first = f[0]
			break
		}
	}
	tm.keys("Enter")
	tm.waitFor("the timeline filtered to the first method", func(s string) bool {
		return strings.Contains(footerLine(s), "/method:="+first) && allRows(s, func(l string) bool { return strings.Contains(l, first) })
	})
	tm.quit()

	op := startTerm(t, 80, 24, rec)
	op.waitFor("the recording, read-only", func(s string) bool { return strings.Contains(statusLine(s), "read-only") })
	op.keys("6")
	op.waitFor("the recording's figures: the same 3 calls and 2 errors", func(s string) bool {
		f := statsRow(s, "tools/call")
		return bodyContains(s, "the whole recording") && len(f) == 8 && f[1] == "3" && f[2] == "2"
	})
	op.quit()
}

// TestTmuxStatsEverything at 160×45: the reference server over stdio, two echo calls, the
// stats page with requests, notifications and responses apart.
func TestTmuxStatsEverything(t *testing.T) {
	t.Parallel()
	node := sessiontest.NodePath(t)
	index := sessiontest.Everything(t)
	tm := startTerm(t, 160, 45, "--no-record", "--", node, index)
	tm.waitFor(`status "ready" with a tools/list response`, func(s string) bool { return ready(s) && listsAnswered(s) })
	tm.composeCall(`{"name":"echo","arguments":{"message":"one"}}`)
	tm.composeCall(`{"name":"echo","arguments":{"message":"two"}}`)
	tm.keys("6")
	tm.waitFor("tools/call: 2 requests, 2 responses, no error; the wide columns", func(s string) bool {
		f := statsRow(s, "tools/call")
		return bodyHas(s, "requests", "notifs", "responses", "errors", "p99") && len(f) == 10 &&
			f[1] == "2" && f[2] == "0" && f[3] == "2" && f[4] == "0"
	})
	tm.waitFor("notifications counted on their own row", func(s string) bool {
		f := statsRow(s, "notifications/initialized")
		return len(f) == 10 && f[1] == "0" && f[2] == "1"
	})
	tm.quit()
}
