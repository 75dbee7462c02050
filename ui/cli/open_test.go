package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/recordings"
)

// TestOpenRecordsByDefault makes the interactive view's recorder in the per-user
// directory ($XDG_STATE_HOME here), deleting the oldest recordings past --keep; --record
// FILE and --no-record choose otherwise.
func TestOpenRecordsByDefault(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	dir := filepath.Join(state, "mcpscope", "recordings")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	for _, name := range []string{"mcpscope-a.jsonl", "mcpscope-b.jsonl", "mcpscope-c.jsonl"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("{}\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		old = old.Add(time.Minute)
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	r := &runner{flags: &ServerFlags{}, stderr: os.Stderr}
	c := OpenCmd{Keep: 2, KeepSize: "1GiB"}
	rec, err := c.recorder(r, recordings.Header{Server: "demo"}, recordings.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(rec.Path) != dir || !strings.HasPrefix(filepath.Base(rec.Path), "mcpscope-") {
		t.Errorf("recording at %s, want a new file in %s", rec.Path, dir)
	}
	left, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if len(left) != 2 || !contains(left, rec.Path) || !contains(left, filepath.Join(dir, "mcpscope-c.jsonl")) {
		t.Errorf("after --keep 2: %v; want the new recording and the newest old one", left)
	}

	r.flags.Record = filepath.Join(t.TempDir(), "mine.jsonl")
	if rec, err = c.recorder(r, recordings.Header{}, recordings.Options{}); err != nil || rec.Path != r.flags.Record {
		t.Fatalf("--record: %v %v", rec, err)
	}
	_ = rec.Close()
	c.NoRecord = true
	if _, err := c.recorder(r, recordings.Header{}, recordings.Options{}); err == nil {
		t.Errorf("--record with --no-record is accepted")
	}
	r.flags.Record = ""
	if rec, err := c.recorder(r, recordings.Header{}, recordings.Options{}); rec != nil || err != nil {
		t.Errorf("--no-record still records: %v %v", rec, err)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestParseSize reads --keep-size values.
func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"1GiB": 1 << 30, "500MB": 500e6, "1048576": 1 << 20, "2k": 2048, "1.5G": 3 << 29} {
		if got, err := parseSize(in); err != nil || got != want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "GB", "1XB", "-1"} {
		if _, err := parseSize(bad); err == nil {
			t.Errorf("parseSize(%q) accepted", bad)
		}
	}
}
