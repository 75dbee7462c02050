package ui

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// The replay report's key table in README.md sits between these two lines.
const (
	replayKeysBegin = "<!-- replay-keys:begin -->\n"
	replayKeysEnd   = "<!-- replay-keys:end -->"
)

// TestReadmeReplayKeyTable checks that README.md's table of the replay report's keys is
// the one its keymap generates. Regenerate it with
//
//	go test ./ui -run Readme -update-readme
func TestReadmeReplayKeyTable(t *testing.T) {
	path := filepath.Join("..", "README.md")
	readme, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	start := bytes.Index(readme, []byte(replayKeysBegin))
	if start < 0 {
		t.Fatalf("README.md has no line %q", replayKeysBegin[:len(replayKeysBegin)-1])
	}
	start += len(replayKeysBegin)
	n := bytes.Index(readme[start:], []byte(replayKeysEnd))
	if n < 0 {
		t.Fatalf("README.md has no line %q after the replay key table", replayKeysEnd)
	}
	end := start + n
	want := NewReplayKeyMap(DefaultKeyMap()).MarkdownTable()
	if *updateReadme {
		var out bytes.Buffer
		out.Write(readme[:start])
		out.WriteString(want)
		out.Write(readme[end:])
		if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got := string(readme[start:end]); got != want {
		t.Errorf("README.md's replay key table is not the one the keymap generates; run\n"+
			"  go test ./ui -run Readme -update-readme\nREADME.md has:\n%s\nthe keymap generates:\n%s", got, want)
	}
}
