package protocol

import (
	"strconv"
	"unicode"
	"unicode/utf8"
)

// EscapeInvisibleJSON returns encoded JSON (as encoding/json writes it) with every
// character a terminal would act on or not show written as a \u escape: C1 controls
// (U+0080–U+009F, which some terminals take as escape introducers), format characters
// (bidirectional controls, zero-width spaces and joiners, U+FEFF, tag characters) and the
// line and paragraph separators. Outside strings JSON holds none of them, so the result
// decodes to the same value. b itself is returned when it holds none (the common case).
func EscapeInvisibleJSON(b []byte) []byte {
	first := -1
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if invisible(r) {
			first = i
			break
		}
		i += n
	}
	if first < 0 {
		return b
	}
	out := make([]byte, 0, len(b)+16)
	out = append(out, b[:first]...)
	for i := first; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			out = append(out, c)
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if !invisible(r) {
			out = append(out, b[i:i+n]...)
			i += n
			continue
		}
		if r > 0xFFFF {
			out = appendU(out, 0xD800+(r-0x10000)>>10)
			out = appendU(out, 0xDC00+(r-0x10000)&0x3FF)
		} else {
			out = appendU(out, r)
		}
		i += n
	}
	return out
}

func appendU(out []byte, r rune) []byte {
	out = append(out, '\\', 'u')
	h := strconv.FormatInt(int64(r), 16)
	for range 4 - len(h) {
		out = append(out, '0')
	}
	return append(out, h...)
}

// invisible reports whether r is a C1 control, a format character or a line or paragraph
// separator. utf8.RuneError (invalid bytes) is left as it is: the frame's own bytes.
func invisible(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9f, r == 0x2028, r == 0x2029:
		return true
	case r == utf8.RuneError:
		return false
	}
	return unicode.Is(unicode.Cf, r)
}
