package ui

import (
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// span is a run of text drawn with one SGR prefix ("" draws it plain). Text never holds
// control characters or invalid UTF-8: those are escaped before they become spans.
type span struct{ text, sgr string }

// sline is one logical line of spans.
type sline []span

// sgrReset ends a styled span.
const sgrReset = "\x1b[m"

// jsonPalette holds the SGR prefix of each JSON token class, taken once from a Styles so the
// colorizer never calls lipgloss per token.
type jsonPalette struct {
	key, str, num, boolean, null, punct, esc, text string
}

var palettes struct {
	sync.Mutex
	s *Styles
	p *jsonPalette
}

// paletteFor returns the JSON palette of s (cached for the latest Styles).
func paletteFor(s *Styles) *jsonPalette {
	palettes.Lock()
	defer palettes.Unlock()
	if palettes.s != s {
		palettes.s = s
		palettes.p = &jsonPalette{
			key: sgrOf(s.JSONKey), str: sgrOf(s.JSONString), num: sgrOf(s.JSONNumber),
			boolean: sgrOf(s.JSONBool), null: sgrOf(s.JSONNull), punct: sgrOf(s.JSONPunct),
			esc: sgrOf(s.Finding), text: sgrOf(s.Text),
		}
	}
	return palettes.p
}

// sgrOf extracts the escape sequence a style opens with ("" when it draws nothing).
func sgrOf(st lipgloss.Style) string {
	r := st.Render("x")
	if i := strings.IndexByte(r, 'x'); i > 0 {
		return r[:i]
	}
	return ""
}

// textLimit bounds how much of a body is turned into lines.
type textLimit struct {
	lines int // logical lines; 0 means no limit
	bytes int // bytes of text; 0 means no limit
}

// colorizer turns JSON into coloured lines in one pass, re-indenting as it goes (the same
// layout json.Indent gives with a two-space indent) or compacting. It never fails: bytes
// that are not JSON are shown escaped in the error colour.
type colorizer struct {
	p      *jsonPalette
	indent bool
	limit  textLimit
	all    []span // every span, line after line
	starts []int  // where each finished line ends in all
	used   int    // bytes emitted
	cut    bool   // stopped at the limit
}

// ColorizeJSON colours src for a terminal: pretty-printed with a two-space indent when
// indent is set, compact otherwise. Invalid JSON never panics; what cannot be read is shown
// escaped. Rows use the compact form, the detail pane the indented one.
func ColorizeJSON(s *Styles, src []byte, indent bool) string {
	lines, _ := colorizeLines(paletteFor(s), src, indent, textLimit{})
	var b strings.Builder
	b.Grow(len(src) * 8)
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		writeSpans(&b, l)
	}
	return b.String()
}

// colorizeLines colours src into logical lines, stopping at limit (cut reports it did).
func colorizeLines(p *jsonPalette, src []byte, indent bool, limit textLimit) (lines []sline, cut bool) {
	c := &colorizer{p: p, indent: indent, limit: limit}
	lines = c.colorize(src)
	return lines, c.cut
}

// colorize runs the colorizer over src and returns its lines.
func (c *colorizer) colorize(src []byte) []sline {
	c.all = make([]span, 0, len(src)/4+4)
	c.run(string(src))
	if len(c.starts) == 0 || c.starts[len(c.starts)-1] < len(c.all) {
		c.starts = append(c.starts, len(c.all))
	}
	lines := make([]sline, len(c.starts))
	from := 0
	for i, end := range c.starts {
		lines[i] = c.all[from:end:end]
		from = end
	}
	return lines
}

func (c *colorizer) run(src string) {
	var stack []byte
	expectKey := false
	for i := 0; i < len(src) && !c.cut; {
		b := src[i]
		switch b {
		case ' ', '\t', '\n', '\r':
			i++
		case '{', '[':
			closer := byte('}')
			if b == '[' {
				closer = ']'
			}
			if j := skipWS(src, i+1); j < len(src) && src[j] == closer {
				c.add(src[i:i+1]+string(closer), c.p.punct)
				i, expectKey = j+1, false
				continue
			}
			c.add(src[i:i+1], c.p.punct)
			stack = append(stack, b)
			c.newline(len(stack))
			expectKey = b == '{'
			i++
		case '}', ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
				c.newline(len(stack))
			}
			c.add(src[i:i+1], c.p.punct)
			expectKey = false
			i++
		case ',':
			c.add(",", c.p.punct)
			c.newline(len(stack))
			expectKey = len(stack) > 0 && stack[len(stack)-1] == '{'
			i++
		case ':':
			if c.indent {
				c.add(": ", c.p.punct)
			} else {
				c.add(":", c.p.punct)
			}
			expectKey = false
			i++
		case '"':
			j := scanString(src, i)
			sgr := c.p.str
			if expectKey {
				sgr = c.p.key
			}
			c.addBytes(src[i:j], sgr)
			i = j
		default:
			j := i
			for j < len(src) && isLiteralByte(src[j]) {
				j++
			}
			if j == i {
				_, n := utf8.DecodeRuneInString(src[i:])
				c.addBytes(src[i:i+n], c.p.esc)
				i += n
				continue
			}
			c.addBytes(src[i:j], c.literalSGR(src[i:j]))
			i = j
		}
	}
}

func (c *colorizer) literalSGR(lit string) string {
	switch lit {
	case "true", "false":
		return c.p.boolean
	case "null":
		return c.p.null
	}
	if lit[0] == '-' || (lit[0] >= '0' && lit[0] <= '9') {
		return c.p.num
	}
	return c.p.esc
}

// newline ends the current line and indents the next one (indent mode only).
func (c *colorizer) newline(depth int) {
	if !c.indent || c.cut {
		return
	}
	c.starts = append(c.starts, len(c.all))
	if c.limit.lines > 0 && len(c.starts) >= c.limit.lines {
		c.cut = true
		return
	}
	if depth > 0 {
		c.add(indentation(depth), "")
	}
}

// add appends text known to be safe (punctuation, indentation).
func (c *colorizer) add(text, sgr string) {
	if c.cut {
		return
	}
	if c.limit.bytes > 0 && c.used+len(text) > c.limit.bytes {
		c.cut = true
		return
	}
	c.used += len(text)
	c.all = append(c.all, span{text, sgr})
}

// addBytes appends source bytes, escaping what a terminal must not see raw.
func (c *colorizer) addBytes(b string, sgr string) {
	if c.cut {
		return
	}
	if c.limit.bytes > 0 && c.used+len(b) > c.limit.bytes {
		b = b[:cutUTF8(b, c.limit.bytes-c.used)]
		c.cut = true
	}
	c.used += len(b)
	c.all = appendEscaped(c.all, b, sgr, c.p.esc)
}

// spaces backs indentation: nesting deeper than it is rare and gets a fresh string.
var spaces = strings.Repeat(" ", 128)

// indentation is two spaces per level.
func indentation(depth int) string {
	if 2*depth <= len(spaces) {
		return spaces[:2*depth]
	}
	return strings.Repeat("  ", depth)
}

// cutUTF8 returns n, moved back so b[:n] does not split a UTF-8 sequence.
func cutUTF8[T string | []byte](b T, n int) int {
	n = max(0, min(n, len(b)))
	for k := 0; k < utf8.UTFMax-1 && n > 0 && n < len(b) && !utf8.RuneStart(b[n]); k++ {
		n--
	}
	return n
}

func skipWS(src string, i int) int {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r') {
		i++
	}
	return i
}

// scanString returns the index just past the string starting at src[i] (a quote), or
// len(src) when it is not closed.
func scanString(src string, i int) int {
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(src)
}

func isLiteralByte(b byte) bool {
	return b == '-' || b == '+' || b == '.' || (b >= '0' && b <= '9') || (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z')
}

// appendEscaped appends b as spans in sgr, with control characters, invalid UTF-8 and
// characters that reorder or hide text shown as visible escapes (\x1b, \xff, \u202e) in esc.
func appendEscaped[T string | []byte](dst sline, b T, sgr, esc string) sline {
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
				dst = append(dst, span{string(b[start:i]), sgr})
			}
			dst = append(dst, span{e, esc})
			start = i + n
		}
		i += n
	}
	if len(b) > start {
		dst = append(dst, span{string(b[start:]), sgr})
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

// escapeText returns s with every character escapeRune names escaped, for one-line fields.
func escapeText(s string) string {
	var b strings.Builder
	for _, sp := range appendEscaped(nil, s, "", "") {
		b.WriteString(sp.text)
	}
	return b.String()
}

// writeSpans writes one line of spans with their escape sequences.
func writeSpans(b *strings.Builder, l sline) {
	for _, sp := range l {
		if sp.sgr == "" {
			b.WriteString(sp.text)
			continue
		}
		b.WriteString(sp.sgr)
		b.WriteString(sp.text)
		b.WriteString(sgrReset)
	}
}

// wrapLines hard-wraps logical lines at w cells. Each visual line opens and closes its own
// styles, so any line can be drawn alone.
func wrapLines(lines []sline, w int) []string {
	w = max(1, w)
	out := make([]string, 0, len(lines))
	var b strings.Builder
	for _, l := range lines {
		col := 0
		for _, sp := range l {
			t := sp.text
			for t != "" {
				n, cw := fitCells(t, w-col)
				if n == 0 {
					if col > 0 {
						out = append(out, b.String())
						b.Reset()
						col = 0
						continue
					}
					_, n = utf8.DecodeRuneInString(t)
					cw = ansi.StringWidth(t[:n])
				}
				if sp.sgr != "" {
					b.WriteString(sp.sgr)
					b.WriteString(t[:n])
					b.WriteString(sgrReset)
				} else {
					b.WriteString(t[:n])
				}
				col += cw
				t = t[n:]
			}
		}
		out = append(out, b.String())
		b.Reset()
	}
	return out
}

// fitCells returns how many bytes of t fit in room cells, and their width.
func fitCells(t string, room int) (n, cells int) {
	for n < len(t) {
		if c := t[n]; c < utf8.RuneSelf {
			if cells+1 > room {
				return n, cells
			}
			n++
			cells++
			continue
		}
		_, size := utf8.DecodeRuneInString(t[n:])
		cw := ansi.StringWidth(t[n : n+size])
		if cells+cw > room {
			return n, cells
		}
		n += size
		cells += cw
	}
	return n, cells
}
