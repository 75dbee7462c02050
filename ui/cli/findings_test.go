package cli_test

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/ui/cli"
)

// TestFindingsLine: a headless command on a server that printed a banner on stdout says
// so in one line on stderr; a clean session says nothing; --quiet drops the line.
func TestFindingsLine(t *testing.T) {
	bad := sessiontest.BuildBadServer(t)
	_, stderr, code := run(t, "list", "tools", "--", bad, "-banner")
	if code != cli.ExitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	want := "mcpscope: 1 finding: " + protocol.FindNotJSON + " ×1; --trace for details\n"
	if !strings.Contains(stderr, want) {
		t.Errorf("banner: stderr lacks %q:\n%s", want, stderr)
	}
	if n := strings.Count(stderr, "finding"); n != 1 {
		t.Errorf("banner: %d mentions of findings, want one line:\n%s", n, stderr)
	}
	if _, stderr, code = run(t, "list", "tools", "--quiet", "--", bad, "-banner"); code != cli.ExitOK || strings.Contains(stderr, "finding") {
		t.Errorf("--quiet: exit %d, stderr:\n%s", code, stderr)
	}
	if _, stderr, code = run(t, "list", "tools", "--", bad); code != cli.ExitOK || strings.Contains(stderr, "finding") {
		t.Errorf("clean: exit %d, stderr:\n%s", code, stderr)
	}
}
