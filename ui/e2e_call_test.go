package ui_test

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// TestTmuxEverythingCalls drives the explorer against the reference server over stdio the
// way a user does: get-sum from its form (no JSON typed), a prompt with an argument, and a
// resource read, each checked on the screen.
func TestTmuxEverythingCalls(t *testing.T) {
	t.Parallel()
	node := sessiontest.NodePath(t)
	index := sessiontest.Everything(t)
	tm := startTerm(t, 120, 40, "--", node, index)
	tm.waitFor(`status "ready"`, ready)
	tm.keys("2")
	tm.waitFor("the tools list with get-sum", func(s string) bool { return bodyContains(s, "get-sum") })

	tm.explorerFind("get-sum")
	tm.keys("Enter")
	tm.waitFor("get-sum's form", func(s string) bool { return bodyHas(s, "tools/call get-sum") && bodyContains(s, "[ Send ]") })
	tm.keys("Enter")
	tm.typeText("1")
	tm.keys("Tab", "Enter")
	tm.typeText("2")
	tm.keys("C-s")
	tm.waitFor("the sum in the result", func(s string) bool {
		return bodyContains(s, "Result") && bodyContains(s, "tools/call get-sum") && bodyContains(s, "The sum of 1 and 2 is 3")
	})

	tm.explorerClear()
	tm.keys("h") // the tabs wrap round: prompts is left of tools
	tm.waitFor("the prompts list", func(s string) bool { return bodyContains(s, "args-prompt") })
	tm.explorerFind("args-prompt")
	tm.keys("Enter")
	tm.waitFor("args-prompt's form", func(s string) bool { return bodyHas(s, "prompts/get args-prompt") && bodyContains(s, "city") })
	tm.keys("Enter")
	tm.typeText("Paris")
	tm.keys("C-s")
	tm.waitFor("the prompt's messages", func(s string) bool {
		return bodyContains(s, "Result") && bodyContains(s, "prompts/get args-prompt") && bodyHas(s, "user ›") && bodyContains(s, "What's weather in Paris?")
	})

	tm.explorerClear()
	tm.keys("h", "h")
	tm.waitFor("the resources list", func(s string) bool { return bodyContains(s, "architecture.md") })
	tm.explorerFind("architecture")
	tm.keys("Enter")
	tm.waitFor("the resource's text", func(s string) bool {
		return bodyContains(s, "resources/read demo://resource/static/document/architecture.md") &&
			bodyContains(s, "text/markdown") && bodyContains(s, "Everything Server – Architecture")
	})
	tm.quit()
}

// explorerFind filters the explorer's lists by text and waits for the match to be selected.
func (tm *term) explorerFind(text string) {
	tm.t.Helper()
	tm.keys("/")
	tm.waitFor("the explorer's filter input", func(s string) bool { return bodyContains(s, "fuzzy filter") })
	tm.typeText(text)
	tm.keys("Enter")
	tm.waitFor(text+" selected", func(s string) bool {
		if bodyContains(s, "fuzzy filter") {
			return false
		}
		for _, l := range body(s) {
			if i := strings.Index(l, "▶"); i >= 0 && strings.Contains(strings.ToLower(l[i:]), strings.ToLower(text)) {
				return true
			}
		}
		return false
	})
}

// explorerClear clears the explorer's filter with esc.
func (tm *term) explorerClear() {
	tm.t.Helper()
	tm.keys("Escape")
	tm.waitFor("the explorer's filter cleared", func(s string) bool {
		for _, l := range body(s)[:2] {
			if strings.Contains(l, "/") && strings.Contains(l, " of ") {
				return false
			}
		}
		return true
	})
}
