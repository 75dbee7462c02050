package protocol

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestFindingTable: every Find… code the package declares has exactly one row of the one
// finding table (with an explanation), the table holds no other code, and nothing in the
// package merges into it at start: no file has an init function.
func TestFindingTable(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var declared []string
	fset := token.NewFileSet()
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Name.Name == "init" && d.Recv == nil {
					t.Errorf("%s: an init function; build tables on first use (sync.OnceValue)", fset.Position(d.Pos()))
				}
			case *ast.GenDecl:
				if d.Tok != token.CONST {
					continue
				}
				for _, spec := range d.Specs {
					vs := spec.(*ast.ValueSpec)
					for i, name := range vs.Names {
						if !strings.HasPrefix(name.Name, "Find") || i >= len(vs.Values) {
							continue
						}
						if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
							code, _ := strconv.Unquote(lit.Value)
							declared = append(declared, code)
						}
					}
				}
			}
		}
	}
	if len(declared) < 50 {
		t.Fatalf("found %d Find… constants; the parse no longer sees the codes", len(declared))
	}
	slices.Sort(declared)
	if got := FindingCodes(); !slices.Equal(got, declared) {
		for _, c := range declared {
			if !slices.Contains(got, c) {
				t.Errorf("%s is declared but has no row in the finding table", c)
			}
		}
		for _, c := range got {
			if !slices.Contains(declared, c) {
				t.Errorf("%s has a row in the finding table but no Find… constant", c)
			}
		}
	}
	for _, c := range declared {
		if Explain(c) == "" {
			t.Errorf("%s has no explanation", c)
		}
	}
}
