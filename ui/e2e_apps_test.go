package ui_test

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// TestTmuxApps is the MCP Apps journey on testdata/appserver at 80×24, then 160×48: the
// explorer marks the tools with an app and the app-only one, U reaches the tool's ui://
// resource (which resources/list leaves out) and shows its metadata and HTML summary, U
// again goes back to the tool, and the server page counts the apps.
func TestTmuxApps(t *testing.T) {
	t.Parallel()
	srv := sessiontest.BuildAppServer(t)
	tm := startTerm(t, 80, 24, "--no-record", "--", srv, "-clean")
	tm.waitFor("ready", ready)
	tm.keys("2")
	tm.waitFor("the tools with their marks", func(s string) bool {
		return bodyContains(s, "show") && bodyContains(s, "UI app-only")
	})
	tm.keys("U")
	tm.waitFor("the app's summary", func(s string) bool {
		return bodyContains(s, "show (app)") && bodyContains(s, "MCP App") && bodyContains(s, "connect")
	})
	tm.resize(160, 48)
	tm.waitFor("the HTML after the summary", func(s string) bool {
		i, j := strings.Index(s, "Clean app"), strings.Index(s, "<!DOCTYPE html>")
		return i >= 0 && j > i && bodyContains(s, "✓ resourceDomains")
	})
	tm.keys("U")
	tm.waitFor("back on the tool", func(s string) bool { return bodyContains(s, "resourceUri ui://appserver/clean") })
	tm.keys("3")
	tm.waitFor("the server page's MCP Apps section", func(s string) bool {
		return bodyContains(s, "1 ui:// resource linked from 2 tools") && bodyContains(s, "app-only    1: refresh")
	})
	tm.quit()
}
