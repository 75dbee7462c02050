package secret

import (
	"sort"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// maxDepth bounds how deep JSON inside JSON strings is followed; deeper text is masked as
// text (which still never breaks the strings it is in).
const maxDepth = 4

// jsonish reports whether s looks like JSON (an object or an array, perhaps cut short).
func jsonish(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\r':
			continue
		case '{', '[':
			return true
		}
		return false
	}
	return false
}

// mask masks the secrets in s; s itself comes back when it holds none.
func (m *Masker) mask(s string) string { return apply(s, m.newScan(s).spans(s, 0, nil)) }

// spans finds the secrets in s: inside its strings when it looks like JSON, in the text
// otherwise.
func (m *scan) spans(s string, depth int, out []span) []span {
	if depth < maxDepth && jsonish(s) {
		return m.jsonSpans(s, depth, out)
	}
	return m.plainSpans(s, out)
}

// structural are the bytes JSON has outside its strings: white space, punctuation,
// numbers and the letters of true, false and null. A run of other bytes between strings
// means the text is not JSON there, and is masked as text.
var structural = func() (t [256]bool) {
	for _, c := range []byte(" \t\r\n{}[]:,0123456789+-.eEtruefalsn") {
		t[c] = true
	}
	return t
}()

// jsonSpans finds the secrets in JSON text (valid, or cut short, or JSON-like): only
// characters inside strings are ever taken, so that what is masked stays JSON. A member
// whose name is a secret's (SecretName) has its whole string value taken; other strings
// are searched for secrets, and followed when they hold JSON themselves. Text between the
// strings that is not JSON's is searched as text.
func (m *scan) jsonSpans(s string, depth int, out []span) []span {
	member := "" // the member whose value comes next
	gap, prose := 0, false
	flushGap := func(end int) {
		if prose {
			for _, sp := range m.plainSpans(s[gap:end], nil) {
				out = append(out, span{gap + sp.lo, gap + sp.hi})
			}
		}
		prose = false
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c != '"' {
			if !structural[c] {
				prose = true
			}
			if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
				member = ""
			}
			i++
			continue
		}
		flushGap(i)
		lo := i + 1
		hi, marks := scanString(s, lo)
		next := min(hi+1, len(s))
		k := next
		for k < len(s) && (s[k] == ' ' || s[k] == '\t' || s[k] == '\n' || s[k] == '\r') {
			k++
		}
		raw := s[lo:hi]
		text := raw
		if marks&markEscape != 0 {
			text = unescape(raw)
		}
		// Only a string with an assignment, a member or a secret the whole text may hold
		// is searched.
		search := marks&(markEqual|markEscape) != 0 || len(m.values) > 0 || len(m.shapes) > 0
		switch {
		case k < len(s) && s[k] == ':': // a member's name
			if search {
				out = m.stringSpans(raw, text, lo, depth, out)
			}
			member = text
			next = k + 1
		case member != "" && SecretName(member):
			out = append(out, span{lo, hi})
			member = ""
		default:
			if search {
				out = m.stringSpans(raw, text, lo, depth, out)
			}
			member = ""
		}
		i, gap = next, next
	}
	flushGap(len(s))
	return out
}

// What scanString saw in a string.
const (
	markEscape = 1 << iota // a backslash
	markEqual              // an '='
)

// scanString is where the JSON string whose content starts at p ends (its closing quote,
// or the end of s), and whether it holds an escape or an '='.
func scanString(s string, lo int) (int, uint8) {
	var marks uint8
	for p := lo; p < len(s); p++ {
		switch s[p] {
		case '"':
			return p, marks
		case '=':
			marks |= markEqual
		case '\\':
			marks |= markEscape
			p++ // the escaped byte is no quote (\uXXXX's digits are none either)
		}
	}
	return cutEscape(s, lo, len(s)), marks // cut short: it ends between whole escapes
}

// stringSpans finds the secrets in a JSON string whose content raw (at offset off of the
// text) decodes to text, as spans of the text that hold raw's whole escapes.
func (m *scan) stringSpans(raw, text string, off, depth int, out []span) []span {
	sub := m.spans(text, depth+1, nil)
	if len(sub) == 0 {
		return out
	}
	if len(text) == len(raw) && text == raw { // no escape: the offsets are the same
		for _, sp := range sub {
			out = append(out, span{off + sp.lo, off + sp.hi})
		}
		return out
	}
	segs := segments(raw)
	for _, sp := range sub {
		out = append(out, span{off + rawAt(segs, len(raw), sp.lo, false), off + rawAt(segs, len(raw), sp.hi, true)})
	}
	return out
}

// seg is a piece of a JSON string's content: a run of bytes as they are (plain), or one
// escape.
type seg struct {
	dec, raw int // where it starts in the decoded text and in the content
	dn, rn   int // its length in each
	plain    bool
}

// rawAt is the offset in the content (rawLen bytes) of offset k of the decoded text: inside
// an escape, its start (for a span's start) or its end (for a span's end, with end).
func rawAt(segs []seg, rawLen, k int, end bool) int {
	i := sort.Search(len(segs), func(i int) bool { return segs[i].dec > k }) - 1
	if i < 0 {
		return 0
	}
	g := segs[i]
	switch {
	case k >= g.dec+g.dn:
		return min(rawLen, g.raw+g.rn)
	case g.plain:
		return g.raw + (k - g.dec)
	case k == g.dec || !end:
		return g.raw
	}
	return g.raw + g.rn
}

// segments splits a JSON string's content into plain runs and escapes, as unescape
// decodes it.
func segments(raw string) []seg {
	var segs []seg
	dec := 0
	for i := 0; i < len(raw); {
		j := strings.IndexByte(raw[i:], '\\')
		if j < 0 {
			j = len(raw) - i
		}
		if j > 0 {
			segs = append(segs, seg{dec: dec, raw: i, dn: j, rn: j, plain: true})
			dec += j
			i += j
			continue
		}
		r, rn := escapeAt(raw, i)
		dn := len(r)
		segs = append(segs, seg{dec: dec, raw: i, dn: dn, rn: rn})
		dec += dn
		i += rn
	}
	return segs
}

// unescape decodes a JSON string's content leniently: an escape it does not know stays as
// it is.
func unescape(raw string) string {
	if strings.IndexByte(raw, '\\') < 0 {
		return raw
	}
	var b strings.Builder
	b.Grow(len(raw))
	for i := 0; i < len(raw); {
		j := strings.IndexByte(raw[i:], '\\')
		if j < 0 {
			b.WriteString(raw[i:])
			break
		}
		b.WriteString(raw[i : i+j])
		i += j
		r, n := escapeAt(raw, i)
		b.WriteString(r)
		i += n
	}
	return b.String()
}

// escapeAt decodes the escape at raw[i] ('\\'): what it stands for and its length. An
// escape it does not know stands for its backslash alone; a surrogate pair written as two
// \u escapes is one escape.
func escapeAt(raw string, i int) (string, int) {
	if i+1 >= len(raw) {
		return `\`, 1
	}
	switch raw[i+1] {
	case '"':
		return `"`, 2
	case '\\':
		return `\`, 2
	case '/':
		return `/`, 2
	case 'b':
		return "\b", 2
	case 'f':
		return "\f", 2
	case 'n':
		return "\n", 2
	case 'r':
		return "\r", 2
	case 't':
		return "\t", 2
	case 'u':
		if i+5 < len(raw) && isHex(raw[i+2:i+6]) {
			r := rune(hexValue(raw[i+2 : i+6]))
			if utf16.IsSurrogate(r) {
				if i+11 < len(raw) && raw[i+6] == '\\' && raw[i+7] == 'u' && isHex(raw[i+8:i+12]) {
					if p := utf16.DecodeRune(r, rune(hexValue(raw[i+8:i+12]))); p != utf8.RuneError {
						return string(p), 12
					}
				}
				return string(utf8.RuneError), 6
			}
			return string(r), 6
		}
	}
	return `\`, 1
}

func hexValue(s string) int {
	v := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			v = v*16 + int(c-'0')
		case c|0x20 >= 'a' && c|0x20 <= 'f':
			v = v*16 + int(c|0x20-'a'+10)
		}
	}
	return v
}
