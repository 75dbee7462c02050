package ui_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/ui"
)

// TestTmuxAttach starts a tap between a scripted host and the demo server, attaches the
// interactive view to it in a terminal, and watches the host's traffic appear as it
// happens: the handshake, the tools/list pages, the explorer's tools, then the tap's end.
func TestTmuxAttach(t *testing.T) {
	// A socket's path must be short, which a test's TempDir may not be.
	dir, err := os.MkdirTemp("", "mcpscope-attach-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	t.Setenv("XDG_RUNTIME_DIR", dir) // the terminal's mcpscope finds the tap there
	host := ui.StartTapHost(t, "e2e", dir)

	tm := startTerm(t, 100, 30, "attach", "e2e")
	tm.waitFor("the view attached to the tap", func(s string) bool {
		return strings.Contains(statusLine(s), "attached to e2e (live, read-only)")
	})
	host.Handshake()
	tm.waitFor("the host's initialize, live", func(s string) bool {
		return bodyHas(s, "initialize", "req") && bodyHas(s, "initialize", "res")
	})
	tools := host.ListTools()
	tm.waitFor("the host's tools/list rows, live", func(s string) bool {
		return bodyHas(s, "tools/list", "req") && bodyHas(s, "tools/list", "res") &&
			strings.Contains(statusLine(s), "mcpscope-demo")
	})
	if tools == 0 {
		t.Fatalf("the demo listed no tools")
	}
	tm.keys("2")
	tm.waitFor("the explorer with the tools the host listed", func(s string) bool {
		return bodyContains(s, "echo") && bodyContains(s, "Add two numbers") && strings.Contains(s, fmt.Sprintf("tools %d", tools))
	})
	tm.keys("1")
	host.End()
	tm.waitFor("the end of the tap", func(s string) bool {
		return strings.Contains(statusLine(s), "tap ended")
	})
	tm.quit()
}
