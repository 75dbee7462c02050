package ui

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

// updateReadme rewrites README.md's key table from the keymap instead of checking it.
var updateReadme = flag.Bool("update-readme", false, "rewrite the key table in README.md from DefaultKeyMap")

// The key table in README.md sits between these two lines.
const (
	keysBegin = "<!-- keys:begin -->\n"
	keysEnd   = "<!-- keys:end -->"
)

// TestReadmeKeyTable checks that README.md's key table is the one generated from the
// keymap, so the documentation cannot drift from the bindings. Regenerate it with
//
//	go test ./ui -run Readme -update-readme
func TestReadmeKeyTable(t *testing.T) {
	path := filepath.Join("..", "README.md")
	readme, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	start := bytes.Index(readme, []byte(keysBegin))
	if start < 0 || (start > 0 && readme[start-1] != '\n') {
		t.Fatalf("README.md has no line %q before the key table", keysBegin[:len(keysBegin)-1])
	}
	start += len(keysBegin)
	n := bytes.Index(readme[start:], []byte(keysEnd))
	if n < 0 || (n > 0 && readme[start+n-1] != '\n') {
		t.Fatalf("README.md has no line %q after the key table", keysEnd)
	}
	end := start + n
	want := DefaultKeyMap().MarkdownTable()
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
		t.Errorf("README.md's key table is not the one the keymap generates; run\n"+
			"  go test ./ui -run Readme -update-readme\nREADME.md has:\n%s\nthe keymap generates:\n%s", got, want)
	}
}
