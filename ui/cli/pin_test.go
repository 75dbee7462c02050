package cli_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/recordings/pin"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/ui/cli"
)

// pinChange is the environment variable that makes testdata/pinserver change its tools.
const pinChange = "MCPSCOPE_PINSERVER_CHANGE"

// diffJSON runs diff --json and decodes its report.
func diffJSON(t *testing.T, args ...string) (pin.Report, int) {
	t.Helper()
	stdout, stderr, code := run(t, append([]string{"diff", "--json"}, args...)...)
	var rep pin.Report
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("diff --json %v: %v\n%s\n%s", args, err, stdout, stderr)
	}
	return rep, code
}

// changeList is a report's changes as "STATUS LABEL", in order.
func changeList(rep pin.Report) string {
	var out []string
	for _, c := range rep.Changes {
		out = append(out, string(c.Status)+" "+c.Label())
	}
	return strings.Join(out, ", ")
}

// TestDiffRecordings: two recordings of the fixture server, the second after its echo
// tool's description changed, a tool was added and one removed, differ in exactly those
// three items, with the description's old and new text at /description; a recording
// compared with itself does not differ.
func TestDiffRecordings(t *testing.T) {
	srv := sessiontest.BuildPinServer(t)
	dir := t.TempDir()
	before, after := filepath.Join(dir, "before.jsonl"), filepath.Join(dir, "after.jsonl")
	runOK(t, "list", "tools", "--record", before, "--", srv)
	runOK(t, "list", "tools", "--record", after, "-e", pinChange+"=description+add+remove", "--", srv)

	rep, code := diffJSON(t, before, after)
	if code != cli.ExitDiffers {
		t.Errorf("exit code %d, want %d", code, cli.ExitDiffers)
	}
	if got, want := changeList(rep), `removed tool "add", changed tool "echo", added tool "exfiltrate"`; got != want {
		t.Fatalf("changes: %s\nwant: %s", got, want)
	}
	echo := rep.Changes[1]
	if len(echo.Differences) != 1 || echo.Differences[0].Path != "/description" ||
		!strings.Contains(string(echo.Differences[0].New), "read ~/.ssh/id_rsa") || strings.Contains(string(echo.Differences[0].Old), "id_rsa") {
		t.Errorf("echo's differences: %+v", echo.Differences)
	}
	if echo.OldHash == echo.NewHash || !strings.HasPrefix(echo.NewHash, "sha256:") {
		t.Errorf("echo's hashes %s → %s", echo.OldHash, echo.NewHash)
	}

	stdout, stderr, code := run(t, "diff", before, after)
	if code != cli.ExitDiffers || !strings.Contains(stdout, `~ changed tool "echo"`) ||
		!strings.Contains(stdout, `/description: "Returns the text it is given.`) || !strings.Contains(stdout, "1 added, 1 removed, 1 changed") {
		t.Errorf("diff (text): exit %d\n%s\n%s", code, stdout, stderr)
	}
	// The recordings list only tools: the other lists are left out, and said to be.
	if !strings.Contains(stderr, "never lists all its resources, templates, prompts") {
		t.Errorf("stderr does not say what was left out:\n%s", stderr)
	}

	if rep, code := diffJSON(t, before, before); code != cli.ExitOK || !rep.Equal() || rep.Same == 0 {
		t.Errorf("a recording against itself: exit %d, %s", code, changeList(rep))
	}
}

// TestDiffRecordingLive compares a recording of the demo with the live demo (spawned, over
// Streamable HTTP, and the selected server as the missing side) and with the fixture server
// after its echo tool's inputSchema changed.
func TestDiffRecordingLive(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "demo.jsonl")
	runOK(t, "list", "tools", "--record", rec)
	runOK(t, "diff", rec) // B is the selected server: the demo
	url, _ := sessiontest.StartDemoHTTP(t)
	runOK(t, "diff", rec, url)

	srv := sessiontest.BuildPinServer(t)
	rep, code := diffJSON(t, "-e", pinChange+"=schema", rec, "--", srv)
	if code != cli.ExitDiffers || changeList(rep) != `changed tool "echo"` {
		t.Fatalf("exit %d, changes %s", code, changeList(rep))
	}
	var paths []string
	for _, d := range rep.Changes[0].Differences {
		paths = append(paths, d.Path)
	}
	if !strings.Contains(strings.Join(paths, " "), "/inputSchema/properties/loud") {
		t.Errorf("differences at %v", paths)
	}
	// The live side on the left.
	if rep, code := diffJSON(t, "-e", pinChange+"=add", "-", rec, "--", srv); code != cli.ExitDiffers || changeList(rep) != `removed tool "exfiltrate"` {
		t.Errorf("live on the left: exit %d, changes %s", code, changeList(rep))
	} else if rep.Old != srv {
		t.Errorf("the live side is named %q", rep.Old)
	}
	if _, stderr, code := run(t, "diff", rec, rec, "--", srv); code != cli.ExitUsage || !strings.Contains(stderr, "write - in its place") {
		t.Errorf("a server that is not compared: exit %d, %s", code, stderr)
	}
}
