package ui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"image/color"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"
)

// TestNoStylesCache checks that nothing derived from Styles is cached at package level, in ui
// or its subpackages: a global keyed by *Styles outlives the styles it was made from and is
// a second home for what NewStyles computes.
func TestNoStylesCache(t *testing.T) {
	var files []string
	for _, pattern := range []string{"*.go", "*/*.go", "*/*/*.go"} { // ui and its subpackages
		more, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, more...)
	}
	if !slices.Contains(files, filepath.Join("internal", "common", "styles.go")) {
		t.Fatalf("the check does not read the styles' own file: %v", files)
	}
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				if vs.Type == nil {
					continue
				}
				if sel, ok := vs.Type.(*ast.SelectorExpr); ok && sel.Sel.Name == "Map" {
					if x, ok := sel.X.(*ast.Ident); ok && x.Name == "sync" {
						t.Errorf("%s: package-level sync.Map %s: compute it in NewStyles and keep it on Styles", fset.Position(vs.Pos()), vs.Names[0].Name)
					}
				}
				if mt, ok := vs.Type.(*ast.MapType); ok {
					if st, ok := mt.Key.(*ast.StarExpr); ok {
						if isStyles(st.X) {
							t.Errorf("%s: package-level map keyed by *Styles %s", fset.Position(vs.Pos()), vs.Names[0].Name)
						}
					}
				}
			}
		}
	}
}

// TestHelpStylesSetOnRestyle checks that the footer's help takes the Styles when they are
// made (NewModel) and when they change (the terminal's background), and that drawing the
// screen does not set them again.
func TestHelpStylesSetOnRestyle(t *testing.T) {
	m := newTimelineModel(t, Options{}, 100, 24)
	if got, want := m.help.Styles.ShortKey.Render("x"), m.c.Styles.Footer.ShortKey.Render("x"); got != want {
		t.Fatalf("NewModel: help key style %q, want the Styles' %q", got, want)
	}
	m.Update(tea.BackgroundColorMsg{Color: color.White})
	if m.c.Styles.Dark {
		t.Fatal("a white background left dark styles")
	}
	if got, want := m.help.Styles.ShortDesc.Render("x"), NewStyles(false).Footer.ShortDesc.Render("x"); got != want {
		t.Errorf("after a light background: help description style %q, want the light one %q", got, want)
	}
	m.help.Styles = help.Styles{}
	m.Render()
	if got := m.help.Styles.ShortKey.Render("x"); got != "x" {
		t.Errorf("drawing the screen set the help styles again (%q)", got)
	}
}

// TestDetailOpenIsFocus checks that the traffic page shows the detail exactly while it has
// the focus, also after a visit to another page, at a narrow and a wide size.
func TestDetailOpenIsFocus(t *testing.T) {
	for _, w := range []int{80, 160} {
		m := newTimelineModel(t, Options{}, w, 24)
		feedEvents(m, mixedTraffic(newEvWire(), 6)...)
		shows := func(detail bool, when string) {
			t.Helper()
			if m.detailOpen() != detail || (m.layout.Detail.H > 0) != (detail || m.layout.Split) {
				t.Errorf("width %d, %s: detailOpen %v, detail %+v, want open %v", w, when, m.detailOpen(), m.layout.Detail, detail)
			}
		}
		shows(false, "at start")
		pressKey(m, "enter")
		shows(true, "enter")
		pressKey(m, "2")
		pressKey(m, "1")
		shows(true, "back from the explorer")
		pressKey(m, "esc")
		shows(false, "esc")
	}
}

// isStyles reports whether x names the type Styles (Styles, or common.Styles outside its package).
func isStyles(x ast.Expr) bool {
	if sel, ok := x.(*ast.SelectorExpr); ok {
		x = sel.Sel
	}
	id, ok := x.(*ast.Ident)
	return ok && id.Name == "Styles"
}
