package textfmt

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// hyphenStandIns are runes one cell wide that ansi's wrapping never breaks at; Wrap puts
// the first one the text lacks in place of each hyphen while it wraps.
var hyphenStandIns = []rune{'\u2011', '\u2010', '\u2012', '\u2013', '\u2212', '\ufe63', '\uff0d'}

// Wrap word-wraps styled text s to w cells: it breaks only at spaces, and hard-wraps a
// word longer than the line. Unlike ansi.Wrap it never breaks at a hyphen, which would cut
// -0.5, 2026-07-28 or a file name in two and mislead.
func Wrap(s string, w int) string {
	if !strings.Contains(s, "-") {
		return ansi.Wrap(s, w, "")
	}
	for _, r := range hyphenStandIns {
		if strings.ContainsRune(s, r) {
			continue
		}
		sub := string(r)
		return strings.ReplaceAll(ansi.Wrap(strings.ReplaceAll(s, "-", sub), w, ""), sub, "-")
	}
	return ansi.Hardwrap(s, w, true) // every stand-in is in the text: cut by cells
}
