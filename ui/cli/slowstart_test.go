package cli_test

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// TestSlowStartingModernServer: a server of the 2026-07-28 era that says nothing for longer
// than the era probe waits (npx fetching a package) is probed again, not taken for one of
// the earlier era: falling back to initialize would meet a server that read the first
// probe late and refuses a second handshake.
func TestSlowStartingModernServer(t *testing.T) {
	t.Parallel()
	bin := sessiontest.BuildMCPScope(t)
	out, errOut, code := run(t, "list", "tools", "--", "sh", "-c", "sleep 4; exec "+bin+" demo")
	if code != 0 || !strings.Contains(out, `"name": "echo"`) {
		t.Fatalf("list tools on a server that starts in 4 s: exit %d\nstdout: %.300s\nstderr: %s", code, out, errOut)
	}
}
