package replay

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/ui"
	"github.com/mcpscope/mcpscope/ui/internal/jsonview"
)

// TestReplayProgress runs a real replay against the demo server through the report's
// commands: the progress it sends reaches the model, which shows it while the replay runs,
// and the last one counts every request of the recording.
func TestReplayProgress(t *testing.T) {
	file := recordEcho(t)
	m := replayModel(t, file, sessiontest.BuildMCPScope(t), "demo")
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	done := RunCmd(m.ctx, m.opts, m.progress)()
	// Nothing took the progress while the replay ran: the channel holds the latest.
	last, ok := waitProgressCmd(m.ctx, m.progress)().(progressMsg)
	if !ok {
		t.Fatal("the replay sent no progress")
	}
	m.Update(last)
	total := m.opts.Transcript.Requests
	if total < 1 || last.done != total || last.total != total {
		t.Fatalf("last progress %+v, the recording has %d requests", last, total)
	}
	if v := m.Render(); !strings.Contains(v, "requests replayed (100%)") {
		t.Errorf("the view while replaying does not show the progress:\n%s", v)
	}
	m.Update(done)
	if v := m.Render(); strings.Contains(v, "requests replayed") {
		t.Errorf("the report still shows the progress:\n%s", v)
	}
}

// TestMethodTarget: the replay table names what a call acted on, escaped.
func TestMethodTarget(t *testing.T) {
	if got := MethodTarget(recordings.Result{Method: "tools/call", Target: "add"}); got != "tools/call add" {
		t.Errorf("MethodTarget = %q", got)
	}
	if got := MethodTarget(recordings.Result{Method: "ping"}); got != "ping" {
		t.Errorf("MethodTarget = %q", got)
	}
	if got := MethodTarget(recordings.Result{Method: "tools/call", Target: "evil\x1b[2J"}); strings.Contains(got, "\x1b") {
		t.Errorf("methodTarget passes an escape sequence: %q", got)
	}
}

// TestReportColumnsByCells: the report's status column starts at the same cell on every
// row when targets hold wide characters or escapes, which show set apart.
func TestReportColumnsByCells(t *testing.T) {
	m := New(ui.NewCommon(nil), Options{Transcript: &recordings.Transcript{Path: "x.jsonl"}, Target: "demo"})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 20})
	m.Update(doneMsg{rep: &recordings.Report{Results: []recordings.Result{
		{N: 1, Method: "tools/call", Target: "読む", Status: recordings.StatusSame},
		{N: 2, Method: "tools/call", Target: "add\u200b", Status: recordings.StatusSame},
		{N: 3, Method: "tools/call", Target: "add", Status: recordings.StatusSame},
	}}})
	screen := m.Render()
	if !strings.Contains(screen, jsonview.MarkOn+`\u200b`+jsonview.MarkOff) {
		t.Errorf("the escape is not set apart:\n%q", screen)
	}
	col := -1
	for _, target := range []string{"読む", `add\u200b`, "add "} {
		row := screenRow(ansi.Strip(screen), "tools/call "+target)
		i := strings.Index(row, "same")
		if i < 0 {
			t.Fatalf("no row for %s:\n%s", target, ansi.Strip(screen))
		}
		if c := ansi.StringWidth(row[:i]); col >= 0 && c != col {
			t.Errorf("the status of %s starts at cell %d, want %d:\n%s", target, c, col, ansi.Strip(screen))
		} else {
			col = c
		}
	}
}
