package ui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The UI rule "no work proportional to a payload in Update or View" (DESIGN.md 21), as far
// as a syntax check can pin it: Update and View, and every function of the package they
// call (a command they return is not a call), must not reach a function whose work grows
// with a result or a frame, except through a function whose doc comment says why its work
// is bounded, in a paragraph that starts with "Bounded:". Calls are matched by name, so
// a method is taken to be any method of that name: the check errs on the side of
// reporting.

// payloadFuncs are the package's functions whose work grows with the payload they are given.
var payloadFuncs = map[string]string{
	"RenderResult":  "lays out a whole result",
	"highlightBody": "highlights a whole body with chroma",
	"prettyJSON":    "re-indents a whole body",
}

// payloadFunc is one function or method of the package, with its file's imports.
type payloadFunc struct {
	decl    *ast.FuncDecl
	imports map[string]string
	bounded bool
}

// payloadViolations parses the non-test Go files of dir (one package) and returns one line
// per call that reaches a payload function from Update or View, as file:line: the path.
func payloadViolations(t *testing.T, dir string) []string {
	t.Helper()
	fset := token.NewFileSet()
	byName := map[string][]*payloadFunc{}
	var roots []*payloadFunc
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range paths {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		imports := map[string]string{}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			name := p[strings.LastIndex(p, "/")+1:]
			if im.Name != nil {
				name = im.Name.Name
			}
			imports[name] = p
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			pf := &payloadFunc{decl: fn, imports: imports, bounded: fn.Doc != nil && boundedDoc(fn.Doc.Text())}
			byName[fn.Name.Name] = append(byName[fn.Name.Name], pf)
			if fn.Recv != nil && (fn.Name.Name == "Update" || fn.Name.Name == "View") {
				roots = append(roots, pf)
			}
		}
	}
	reported := map[token.Pos]string{}
	for _, root := range roots {
		// Breadth first, so a report shows the shortest path. Another Update or View is a
		// root of its own, not followed.
		type step struct {
			pf   *payloadFunc
			path []string
		}
		seen := map[*payloadFunc]bool{root: true}
		queue := []step{{root, []string{funcName(root.decl)}}}
		for len(queue) > 0 {
			st := queue[0]
			queue = queue[1:]
			pf := st.pf
			ast.Inspect(pf.decl.Body, func(n ast.Node) bool {
				if lit, ok := n.(*ast.FuncLit); ok && returnsMsg(lit.Type, pf.imports) {
					return false // a command: it runs off the UI loop
				}
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				name := calleeName(call, pf.imports)
				if why, ok := payloadFuncs[name]; ok {
					if _, done := reported[call.Pos()]; !done {
						reported[call.Pos()] = fset.Position(call.Pos()).String() + ": " + strings.Join(st.path, " → ") +
							" calls " + name + " (" + why + "): do it in a tea.Cmd, or bound it and say why (Bounded:)"
					}
					return true
				}
				if name == "Update" || name == "View" {
					return true
				}
				for _, callee := range byName[name] {
					if !seen[callee] && !callee.bounded {
						seen[callee] = true
						queue = append(queue, step{callee, append(st.path[:len(st.path):len(st.path)], funcName(callee.decl))})
					}
				}
				return true
			})
		}
	}
	out := make([]string, 0, len(reported))
	for _, v := range reported {
		out = append(out, v)
	}
	sort.Strings(out)
	return out
}

// boundedDoc reports whether a doc comment has a paragraph that starts with "Bounded:".
func boundedDoc(doc string) bool {
	return strings.HasPrefix(doc, "Bounded:") || strings.Contains(doc, "\n\nBounded:")
}

// calleeName is the name a call calls in this package: a function, or a method of any
// type; "" for a function of another package.
func calleeName(call *ast.CallExpr, imports map[string]string) string {
	switch f := call.Fun.(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		if pkg, ok := f.X.(*ast.Ident); ok && imports[pkg.Name] != "" {
			// A payload function of one of ui's own packages (explorer.RenderResult) is
			// one all the same.
			if _, payload := payloadFuncs[f.Sel.Name]; payload && strings.HasPrefix(imports[pkg.Name], uiImportPath+"/") {
				return f.Sel.Name
			}
			return ""
		}
		return f.Sel.Name
	case *ast.IndexExpr: // a generic function with its type argument
		if id, ok := f.X.(*ast.Ident); ok {
			return id.Name
		}
	}
	return ""
}

// funcName is a function's name, with its receiver's type for a method.
func funcName(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	t := fn.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name + "." + fn.Name.Name
	}
	return fn.Name.Name
}

// uiImportPath is the ui package's import path; its subpackages are below it.
const uiImportPath = "github.com/mcpscope/mcpscope/ui"

// payloadDirs are the packages the payload rule checks, each on its own: ui and the
// explorer, the two that lay out results and bodies.
var payloadDirs = []string{".", "explorer"}

// TestUIRulesPayload checks the ui and explorer packages: no payload work reached from
// Update or View.
func TestUIRulesPayload(t *testing.T) {
	for _, dir := range payloadDirs {
		for _, v := range payloadViolations(t, dir) {
			t.Error(v)
		}
	}
}

// TestUIRulesPayloadCatchViolations proves the check can fail: a View that lays out a
// result through a helper (its own or the explorer's), and an Update that re-indents a
// body, are reported; a bounded helper and a command are not.
func TestUIRulesPayloadCatchViolations(t *testing.T) {
	dir := t.TempDir()
	src := `package bad

import (
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/ui/explorer"
)

type M struct{ raw []byte }

func RenderResult(raw []byte) []string { return nil }
func prettyJSON(raw []byte) ([]byte, error) { return raw, nil }

func (m *M) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m.refresh()
	return m, func() tea.Msg { return RenderResult(m.raw) }
}

func (m *M) refresh() { _, _ = prettyJSON(m.raw) }

func (m M) View() string { return m.lines()[0] + m.small()[0] + m.other() }

func (m M) other() string { return explorer.RenderResult(m.raw).Lines()[0] }

func (m M) lines() []string { return RenderResult(m.raw) }

// small lays out a small result.
//
// Bounded: raw is at most 64 KiB here.
func (m M) small() []string { return RenderResult(m.raw[:64]) }
`
	if err := os.WriteFile(filepath.Join(dir, "bad.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	got := payloadViolations(t, dir)
	all := strings.Join(got, "\n")
	for _, want := range []string{"bad.go:19:32: M.Update → M.refresh calls prettyJSON", "bad.go:25:38: M.View → M.lines calls RenderResult",
		"bad.go:23:36: M.View → M.other calls RenderResult"} {
		if !strings.Contains(all, want) {
			t.Errorf("violation %q not reported; got:\n%s", want, all)
		}
	}
	if len(got) != 3 {
		t.Errorf("want 3 violations (not the command's, not the bounded helper's); got:\n%s", all)
	}
}
