package ui_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// TestTmuxReplayReport records a call against the demo server, replays it with --tui
// against a server whose echo tool answers differently, sees the report with the
// difference marked, quits, and gets the replay's exit code, 1.
func TestTmuxReplayReport(t *testing.T) {
	t.Parallel()
	bin := sessiontest.BuildMCPScope(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "echo.jsonl")
	rec := exec.Command(bin, "--record", file, "call", "echo", "text=hello")
	rec.Env = append(os.Environ(), "XDG_STATE_HOME="+filepath.Join(dir, "state"))
	if out, err := rec.CombinedOutput(); err != nil {
		t.Fatalf("record: %v\n%s", err, out)
	}
	tm := startTerm(t, 100, 30, "replay", file, "--tui", "--", sessiontest.BuildChangedServer(t))
	tm.waitFor("the report with one difference, marked", func(s string) bool {
		return strings.Contains(statusLine(s), "1 different") && bodyHas(s, "▌", `"text": "hello"`) &&
			bodyContains(s, `/result/content/0/text: "hello" → "hello (changed)"`)
	})
	tm.keys("v")
	tm.waitFor("the live response", func(s string) bool {
		return bodyContains(s, "live response") && bodyHas(s, "▌", `"text": "hello (changed)"`)
	})
	tm.keys("q")
	deadline := time.Now().Add(waitTimeout)
	for {
		if code, ok := tm.exitCode(); ok {
			if code != 1 {
				t.Fatalf("mcpscope replay --tui exited with %d after q, want 1 (the responses differ)", code)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("mcpscope replay --tui did not exit within %s after q", waitTimeout)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
