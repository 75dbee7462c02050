package cli_test

import (
	"os"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/ui/cli"
)

// TestAppCSPFlag: --csp reference hosts the view under the ext-apps reference host's policy
// (eval allowed), strict (the default) under the spec's; another value is a usage error.
func TestAppCSPFlag(t *testing.T) {
	if _, stderr, code := run(t, "app", "view_dice", "--csp", "lax"); code != cli.ExitUsage || !strings.Contains(stderr, "--csp") {
		t.Errorf("--csp lax: exit %d, stderr %q", code, stderr)
	}
	for _, c := range []struct{ mode, want string }{
		{"strict", "under CSP: default-src 'none'; script-src 'self' 'unsafe-inline';"},
		{"reference", "under CSP: default-src 'self' 'unsafe-inline'; script-src 'self' 'unsafe-inline' 'unsafe-eval' blob: data:;"},
	} {
		p := start(t, nil, sessiontest.BuildMCPScope(t), "--no-browser", "app", "view_dice", "--csp", c.mode)
		p.wait(func() bool { return strings.Contains(p.errOut.String(), "under CSP:") })
		if !strings.Contains(p.errOut.String(), c.want) {
			t.Errorf("--csp %s: stderr\n%s\nwant %q", c.mode, p.errOut.String(), c.want)
		}
		if err := p.cmd.Process.Signal(os.Interrupt); err != nil {
			t.Fatal(err)
		}
		p.wait(func() bool { return p.ended })
	}
}
