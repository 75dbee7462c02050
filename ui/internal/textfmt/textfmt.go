// Package textfmt is the one home of the interactive views' text helpers: cutting and
// padding styled text to a number of terminal cells, wrapping prose, plurals, and sizes and
// durations in human units. Widths are cells measured with ansi (styles take none, wide
// runes take two), never bytes or runes. It does no I/O and holds no state.
package textfmt

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// Clip cuts s to at most w cells, ending in "…" when it cut.
func Clip(s string, w int) string {
	if ansi.StringWidth(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
}

// Pad pads s with spaces on the right to w cells; s wider than w is left as it is.
func Pad(s string, w int) string {
	if n := ansi.StringWidth(s); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s
}

// PadLeft right-aligns s in w cells; s wider than w is left as it is.
func PadLeft(s string, w int) string {
	if n := ansi.StringWidth(s); n < w {
		return strings.Repeat(" ", w-n) + s
	}
	return s
}

// FitRow makes a line exactly w cells wide: cut (with no ellipsis) or padded.
func FitRow(s string, w int) string {
	if ansi.StringWidth(s) > w {
		s = ansi.Truncate(s, w, "")
	}
	return Pad(s, w)
}

// FitBlock makes s exactly h lines of exactly w cells each.
func FitBlock(s string, w, h int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		lines[i] = FitRow(l, w)
	}
	blank := strings.Repeat(" ", max(0, w))
	for len(lines) < h {
		lines = append(lines, blank)
	}
	return strings.Join(lines, "\n")
}

// WrapProse word-wraps plain prose to w cells (at least 8 after the prefix), keeping its own
// line breaks, and styles each line with st after prefix.
func WrapProse(st lipgloss.Style, text, prefix string, w int) []string {
	avail := max(8, w-ansi.StringWidth(prefix))
	var out []string
	for para := range strings.SplitSeq(strings.TrimRight(text, "\n"), "\n") {
		para = strings.TrimRight(para, " \t\r")
		if para == "" {
			out = append(out, "")
			continue
		}
		for l := range strings.SplitSeq(Wrap(para, avail), "\n") {
			out = append(out, prefix+st.Render(l))
		}
	}
	return out
}

// Plural is "1 error", "2 errors": n and word, with an s unless n is 1.
func Plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// Duration is a latency in the unit that suits it: "850µs", "12.5ms", "1.25s", "3m2s".
func Duration(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return fmt.Sprintf("%dµs", d.Microseconds())
	case d < time.Second:
		return fmt.Sprintf("%.1fms", float64(d.Microseconds())/1000)
	case d < time.Minute:
		return fmt.Sprintf("%.2fs", d.Seconds())
	}
	return d.Round(time.Second).String()
}

// Size is a size for a narrow column, in decimal units: "812B", "1.2K", "4.5M", "1.1G".
func Size(n int64) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%dB", n)
	case n < 1000*1000:
		return fmt.Sprintf("%.1fK", float64(n)/1000)
	case n < 1000*1000*1000:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	}
	return fmt.Sprintf("%.1fG", float64(n)/1e9)
}

// Bytes is a size for prose, in decimal units: "812 B", "4.2 MB".
func Bytes(n int64) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d B", n)
	case n < 1e6:
		return fmt.Sprintf("%.1f KB", float64(n)/1e3)
	case n < 1e9:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	}
	return fmt.Sprintf("%.1f GB", float64(n)/1e9)
}

// ByteCount is an exact size with its human form: "812 B", "18,433 B (18.4 KB)".
func ByteCount(n int64) string {
	if n < 1000 {
		return fmt.Sprintf("%d B", n)
	}
	return fmt.Sprintf("%s B (%s)", Commas(n), Bytes(n))
}

// Commas writes n with thousands separators: "18,433".
func Commas(n int64) string {
	s := strconv.FormatInt(n, 10)
	sign := ""
	if n < 0 {
		sign, s = "-", s[1:]
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return sign + s
}

// Hanging wraps text after head, continuing under the text rather than under head.
func Hanging(st lipgloss.Style, head, text string, w int) []string {
	hang := strings.Repeat(" ", ansi.StringWidth(head))
	lines := WrapProse(st, text, hang, w)
	if len(lines) > 0 {
		lines[0] = head + strings.TrimPrefix(lines[0], hang)
	}
	return lines
}

// Elapsed is a waiting request's age in whole seconds (the timers tick once a second).
func Elapsed(d time.Duration) string {
	return max(0, d).Truncate(time.Second).String()
}
