package protocol

import "strings"

// JSON pointers (RFC 6901) name a value inside a JSON document: "/tools/0/inputSchema". A
// reference token spells ~ as ~0 and / as ~1. These are the one escape and unescape of the
// module; everything that builds or reads a pointer goes through them.

// PointerToken escapes one reference token of a JSON pointer: ~ as ~0, / as ~1. A token
// without either is returned as it is, with no allocation.
func PointerToken(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// UnescapePointerToken undoes PointerToken: ~1 as /, then ~0 as ~, so "~01" is "~1".
func UnescapePointerToken(tok string) string {
	if !strings.Contains(tok, "~") {
		return tok
	}
	return strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
}

// JoinPointer makes a JSON pointer of unescaped tokens: "" for none (the whole document).
func JoinPointer(toks []string) string {
	var b strings.Builder
	for _, t := range toks {
		b.WriteByte('/')
		b.WriteString(PointerToken(t))
	}
	return b.String()
}

// SplitPointer returns the unescaped tokens of a JSON pointer; "" (the whole document)
// has none. The leading / is optional.
func SplitPointer(p string) []string {
	p = strings.TrimPrefix(p, "/")
	if p == "" {
		return nil
	}
	toks := strings.Split(p, "/")
	for i, t := range toks {
		toks[i] = UnescapePointerToken(t)
	}
	return toks
}
