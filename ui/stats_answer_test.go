package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/session"
)

// TestModelStatsServerRequestAnswered: the stats page counts the client's answer to a
// server→client request under the request's method (the session's answer event names only
// the request's seq), not as an "(unknown)" response beside an unanswered request, with the
// latency from the request's arrival to the answer (the pair's latency in the timeline).
func TestModelStatsServerRequestAnswered(t *testing.T) {
	m := newTimelineModel(t, Options{Target: "demo"}, 160, 24)
	w := newEvWire()
	ask := w.req(dirIn, 7, "roots/list", `{}`)
	answer := w.frame(3*time.Millisecond, dirOut, `{"jsonrpc":"2.0","id":7,"result":{"roots":[]}}`, session.Correlation{RequestSeq: ask.Seq})
	feedEvents(m, ask, answer)
	pressKey(m, "6")
	scr := plainScreen(m)
	if strings.Contains(scr, "(unknown)") {
		t.Errorf("the answer is counted as an (unknown) response:\n%s", scr)
	}
	// method, requests, notifications, responses, ...
	if f := strings.Fields(screenRow(scr, "roots/list")); len(f) < 4 || f[1] != "1" || f[3] != "1" {
		t.Errorf("roots/list row %q, want 1 request and 1 response:\n%s", screenRow(scr, "roots/list"), scr)
	}
	if row := screenRow(scr, "roots/list"); !strings.Contains(row, "3.0ms") {
		t.Errorf("roots/list row %q lacks the answer's latency 3.0ms:\n%s", row, scr)
	}
}
