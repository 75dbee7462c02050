package protocol

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestPointerTokens: the examples of RFC 6901 §5, and tokens that hold the escapes
// themselves, survive the escape and the unescape.
func TestPointerTokens(t *testing.T) {
	for _, tc := range []struct{ raw, escaped string }{
		{"foo", "foo"}, {"", ""}, {"a/b", "a~1b"}, {"m~n", "m~0n"}, {"c%d", "c%d"}, {" ", " "},
		{"~1", "~01"}, {"~0", "~00"}, {"/~", "~1~0"}, {"a/b~c", "a~1b~0c"},
	} {
		if got := PointerToken(tc.raw); got != tc.escaped {
			t.Errorf("PointerToken(%q) = %q, want %q", tc.raw, got, tc.escaped)
		}
		if got := UnescapePointerToken(tc.escaped); got != tc.raw {
			t.Errorf("UnescapePointerToken(%q) = %q, want %q", tc.escaped, got, tc.raw)
		}
	}
	toks := []string{"tools", "0", "a/b", "m~n", ""}
	p := JoinPointer(toks)
	if p != "/tools/0/a~1b/m~0n/" {
		t.Errorf("JoinPointer(%q) = %q", toks, p)
	}
	if got := SplitPointer(p); !slices.Equal(got, toks) {
		t.Errorf("SplitPointer(%q) = %q, want %q", p, got, toks)
	}
	if JoinPointer(nil) != "" || SplitPointer("") != nil {
		t.Errorf("the whole document: JoinPointer(nil) = %q, SplitPointer(\"\") = %q", JoinPointer(nil), SplitPointer(""))
	}
}

// FuzzPointerToken: the unescape undoes the escape for every string.
func FuzzPointerToken(f *testing.F) {
	for _, s := range []string{"", "a/b", "~01", "~~//", "~1/~0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got := UnescapePointerToken(PointerToken(s)); got != s {
			t.Errorf("UnescapePointerToken(PointerToken(%q)) = %q", s, got)
		}
		if strings.Contains(strings.ReplaceAll(PointerToken(s), "~0", ""), "/") {
			t.Errorf("PointerToken(%q) = %q holds a /", s, PointerToken(s))
		}
	})
}

// TestOnePointerEscape: outside pointer.go no program file of the module spells a JSON
// pointer escape ("~0", "~1"): every pointer is built and read through PointerToken,
// UnescapePointerToken, JoinPointer and SplitPointer.
func TestOnePointerEscape(t *testing.T) {
	root := moduleRoot(t)
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (name == "testdata" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") || rel == "protocol/pointer.go" {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files++
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if s, err := strconv.Unquote(lit.Value); err == nil && (s == "~0" || s == "~1") {
					t.Errorf("%s:%d: spells the JSON pointer escape %q; use protocol.PointerToken or UnescapePointerToken", rel, fset.Position(lit.Pos()).Line, s)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 200 {
		t.Fatalf("searched %d files; the walk no longer finds the module's sources", files)
	}
}
