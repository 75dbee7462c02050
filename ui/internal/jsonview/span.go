package jsonview

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Palette holds the escape sequence that opens each JSON token class ("" draws plainly).
// The interactive view builds it once from its Styles (ui.Styles.JSON), for a dark or a
// light terminal.
type Palette struct {
	Key, String, Number, Bool, Null, Punct string
	// Escape draws escaped characters and text that is not JSON.
	Escape string
}

// Span is a run of text drawn with one escape sequence ("" draws it plainly). Its text never
// holds control characters or invalid UTF-8: those are escaped before they become spans.
type Span struct{ Text, SGR string }

// Line is one logical line of spans.
type Line []Span

// Reset ends a styled span.
const Reset = "\x1b[m"

// Limit bounds how much of a text is turned into lines.
type Limit struct {
	Lines int // logical lines; 0 means no limit
	Bytes int // bytes of text; 0 means no limit
}

// Plain splits text into escaped logical lines drawn in sgr, escapes in esc.
func Plain(text []byte, sgr, esc string) []Line {
	var out []Line
	for {
		i := bytes.IndexByte(text, '\n')
		if i < 0 {
			return append(out, AppendEscaped(nil, text, sgr, esc))
		}
		out = append(out, AppendEscaped(nil, text[:i], sgr, esc))
		text = text[i+1:]
	}
}

// AppendEscaped appends b to dst as spans in sgr, with control characters, invalid UTF-8
// and characters that reorder or hide text shown as visible escapes (\x1b, \xff, \u202e)
// in esc.
func AppendEscaped[T string | []byte](dst Line, b T, sgr, esc string) Line {
	start := 0
	for i := 0; i < len(b); {
		c := b[i]
		if c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		r, n := rune(c), 1
		if c >= utf8.RuneSelf {
			r, n = utf8.DecodeRuneInString(string(b[i:min(i+utf8.UTFMax, len(b))]))
		}
		if e := escapeRune(r, n, c); e != "" {
			if i > start {
				dst = append(dst, Span{string(b[start:i]), sgr})
			}
			dst = append(dst, Span{e, esc})
			start = i + n
		}
		i += n
	}
	if len(b) > start {
		dst = append(dst, Span{string(b[start:]), sgr})
	}
	return dst
}

// escapeRune returns the visible escape of a character a terminal must not get raw, or ""
// when it prints as itself. n and first describe the bytes it was decoded from.
func escapeRune(r rune, n int, first byte) string {
	switch {
	case r == utf8.RuneError && n == 1:
		return fmt.Sprintf(`\x%02x`, first)
	case r == '\t':
		return `\t`
	case r == '\n':
		return `\n`
	case r == '\r':
		return `\r`
	case r < 0x20 || r == 0x7f:
		return fmt.Sprintf(`\x%02x`, r)
	case r >= 0x80 && r < 0xa0, r == 0x2028, r == 0x2029, r >= 0x202a && r <= 0x202e,
		r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0xfeff:
		return fmt.Sprintf(`\u%04x`, r)
	}
	return ""
}

// EscapeText returns s with every character a terminal must not get raw escaped, for
// one-line fields.
func EscapeText(s string) string {
	var b strings.Builder
	for _, sp := range AppendEscaped(nil, s, "", "") {
		b.WriteString(sp.Text)
	}
	return b.String()
}

// CutUTF8 returns n, moved back so b[:n] does not split a UTF-8 sequence.
func CutUTF8[T string | []byte](b T, n int) int {
	n = max(0, min(n, len(b)))
	for k := 0; k < utf8.UTFMax-1 && n > 0 && n < len(b) && !utf8.RuneStart(b[n]); k++ {
		n--
	}
	return n
}

// WriteLine writes one line of spans with their escape sequences.
func WriteLine(b *strings.Builder, l Line) {
	for _, sp := range l {
		if sp.SGR == "" {
			b.WriteString(sp.Text)
			continue
		}
		b.WriteString(sp.SGR)
		b.WriteString(sp.Text)
		b.WriteString(Reset)
	}
}

// String joins lines with newlines, each drawn with its escape sequences.
func String(lines []Line) string {
	n := len(lines)
	for _, l := range lines {
		for _, sp := range l {
			n += len(sp.Text) + len(sp.SGR) + len(Reset)
		}
	}
	var b strings.Builder
	b.Grow(n)
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		WriteLine(&b, l)
	}
	return b.String()
}
