package apps

import "bytes"

// maxEvalExamples bounds the uses EvalUses reports.
const maxEvalExamples = 3

// EvalUses finds where a page compiles code from text, which the spec's default policy
// (no 'unsafe-eval') forbids: a call of eval, or Function used as a constructor or called
// (new Function(…), Function(…)), as each reads in the source. A member named so
// (x.eval(…)) or a longer name (medieval(…), myFunction(…)) is not one. It reads the page
// once, in time linear in its size, without running it; a use inside a string or comment
// counts too, so a use is a sign, not proof. At most maxEvalExamples are returned, each a
// few characters around the use; more is true when there were others.
func EvalUses(doc []byte) (examples []string, more bool) {
	for _, word := range [][]byte{[]byte("eval("), []byte("Function(")} {
		for off := 0; off < len(doc); {
			i := bytes.Index(doc[off:], word)
			if i < 0 {
				break
			}
			at := off + i
			off = at + len(word)
			if at > 0 && (identByte(doc[at-1]) || doc[at-1] == '.') {
				continue
			}
			if len(examples) == maxEvalExamples {
				return examples, true
			}
			examples = append(examples, excerpt(doc, at, len(word)))
		}
	}
	return examples, false
}

// identByte reports whether c may be part of a JavaScript name (ASCII; a name with other
// letters before "eval" is rare enough to count as a use).
func identByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// excerpt is the use at doc[at:at+n] with up to 24 bytes of what follows, on one line.
func excerpt(doc []byte, at, n int) string {
	start, end := at, min(len(doc), at+n+24)
	if start >= 4 && bytes.HasPrefix(doc[start-4:], []byte("new ")) {
		start -= 4
	}
	s := bytes.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == '\t' {
			return ' '
		}
		return r
	}, doc[start:end])
	return string(bytes.ToValidUTF8(s, nil)) + "…"
}
