package ui_test

import (
	"strings"
	"testing"
)

// TestTmuxRestartOrder restarts the demo server with R at 160×45: the old session's close
// ("closed: restarted by the user") is shown above the restart marker, and below it only
// the new session, from its spawn to its tools/list.
func TestTmuxRestartOrder(t *testing.T) {
	t.Parallel()
	tm := startTerm(t, 160, 45)
	tm.waitFor("the first session ready with its tools/list", func(s string) bool {
		return ready(s) && listsAnswered(s)
	})
	tm.keys("R")
	tm.waitCheck("the second session under the restart marker", func(s string) string {
		rows := body(s)
		marker := -1
		for i, l := range rows {
			if strings.Contains(l, "restart #1") {
				marker = i
			}
		}
		if marker < 0 {
			return "no restart marker"
		}
		closed := false
		for _, l := range rows[:marker] {
			closed = closed || strings.Contains(l, "restarted by the user")
		}
		listed := false
		for _, l := range rows[marker+1:] {
			if strings.Contains(l, "restarted by the user") {
				return "the old session's close is below the marker: " + strings.TrimSpace(l)
			}
			listed = listed || strings.Contains(l, "tools/list") && strings.Contains(l, "res")
		}
		switch {
		case !closed:
			return "the old session's close is not above the marker"
		case !listed || !ready(s):
			return "the new session has not listed its tools yet"
		}
		return ""
	})
	tm.quit()
}
