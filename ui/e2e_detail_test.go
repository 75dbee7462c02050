package ui_test

import (
	"strings"
	"testing"
)

// TestTmuxDetailJSON: the detail of a tools/list response at 80×24 stacks the pair (the
// response first, whole lines, not cut into halves), v shows one side and then the other,
// and at 160×45 z gives the detail the whole screen and restores the timeline beside it.
func TestTmuxDetailJSON(t *testing.T) {
	t.Parallel()
	tm := startTerm(t, 80, 24)
	tm.waitFor(`status "ready" with the start's lists answered (events/list is the last)`, func(s string) bool {
		return ready(s) && bodyHas(s, "events/list", "res")
	})
	tm.openFirstResponse("tools/list")
	tm.waitFor("the pair stacked, the response first", func(s string) bool {
		return bodyContains(s, "response above request") && bodyContains(s, `  "result": {`) && !bodyContains(s, "│")
	})
	tm.keys("v")
	tm.waitFor("the request alone", func(s string) bool {
		return bodyContains(s, "showing the request alone") && bodyContains(s, `"method": "tools/list"`) && !bodyContains(s, `"result": {`)
	})
	tm.keys("v")
	tm.waitFor("the response alone", func(s string) bool {
		return bodyContains(s, "showing the response alone") && bodyContains(s, `"result": {`)
	})
	tm.keys("v")
	tm.waitFor("both again", func(s string) bool { return bodyContains(s, "response above request") })

	// At 160 columns the detail is beside the timeline; z gives it the whole screen.
	tm.resize(160, 45)
	besideTimeline := func(s string) bool {
		for _, l := range body(s) {
			if i := strings.Index(l, "← result  tools/list"); i > 0 {
				return true
			}
		}
		return false
	}
	tm.waitFor("the detail beside the timeline", besideTimeline)
	tm.keys("z")
	tm.waitFor("the detail maximised", func(s string) bool {
		return strings.HasPrefix(body(s)[0], "← result  tools/list") && strings.Contains(footerLine(s), "z maximise")
	})
	tm.keys("z")
	tm.waitFor("the timeline back beside the detail", besideTimeline)
	tm.keys("z")
	tm.waitFor("the detail maximised again", func(s string) bool { return strings.HasPrefix(body(s)[0], "← result  tools/list") })
	tm.keys("Escape")
	tm.waitFor("esc restores the timeline beside the detail", besideTimeline)
	tm.quit()
}
