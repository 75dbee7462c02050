package jsonview

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestWrapIndentedNotInWords: a date, a negative number or a path in a JSON line is not cut
// at its hyphen; the line breaks after the space before it, and a word longer than a line
// is cut where the line is full.
func TestWrapIndentedNotInWords(t *testing.T) {
	for _, tc := range []struct {
		text string
		w    int
		want []string
	}{
		{`  "date": "2026-07-28"`, 18, []string{`  "date": `, `    "2026-07-28"`}},
		{`  "text": "2.5 + -3 = -0.5"`, 24, []string{`  "text": "2.5 + -3 = `, `    -0.5"`}},
		{`  "f": "mcpscope-20261126-211936.jsonl"`, 20, []string{`  "f": "mcpscope-202`, `    61126-211936.jso`, `    nl"`}},
	} {
		var got []string
		for _, l := range WrapIndented(Line{{Text: tc.text}}, tc.w) {
			if ansi.StringWidth(l) > tc.w {
				t.Errorf("%q at %d: line %q is too wide", tc.text, tc.w, l)
			}
			got = append(got, ansi.Strip(l))
		}
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("WrapIndented(%q, %d) = %q, want %q", tc.text, tc.w, got, tc.want)
		}
	}
}
