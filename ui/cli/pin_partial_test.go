package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/ui/cli"
)

// TestPinPartialServer: a server that declares resources but answers -32601 to
// resources/templates/list (as server-postgres does) is a server without templates.
// check warns and --pin pins the rest; diff compares the rest with a warning, and a
// recording of it holds the templates listing as empty; a list that fails otherwise makes
// diff exit with its own code (9), never 1, which says that the definitions differ.
func TestPinPartialServer(t *testing.T) {
	t.Parallel()
	srv := sessiontest.BuildPinServer(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "pins.json")
	partial := []string{pinChange + "=notemplates"}

	stdout, stderr, code := runEnv(t, partial, "check", "--pin", file, "--", srv)
	if code != cli.ExitOK {
		t.Fatalf("check --pin: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "resources/templates/list failed") || !strings.Contains(stdout, "treated as having none") {
		t.Errorf("check gives no warning about the templates:\n%s", stdout)
	}
	if !strings.Contains(stdout, "pinned ") {
		t.Errorf("check --pin says nothing of the pins:\n%s", stdout)
	}
	b, err := os.ReadFile(file)
	if err != nil || !strings.Contains(string(b), `"echo"`) {
		t.Fatalf("the pin file was not written whole (%v):\n%.300s", err, b)
	}

	stdout, stderr, code = runEnv(t, partial, "diff", file, "--", srv)
	if code != cli.ExitOK || !strings.Contains(stdout, "no changes") {
		t.Errorf("diff with the pins: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, "warning") || !strings.Contains(stderr, "resources/templates/list") {
		t.Errorf("diff does not warn about the templates:\n%s", stderr)
	}

	rec := filepath.Join(dir, "rec.jsonl")
	_, stderr, code = runEnv(t, partial, "--record", rec, "list", "templates", "--", srv)
	if code != cli.ExitRPCError {
		t.Fatalf("list templates: exit %d, want the server's error\n%s", code, stderr)
	}
	_, stderr, _ = runEnv(t, nil, "diff", rec, file)
	if !strings.Contains(stderr, "left out") || strings.Contains(stderr, "templates") {
		t.Errorf("a recording of the -32601 answer leaves the templates out instead of holding none:\n%s", stderr)
	}

	stdout, stderr, code = runEnv(t, []string{pinChange + "=failprompts"}, "diff", file, "--", srv)
	if code != cli.ExitNotCompared {
		t.Errorf("diff with a list that fails: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, cli.ExitNotCompared, stdout, stderr)
	}
	if !strings.Contains(stderr, "could not compare") || !strings.Contains(stderr, "prompt store is down") {
		t.Errorf("diff does not say why it could not compare:\n%s", stderr)
	}
}
