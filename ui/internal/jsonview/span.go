package jsonview

import (
	"bytes"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf16"
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

// AppendEscaped appends b to dst as spans in sgr, with every character EscapeRune names
// shown as its visible escape in esc.
func AppendEscaped[T string | []byte](dst Line, b T, sgr, esc string) Line {
	start := 0
	eachEscape(b, func(i, n int, e string) bool {
		if i > start {
			dst = append(dst, Span{string(b[start:i]), sgr})
		}
		dst = append(dst, Span{e, esc})
		start = i + n
		return true
	})
	if len(b) > start {
		dst = append(dst, Span{string(b[start:]), sgr})
	}
	return dst
}

// eachEscape calls f with the offset, length and escape of every character of b that
// EscapeRune names, in order, until f returns false. ASCII that prints is passed over
// without decoding: the common case costs a comparison a byte.
func eachEscape[T string | []byte](b T, f func(i, n int, e string) bool) {
	prev := rune(0)
	for i := 0; i < len(b); {
		c := b[i]
		if c >= 0x20 && c < 0x7f {
			prev = rune(c)
			i++
			continue
		}
		r, n := rune(c), 1
		if c >= utf8.RuneSelf {
			r, n = utf8.DecodeRuneInString(string(b[i:min(i+utf8.UTFMax, len(b))]))
		}
		var next rune
		if r == zwj && i+n < len(b) {
			next, _ = utf8.DecodeRuneInString(string(b[i+n : min(i+n+utf8.UTFMax, len(b))]))
		}
		if e := escapeRune(r, n, c, prev, next); e != "" && !f(i, n, e) {
			return
		}
		prev = r
		i += n
	}
}

// zwj is the zero-width joiner, which also joins emoji into one picture.
const zwj = '\u200d'

// EscapeRune is the one decision of how a character a terminal must not get raw is shown,
// used by every view and report: "" when r prints as itself, else its visible escape. The
// notation is Go's: C0 controls and DEL as \x1b (\t, \n, \r for those three), a byte that is
// not UTF-8 as \xff, and C1 controls, line and paragraph separators, every format character
// (zero-width spaces and joiners, bidi marks, overrides and isolates, the byte order mark,
// tag characters U+E0000–U+E007F), variation selectors, the combining grapheme joiner and
// the Hangul fillers (characters that draw nothing or change how the text around them
// reads) as \u200b, or \U000e0041 beyond U+FFFF. Emoji keep what makes them one picture: a
// variation selector 15 or 16 after a symbol, digit, # or *, and a zero-width joiner
// between two symbols. n and first describe the bytes r was decoded from.
func EscapeRune(r rune, n int, first byte) string { return escapeRune(r, n, first, 0, 0) }

// escapeRune is EscapeRune knowing the characters before and after r (0: none), which
// decide only for emoji's variation selectors and joiners.
func escapeRune(r rune, n int, first byte, prev, next rune) string {
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
	case r < 0x80 || !mayHide(r):
		return ""
	case r == 0xfe0e || r == 0xfe0f:
		if unicode.Is(unicode.So, prev) || prev >= '0' && prev <= '9' || prev == '#' || prev == '*' {
			return ""
		}
	case r == zwj:
		if (unicode.Is(unicode.So, prev) || prev == 0xfe0f || prev >= 0x1f3fb && prev <= 0x1f3ff) && unicode.Is(unicode.So, next) {
			return ""
		}
	case hides(r):
	default:
		return ""
	}
	if r > 0xffff {
		return fmt.Sprintf(`\U%08x`, r)
	}
	return fmt.Sprintf(`\u%04x`, r)
}

// hides reports whether r, beyond ASCII, is a C1 control or a character that draws nothing
// or changes how the text around it reads.
func hides(r rune) bool {
	return r >= 0x80 && r < 0xa0 || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp, unicode.Variation_Selector) ||
		r == 0x034f || r == 0x115f || r == 0x1160 || r == 0x3164 || r == 0xffa0 || r == 0xfffe || r == 0xffff
}

// mayHide is false for the characters beyond ASCII that hides is certainly false for,
// found without looking in Unicode's tables: most letters of most scripts.
func mayHide(r rune) bool {
	switch {
	case r < 0x100, r == 0x034f, r >= 0x0600 && r < 0x0900, r >= 0x1100 && r < 0x1200, r >= 0x1800 && r < 0x1900,
		r >= 0x2000 && r < 0x2070, r == 0x3164, r >= 0xfe00 && r < 0xff00, r >= 0xff00:
		return true
	}
	return false
}

// NeedsEscape reports whether s holds a character EscapeRune escapes: text without one is
// shown as it is.
func NeedsEscape(s string) bool {
	found := false
	eachEscape(s, func(int, int, string) bool { found = true; return false })
	return found
}

// EscapeText returns s with every character EscapeRune names shown as its escape, for
// one-line fields.
func EscapeText(s string) string {
	var b strings.Builder
	for _, sp := range AppendEscaped(nil, s, "", "") {
		b.WriteString(sp.Text)
	}
	return b.String()
}

// MarkOn and MarkOff set an escape apart in text that is not JSON: reverse video on and
// off, which leave every other attribute (colour, weight, background) as it was, so an
// escape can sit inside text of any style, and a backslash the server sent is told from
// one that starts an escape.
const (
	MarkOn  = "\x1b[7m"
	MarkOff = "\x1b[27m"
)

// Visible returns s as EscapeText does, with each escape between MarkOn and MarkOff: how
// the views show server text that is not JSON. Text that needs no escape is returned as it
// is.
func Visible(s string) string {
	if !NeedsEscape(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 32)
	for _, sp := range AppendEscaped(nil, s, "", "e") {
		if sp.SGR == "" {
			b.WriteString(sp.Text)
			continue
		}
		b.WriteString(MarkOn)
		b.WriteString(sp.Text)
		b.WriteString(MarkOff)
	}
	return b.String()
}

// VisibleProse is Visible for prose that keeps its line breaks (descriptions,
// instructions): each line escaped, the line feeds kept.
func VisibleProse(s string) string {
	if !NeedsEscape(strings.ReplaceAll(s, "\n", "")) {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = Visible(l)
	}
	return strings.Join(lines, "\n")
}

// EscapeJSON returns JSON text with every character EscapeRune names, other than the
// whitespace \t, \n and \r, written as a JSON \u escape (a surrogate pair beyond U+FFFF):
// the same value, every string the same, but nothing a terminal must not get raw. Bytes that
// are not UTF-8 are left as they are (JSON has no escape for them). Text that needs none is
// returned as it is.
func EscapeJSON(b []byte) []byte {
	var out []byte
	start := 0
	prev := rune(0)
	for i := 0; i < len(b); {
		c := b[i]
		if c >= 0x20 && c < 0x7f || c == '\t' || c == '\n' || c == '\r' {
			prev = rune(c)
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		var next rune
		if r == zwj {
			next, _ = utf8.DecodeRune(b[i+n:])
		}
		if r == utf8.RuneError && n == 1 || escapeRune(r, n, c, prev, next) == "" {
			prev = r
			i += n
			continue
		}
		if out == nil {
			out = make([]byte, 0, len(b)+16)
		}
		out = append(out, b[start:i]...)
		if r > 0xffff {
			hi, lo := utf16.EncodeRune(r)
			out = fmt.Appendf(out, `\u%04x\u%04x`, hi, lo)
		} else {
			out = fmt.Appendf(out, `\u%04x`, r)
		}
		prev = r
		i += n
		start = i
	}
	if out == nil {
		return b
	}
	return append(out, b[start:]...)
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

// VisibleLine makes text from the wire safe for one terminal row: tabs and line breaks
// become spaces, every other character a terminal must not get raw is escaped as Visible
// does. Text without any is returned as it is.
func VisibleLine(s string) string {
	if strings.ContainsAny(s, "\t\n\r") {
		s = lineBreaks.Replace(s) // byte by byte: bytes that are not UTF-8 stay for the escaping
	}
	return Visible(s)
}

var lineBreaks = strings.NewReplacer("\t", " ", "\n", " ", "\r", " ")
