package common

import (
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
		p := s.Rows()
		for name, c := range map[string]struct {
			p  Painter
			st lipgloss.Style
		}{
			"muted": {p.Muted, s.Muted}, "request": {p.Request, s.Request}, "response": {p.Response, s.Response},
			"notification": {p.Notification, s.Notification}, "error": {p.Err, s.Error}, "accent": {p.Accent, s.Accent},
			"finding": {p.Finding, s.Finding}, "stderr": {p.Stderr, s.Stderr}, "transport": {p.Transport, s.Transport},
			"badge": {p.Badge, s.BadgeFinding},
		} {
			if got, want := c.p.Paint("tools/list"), c.st.Render("tools/list"); got != want {
				t.Errorf("dark=%v %s: painter gives %q, the style renders %q", dark, name, got, want)
			}
		}
		if got, want := s.json.Key+"k", s.JSONKey.Render("k"); !strings.HasPrefix(want, got) {
			t.Errorf("dark=%v: JSON key sequence %q does not open %q", dark, s.json.Key, want)
		}
		if got, want := s.Forms().Label.Render("x"), s.Bold.Render("x"); got != want {
			t.Errorf("dark=%v: form label %q, want the bold style %q", dark, got, want)
		}
	}
	if NewStyles(true).Rows().Request == NewStyles(false).Rows().Request {
		t.Error("a dark and a light Styles paint requests alike")
	}
}
