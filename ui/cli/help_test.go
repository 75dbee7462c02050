package cli_test

import (
	"strings"
	"testing"
)

// TestHelpListsOpen: mcpscope --help names the open command (the default one), with what it
// takes, among the others.
func TestHelpListsOpen(t *testing.T) {
	out, errOut, code := mainIn(t, "--help")
	if code != 0 {
		t.Fatalf("--help: exit %d, stderr %q", code, errOut)
	}
	_, cmds, ok := strings.Cut(out, "\nCommands:\n")
	if !ok {
		t.Fatalf("--help has no command list:\n%s", out)
	}
	if !strings.Contains(cmds, "\n  open ") && !strings.HasPrefix(cmds, "  open ") {
		t.Errorf("--help does not list open:\n%s", cmds)
	}
	if !strings.Contains(cmds, "recording") {
		t.Errorf("open's help line does not say it opens a recording:\n%s", cmds)
	}
}

// TestVersionFlag: --version prints what the version command prints and exits 0.
func TestVersionFlag(t *testing.T) {
	want, _, code := mainIn(t, "version")
	if code != 0 || !strings.HasPrefix(want, "mcpscope ") {
		t.Fatalf("version: exit %d, %q", code, want)
	}
	got, errOut, code := mainIn(t, "--version")
	if code != 0 || got != want || errOut != "" {
		t.Errorf("--version: exit %d, stdout %q, stderr %q; want exit 0 and %q", code, got, errOut, want)
	}
}

// TestVersionQuickAndParsed: `version` and `--version` alone are answered before the
// parser is built; with any other argument they go through it, and say the same.
func TestVersionQuickAndParsed(t *testing.T) {
	want, _, _ := mainIn(t, "version")
	for _, args := range [][]string{{"--trace", "version"}, {"version", "--trace"}, {"--version", "--trace"}} {
		got, errOut, code := mainIn(t, args...)
		if code != 0 || got != want {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 0 and %q", args, code, got, errOut, want)
		}
	}
	if _, errOut, code := mainIn(t, "version", "extra"); code == 0 || !strings.Contains(errOut, "extra") {
		t.Errorf("version extra: exit %d, stderr %q; want a usage error naming the argument", code, errOut)
	}
}
