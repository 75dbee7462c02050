package textfmt

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestWrapNotAtHyphens: numbers, dates, paths and MIME types with hyphens stay whole; the
// break is at a space, and a word longer than the line is hard-wrapped.
func TestWrapNotAtHyphens(t *testing.T) {
	for _, tc := range []struct {
		text string
		w    int
		want []string
	}{
		{`"2.5 + -3 = -0.5"`, 14, []string{`"2.5 + -3 =`, `-0.5"`}},
		{"got -1,000.5, want -1,000", 20, []string{"got -1,000.5, want", "-1,000"}},
		{"saved mcpscope-20261126-211936.jsonl", 20, []string{"saved", "mcpscope-20261126-21", "1936.jsonl"}},
		{`date "2026-07-28"`, 14, []string{`date`, `"2026-07-28"`}},
		{"mime text/html;profile=mcp-app", 26, []string{"mime", "text/html;profile=mcp-app"}},
		{"a-b ‑ c-d", 4, []string{"a-b", "‑", "c-d"}},
	} {
		got := strings.Split(Wrap(tc.text, tc.w), "\n")
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("Wrap(%q, %d) = %q, want %q", tc.text, tc.w, got, tc.want)
		}
		for _, l := range got {
			if ansi.StringWidth(l) > tc.w {
				t.Errorf("Wrap(%q, %d): line %q is wider than %d", tc.text, tc.w, l, tc.w)
			}
		}
	}
	styled := "\x1b[31mvalue -0.5\x1b[m"
	if got := ansi.Strip(Wrap(styled, 8)); got != "value\n-0.5" {
		t.Errorf("styled: %q", got)
	}
}
