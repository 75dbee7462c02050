package ui

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpscope/mcpscope/protocol/query"
)

// updateReadme rewrites README.md's key table from the keymap instead of checking it.
var updateReadme = flag.Bool("update-readme", false, "rewrite the key and filter tables in README.md from DefaultKeyMap and query.Fields")

// The key table and the filter table in README.md each sit between two such lines.
const (
	keysBegin    = "<!-- keys:begin -->\n"
	keysEnd      = "<!-- keys:end -->"
	filtersBegin = "<!-- filters:begin -->\n"
	filtersEnd   = "<!-- filters:end -->"
)

// TestReadmeKeyTable checks that README.md's key table is the one generated from the
// keymap, so the documentation cannot drift from the bindings. Regenerate it with
//
//	go test ./ui -run Readme -update-readme
func TestReadmeKeyTable(t *testing.T) {
	checkReadmeSection(t, "key table", keysBegin, keysEnd, DefaultKeyMap().MarkdownTable())
}

// TestReadmeFilterTable checks that README.md's filter table is the one generated from the
// filter's table of fields (query.Fields), which the parser, the help screen and the
// filter input's placeholder read too. Regenerate it with
//
//	go test ./ui -run Readme -update-readme
func TestReadmeFilterTable(t *testing.T) {
	checkReadmeSection(t, "filter table", filtersBegin, filtersEnd, query.MarkdownTable())
}

// checkReadmeSection compares the part of README.md between the lines begin and end with
// want, or rewrites it with -update-readme.
func checkReadmeSection(t *testing.T, what, begin, end, want string) {
	t.Helper()
	path := filepath.Join("..", "README.md")
	readme, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	start := bytes.Index(readme, []byte(begin))
	if start < 0 || (start > 0 && readme[start-1] != '\n') {
		t.Fatalf("README.md has no line %q before the %s", begin[:len(begin)-1], what)
	}
	start += len(begin)
	n := bytes.Index(readme[start:], []byte(end))
	if n < 0 || (n > 0 && readme[start+n-1] != '\n') {
		t.Fatalf("README.md has no line %q after the %s", end, what)
	}
	stop := start + n
	if *updateReadme {
		var out bytes.Buffer
		out.Write(readme[:start])
		out.WriteString(want)
		out.Write(readme[stop:])
		if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got := string(readme[start:stop]); got != want {
		t.Errorf("README.md's %s is not the one the code generates; run\n"+
			"  go test ./ui -run Readme -update-readme\nREADME.md has:\n%s\nthe code generates:\n%s", what, got, want)
	}
}
