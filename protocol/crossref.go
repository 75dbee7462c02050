package protocol

import (
	"strings"
	"unicode/utf8"
)

// references are the words of a description that may name a tool, for the rule across
// servers: every identifier-like word ("read_file", "getUser", "v2.search"), and a plain
// word ("fetch", "search") only where the text marks it as a name: quoted or backticked
// ("`fetch`", "'fetch'", "“fetch”") or followed by the word tool ("the fetch tool"). So
// "Prefer the `fetch` tool" names fetch, and "fetch the page" does not.
func references(text string) []string {
	var out []string
	isWordByte := func(c byte) bool {
		return c == '_' || c == '-' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	for i := 0; i < len(text); {
		if !isWordByte(text[i]) {
			i++
			continue
		}
		start := i
		for i < len(text) && isWordByte(text[i]) {
			i++
		}
		w := strings.TrimRight(text[start:i], ".-")
		end := start + len(w)
		switch {
		case w == "":
		case identifierLike(w):
			out = append(out, w)
		case quotedAt(text, start, end) || followedByTool(text[end:]):
			out = append(out, w)
		}
	}
	return out
}

// quotedAt reports whether text[start:end] is enclosed in quotes or backticks.
func quotedAt(text string, start, end int) bool {
	before, _ := utf8.DecodeLastRuneInString(text[:start])
	after, _ := utf8.DecodeRuneInString(text[end:])
	switch before {
	case '`', '\'', '"':
		return after == before
	case '‘':
		return after == '’'
	case '“':
		return after == '”'
	}
	return false
}

// followedByTool reports whether rest starts with the word tool (or tools) after spaces.
func followedByTool(rest string) bool {
	r := strings.TrimLeft(rest, " ")
	if len(r) == len(rest) {
		return false
	}
	for _, w := range []string{"tools", "tool"} {
		if len(r) >= len(w) && strings.EqualFold(r[:len(w)], w) {
			if len(r) == len(w) || !isLetterOrDigit(r[len(w)]) {
				return true
			}
		}
	}
	return false
}

func isLetterOrDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}
