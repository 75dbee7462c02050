package protocol

import (
	"bytes"
	"encoding/json"
)

// This file holds a lenient scanner for hot paths that only need to find members in bytes
// already framed (a recorded event line, an SSE event's data): it finds the ends of strings
// and nested values without validating them, so it is much cheaper than the strict scanner
// in scan.go, and it never recurses. Use the strict one (Decode) where the bytes must be
// judged.

// ScanMembers calls fn with each member of the JSON object b, in order: its key as written
// (without the quotes; escapes are not decoded) and its value's bytes. It stops when fn
// returns false. It reports false when b is not an object this scanner can walk at this
// level: fn has then seen the members before the fault.
func ScanMembers(b []byte, fn func(key, val []byte) bool) bool {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return true
	}
	for i < len(b) {
		if b[i] != '"' {
			return false
		}
		end := lenientString(b, i)
		if end < 0 {
			return false
		}
		key := b[i+1 : end-1]
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return false
		}
		i = skipSpace(b, i+1)
		vend := lenientValue(b, i)
		if vend < 0 {
			return false
		}
		if !fn(key, b[i:vend]) {
			return true
		}
		i = skipSpace(b, vend)
		if i >= len(b) {
			return false
		}
		switch b[i] {
		case '}':
			return true
		case ',':
			i = skipSpace(b, i+1)
		default:
			return false
		}
	}
	return false
}

// StringText is the text of the JSON string value v, "" when v is not a string.
func StringText(v []byte) string {
	if len(v) < 2 || v[0] != '"' {
		return ""
	}
	if bytes.IndexByte(v, '\\') < 0 {
		return string(v[1 : len(v)-1])
	}
	var s string
	_ = json.Unmarshal(v, &s)
	return s
}

// lenientString is the index just past the JSON string starting at b[i] ('"'), or -1.
func lenientString(b []byte, i int) int {
	j := i + 1
	for {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return -1
		}
		q := j + k
		n := 0
		for p := q - 1; p > i && b[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			return q + 1
		}
		j = q + 1
	}
}

// lenientValue is the index just past the JSON value starting at b[i], or -1.
func lenientValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return lenientString(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				e := lenientString(b, j)
				if e < 0 {
					return -1
				}
				j = e - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	}
	j := i
	for j < len(b) && !endsScalar(b[j]) {
		j++
	}
	if j == i {
		return -1
	}
	return j
}

// endsScalar reports whether c ends a number or a literal.
func endsScalar(c byte) bool {
	switch c {
	case ',', '}', ']', ' ', '\t', '\r', '\n':
		return true
	}
	return false
}
