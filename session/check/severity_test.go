package check_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestSeverityDecidedByTheTable: a finding's severity is decided in protocol's tables alone.
// No source file of the session packages assigns a Severity, or writes a severity constant
// into a literal (copying a finding's severity is fine); a step that saw something of
// another weight passes protocol.Evidence instead.
func TestSeverityDecidedByTheTable(t *testing.T) {
	files, err := filepath.Glob("../*/*.go")
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob("../*.go")
	files = append(files, more...)
	fset := token.NewFileSet()
	checked := 0
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") || strings.Contains(path, "sessiontest") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for _, lhs := range n.Lhs {
					if sel, ok := lhs.(*ast.SelectorExpr); ok && sel.Sel.Name == "Severity" {
						t.Errorf("%s: sets a Severity; pass protocol.Evidence to protocol.NewFindingOn", fset.Position(n.Pos()))
					}
				}
			case *ast.KeyValueExpr:
				if id, ok := n.Key.(*ast.Ident); ok && id.Name == "Severity" && isSevConst(n.Value) {
					t.Errorf("%s: a literal with a Severity; pass protocol.Evidence to protocol.NewFindingOn", fset.Position(n.Pos()))
				}
			}
			return true
		})
	}
	if checked < 20 {
		t.Fatalf("checked only %d files: the glob no longer finds the session packages", checked)
	}
}

// isSevConst reports whether e names one of protocol's severity constants.
func isSevConst(e ast.Expr) bool {
	name := ""
	switch e := e.(type) {
	case *ast.SelectorExpr:
		name = e.Sel.Name
	case *ast.Ident:
		name = e.Name
	}
	return name == "SevError" || name == "SevWarning" || name == "SevInfo"
}
