package ui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
)

// TestPaintersMadeByNewStyles checks that NewStyles computes every painter once, on the
// Styles it returns, and that each paints exactly what its style renders.
func TestPaintersMadeByNewStyles(t *testing.T) {
	for _, dark := range []bool{true, false} {
		s := NewStyles(dark)
		if s.rows == nil || s.forms == nil || s.json == nil || s.selOn == "" {
			t.Fatalf("dark=%v: NewStyles left painters unset: rows %v forms %v json %v selOn %q", dark, s.rows, s.forms, s.json, s.selOn)
		}
		p := s.rows
		for name, c := range map[string]struct {
			p  painter
			st lipgloss.Style
		}{
			"muted": {p.muted, s.Muted}, "request": {p.request, s.Request}, "response": {p.response, s.Response},
			"notification": {p.notification, s.Notification}, "error": {p.err, s.Error}, "accent": {p.accent, s.Accent},
			"finding": {p.finding, s.Finding}, "stderr": {p.stderr, s.Stderr}, "transport": {p.transport, s.Transport},
			"badge": {p.badge, s.BadgeFinding},
		} {
			if got, want := c.p.paint("tools/list"), c.st.Render("tools/list"); got != want {
				t.Errorf("dark=%v %s: painter gives %q, the style renders %q", dark, name, got, want)
			}
		}
		if got, want := s.json.Key+"k", s.JSONKey.Render("k"); !strings.HasPrefix(want, got) {
			t.Errorf("dark=%v: JSON key sequence %q does not open %q", dark, s.json.Key, want)
		}
		if got, want := s.forms.Label.Render("x"), s.Bold.Render("x"); got != want {
			t.Errorf("dark=%v: form label %q, want the bold style %q", dark, got, want)
		}
	}
	if NewStyles(true).rows.request == NewStyles(false).rows.request {
		t.Error("a dark and a light Styles paint requests alike")
	}
}

// TestNoStylesCache checks that nothing derived from Styles is cached at package level: a
// global keyed by *Styles outlives the styles it was made from and is a second home for
// what NewStyles computes.
func TestNoStylesCache(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
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
						if id, ok := st.X.(*ast.Ident); ok && id.Name == "Styles" {
							t.Errorf("%s: package-level map keyed by *Styles %s", fset.Position(vs.Pos()), vs.Names[0].Name)
						}
					}
				}
			}
		}
	}
}
