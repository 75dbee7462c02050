package cli_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/recordings"
)

// TestStats records calls to the demo server (one that succeeds, one that is a tool
// error) and reads the recording's figures with mcpscope stats, as JSON and as a table.
func TestStats(t *testing.T) {
	dir := t.TempDir()
	ok, failed := filepath.Join(dir, "ok.jsonl"), filepath.Join(dir, "fail.jsonl")
	runOK(t, "--record", ok, "call", "echo", "text=hello")
	run(t, "--record", failed, "call", "fail")

	var out struct {
		Events  int                      `json:"events"`
		Frames  int                      `json:"frames"`
		Methods []recordings.MethodStats `json:"methods"`
		Total   recordings.MethodStats   `json:"total"`
	}
	for _, c := range []struct {
		file   string
		errors int
	}{{ok, 0}, {failed, 1}} {
		if err := json.Unmarshal([]byte(runOK(t, "stats", "--json", c.file)), &out); err != nil {
			t.Fatal(err)
		}
		var call *recordings.MethodStats
		for i := range out.Methods {
			if out.Methods[i].Method == "tools/call" {
				call = &out.Methods[i]
			}
		}
		if call == nil || call.Requests != 1 || call.Responses != 1 || call.Errors != c.errors || call.P50 <= 0 ||
			call.P99 != call.P50 || call.BytesOut == 0 || call.BytesIn == 0 {
			t.Errorf("%s: tools/call %+v", filepath.Base(c.file), call)
		}
		if out.Events <= out.Frames || out.Total.Errors != c.errors || out.Total.Requests < 2 {
			t.Errorf("%s: %d events, %d frames, total %+v", filepath.Base(c.file), out.Events, out.Frames, out.Total)
		}
	}
	table := runOK(t, "stats", failed)
	lines := strings.Split(strings.TrimSpace(table), "\n")
	if !strings.HasPrefix(strings.TrimSpace(lines[0]), "method") || !strings.Contains(lines[0], "p95") ||
		!strings.Contains(table, "tools/call") || !strings.HasPrefix(strings.TrimSpace(lines[len(lines)-2]), "(all)") ||
		!strings.Contains(lines[len(lines)-1], "events") {
		t.Errorf("table:\n%s", table)
	}
	if _, stderr, code := run(t, "stats", filepath.Join(dir, "missing.jsonl")); code == 0 || !strings.Contains(stderr, "missing.jsonl") {
		t.Errorf("a missing file: exit %d, %s", code, stderr)
	}
}
