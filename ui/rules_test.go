package ui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The UI rules of ARCHITECTURE.md that a syntax check can pin: no I/O in Update or View, and
// no model change inside a command. rules_payload_test.go pins a third: no work proportional
// to a payload reached from Update or View.

// ioPackages are the import paths whose functions Update and View must not call: their work
// belongs in a tea.Cmd.
func isIOPackage(path string) bool {
	for _, p := range []string{"os", "io", "net"} {
		if path == p || strings.HasPrefix(path, p+"/") {
			return true
		}
	}
	return false
}

// ruleViolations parses the non-test Go files of dir and its subdirectories and returns one
// line per broken rule, as file:line: what.
func ruleViolations(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		imports := map[string]string{} // local name → import path
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			name := p[strings.LastIndex(p, "/")+1:]
			if im.Name != nil {
				name = im.Name.Name
			}
			imports[name] = p
		}
		report := func(n ast.Node, what string) {
			out = append(out, fset.Position(n.Pos()).String()+": "+what)
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil || fn.Recv == nil {
				continue
			}
			if fn.Name.Name == "Update" || fn.Name.Name == "View" {
				checkNoIO(fn, imports, report)
			}
			if names := fn.Recv.List[0].Names; len(names) == 1 {
				checkCmdsLeaveModel(fn.Body, names[0].Name, imports, report)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// checkNoIO reports the calls of I/O packages and of time.Sleep in fn's own body; function
// literals (the commands it returns) are not its body.
func checkNoIO(fn *ast.FuncDecl, imports map[string]string, report func(ast.Node, string)) {
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		pkg, ok := sel.X.(*ast.Ident)
		if !ok {
			return true
		}
		path := imports[pkg.Name]
		if isIOPackage(path) || (path == "time" && sel.Sel.Name == "Sleep") {
			report(call, fn.Name.Name+" calls "+pkg.Name+"."+sel.Sel.Name+": do it in a tea.Cmd")
		}
		return true
	})
}

// checkCmdsLeaveModel reports assignments to recv's fields inside function literals that
// return a tea.Msg (commands and tick callbacks): they run on another goroutine, so the model
// changes only in Update, from the message the command returns.
func checkCmdsLeaveModel(body *ast.BlockStmt, recv string, imports map[string]string, report func(ast.Node, string)) {
	ast.Inspect(body, func(n ast.Node) bool {
		lit, ok := n.(*ast.FuncLit)
		if !ok || !returnsMsg(lit.Type, imports) {
			return true
		}
		ast.Inspect(lit.Body, func(n ast.Node) bool {
			var lhs []ast.Expr
			switch s := n.(type) {
			case *ast.AssignStmt:
				lhs = s.Lhs
			case *ast.IncDecStmt:
				lhs = []ast.Expr{s.X}
			}
			for _, e := range lhs {
				if rootIdent(e) == recv {
					report(e, "a command assigns to "+recv+"'s fields: return a message instead")
				}
			}
			return true
		})
		return false
	})
}

// returnsMsg reports whether a function type's only result is tea.Msg.
func returnsMsg(ft *ast.FuncType, imports map[string]string) bool {
	if ft.Results == nil || len(ft.Results.List) != 1 {
		return false
	}
	sel, ok := ft.Results.List[0].Type.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Msg" {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && imports[pkg.Name] == "charm.land/bubbletea/v2"
}

// rootIdent returns the name at the root of a selector/index chain (m in m.a.b[i]), or "".
func rootIdent(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.Ident:
			return x.Name
		case *ast.SelectorExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		default:
			return ""
		}
	}
}

// TestUIRules checks ui/ and its subpackages against the rules.
func TestUIRules(t *testing.T) {
	for _, v := range ruleViolations(t, ".") {
		t.Error(v)
	}
}

// TestUIRulesCatchViolations proves the check can fail: a file breaking both rules is reported.
func TestUIRulesCatchViolations(t *testing.T) {
	dir := t.TempDir()
	src := `package bad

import (
	"os"
	"time"

	tea "charm.land/bubbletea/v2"
)

type M struct{ n int; s []string }

func (m *M) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, _ = os.ReadFile("x")
	return m, func() tea.Msg { os.Getenv("ok in a command"); return nil }
}

func (m M) View() string { time.Sleep(time.Millisecond); return "" }

func (m *M) load() tea.Cmd {
	return func() tea.Msg { m.n++; m.s[0] = "x"; return nil }
}
`
	if err := os.WriteFile(filepath.Join(dir, "bad.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(ruleViolations(t, dir), "\n")
	for _, want := range []string{"bad.go:13:9: Update calls os.ReadFile", "bad.go:17:28: View calls time.Sleep",
		"bad.go:20:26: a command assigns", "bad.go:20:33: a command assigns"} {
		if !strings.Contains(got, want) {
			t.Errorf("violation %q not reported; got:\n%s", want, got)
		}
	}
	if strings.Contains(got, "Getenv") {
		t.Errorf("a call inside a command was reported as Update's:\n%s", got)
	}
}
