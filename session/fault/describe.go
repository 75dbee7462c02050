package fault

import (
	"strings"
	"unicode/utf8"
)

// shownBytes bounds each message quoted in a fault's description.
const shownBytes = 4096

// Describe is a fault's note: its summary on the first line, then the message as it came
// and what was passed on instead (each cut to its first 4 KiB), and the answer mcpscope
// made, if any.
func Describe(a *Applied) string {
	var b strings.Builder
	b.WriteString(a.Summary())
	b.WriteString("\noriginal (" + a.Dir.String() + "): ")
	b.WriteString(head(a.Original))
	switch {
	case a.Held:
		b.WriteString("\ndelivered: later, after the next matching message")
	case len(a.Delivered) == 0:
		b.WriteString("\ndelivered: nothing")
	}
	for _, d := range a.Delivered {
		b.WriteString("\ndelivered: ")
		b.WriteString(head(d))
	}
	if a.Answer != nil {
		b.WriteString("\nanswered by mcpscope: ")
		b.WriteString(head(a.Answer))
	}
	return b.String()
}

// head is b as text, cut to shownBytes on a character boundary.
func head(b []byte) string {
	if len(b) <= shownBytes {
		return string(b)
	}
	cut := shownBytes
	for cut > 0 && !utf8.RuneStart(b[cut]) {
		cut--
	}
	return string(b[:cut]) + "…"
}
