package protocol

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/bits"
	"unicode/utf8"
)

// This file holds a small, strict JSON scanner. Decode uses it instead of encoding/json
// because it only needs the raw spans of the top-level members, and a single validating
// pass that records those spans is several times faster than unmarshalling into a map.
// The scanner never recurses, so deeply nested input cannot exhaust the stack.

// syntaxError says where and why a byte slice is not JSON.
type syntaxError struct {
	off int
	msg string
}

func (e *syntaxError) Error() string { return fmt.Sprintf("%s at byte %d", e.msg, e.off) }

func errAt(b []byte, i int, want string) *syntaxError {
	if i >= len(b) {
		return &syntaxError{off: i, msg: "unexpected end of input, expected " + want}
	}
	r, _ := utf8.DecodeRune(b[i:])
	return &syntaxError{off: i, msg: fmt.Sprintf("unexpected %q, expected %s", r, want)}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipSpace(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

// scanString expects b[i] == '"' and returns the index just past the closing quote and
// whether the string contains escapes.
func scanString(b []byte, i int) (end int, escaped bool, err *syntaxError) {
	if i >= len(b) || b[i] != '"' {
		return i, false, errAt(b, i, "string")
	}
	i++
	for i < len(b) {
		if i = plainRun(b, i); i >= len(b) {
			break
		}
		c := b[i]
		switch {
		case c == '"':
			return i + 1, escaped, nil
		case c == '\\':
			escaped = true
			if i+1 >= len(b) {
				return i, escaped, errAt(b, i+1, "escape")
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(b) {
					return i, escaped, errAt(b, len(b), "four hex digits")
				}
				for k := i + 2; k < i+6; k++ {
					if !isHex(b[k]) {
						return k, escaped, errAt(b, k, "hex digit")
					}
				}
				i += 6
			default:
				return i + 1, escaped, errAt(b, i+1, "escape character")
			}
		case c < 0x20:
			return i, escaped, &syntaxError{off: i, msg: "control character in string"}
		default:
			i++
		}
	}
	return i, escaped, errAt(b, i, `closing '"'`)
}

// plainRun returns the index of the first byte at or after i that needs a look inside a
// string ('"', '\\' or a control character), reading eight bytes at a time: a string of
// megabytes is mostly plain bytes.
func plainRun(b []byte, i int) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for i+8 <= len(b) {
		x := binary.LittleEndian.Uint64(b[i:])
		q, bs := x^(ones*'"'), x^(ones*'\\')
		// A byte of q or bs is zero where x has '"' or '\\'; x-ones*0x20 borrows where a
		// byte is below 0x20. Each term sets the high bit of such a byte. A borrow can also
		// set it spuriously, but only in a byte above one that matched, so the lowest bit
		// set is always a byte that needs a look.
		if m := ((q-ones)&^q | (bs-ones)&^bs | (x-ones*0x20)&^x) & highs; m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
		i += 8
	}
	for i < len(b) && b[i] != '"' && b[i] != '\\' && b[i] >= 0x20 {
		i++
	}
	return i
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// scanNumber returns the end of the number at b[i] and whether it has a fraction or an
// exponent part.
func scanNumber(b []byte, i int) (end int, fractional bool, err *syntaxError) {
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	default:
		return i, false, errAt(b, i, "value")
	}
	if i < len(b) && b[i] == '.' {
		fractional = true
		i++
		if i >= len(b) || !isDigit(b[i]) {
			return i, true, errAt(b, i, "digit")
		}
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		fractional = true
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || !isDigit(b[i]) {
			return i, true, errAt(b, i, "digit")
		}
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	}
	return i, fractional, nil
}

func scanLiteral(b []byte, i int, lit string) (int, *syntaxError) {
	if len(b)-i < len(lit) || string(b[i:i+len(lit)]) != lit {
		return i, errAt(b, i, "value")
	}
	return i + len(lit), nil
}

// scanScalar scans one non-container value starting at b[i].
func scanScalar(b []byte, i int) (int, *syntaxError) {
	if i >= len(b) {
		return i, errAt(b, i, "value")
	}
	switch b[i] {
	case '"':
		end, _, err := scanString(b, i)
		return end, err
	case 't':
		return scanLiteral(b, i, "true")
	case 'f':
		return scanLiteral(b, i, "false")
	case 'n':
		return scanLiteral(b, i, "null")
	}
	end, _, err := scanNumber(b, i)
	return end, err
}

// skipValue scans one complete JSON value starting at b[i] (no leading space) and returns
// the index just past it. Containers are walked with an explicit stack.
func skipValue(b []byte, i int) (int, *syntaxError) {
	end, _, err := scanValue(b, i)
	return end, err
}

// scanValue is skipValue that also reports how deeply the value nests: 0 for a scalar,
// 1 for an object or array of scalars, and so on.
func scanValue(b []byte, i int) (end, depth int, err *syntaxError) {
	var buf [32]byte
	stack := buf[:0]
	for {
		// Expecting a value at b[i].
		if i >= len(b) {
			return i, depth, errAt(b, i, "value")
		}
		switch b[i] {
		case '{':
			i = skipSpace(b, i+1)
			if i < len(b) && b[i] == '}' {
				i++
				depth = max(depth, len(stack)+1)
				break
			}
			stack = append(stack, '{')
			depth = max(depth, len(stack))
			if i, err = scanKeyColon(b, i); err != nil {
				return i, depth, err
			}
			continue
		case '[':
			i = skipSpace(b, i+1)
			if i < len(b) && b[i] == ']' {
				i++
				depth = max(depth, len(stack)+1)
				break
			}
			stack = append(stack, '[')
			depth = max(depth, len(stack))
			continue
		default:
			if i, err = scanScalar(b, i); err != nil {
				return i, depth, err
			}
		}
		// After a value: close containers or move to the next element.
		for {
			if len(stack) == 0 {
				return i, depth, nil
			}
			i = skipSpace(b, i)
			top := stack[len(stack)-1]
			if i < len(b) && b[i] == ',' {
				i = skipSpace(b, i+1)
				if top == '{' {
					if i, err = scanKeyColon(b, i); err != nil {
						return i, depth, err
					}
				}
				break
			}
			if i < len(b) && (top == '{' && b[i] == '}' || top == '[' && b[i] == ']') {
				i++
				stack = stack[:len(stack)-1]
				continue
			}
			if top == '{' {
				return i, depth, errAt(b, i, "',' or '}'")
			}
			return i, depth, errAt(b, i, "',' or ']'")
		}
	}
}

// scanKeyColon scans `"key" :` plus the space after it, leaving i at the value.
func scanKeyColon(b []byte, i int) (int, *syntaxError) {
	end, _, err := scanString(b, i)
	if err != nil {
		return end, err
	}
	i = skipSpace(b, end)
	if i >= len(b) || b[i] != ':' {
		return i, errAt(b, i, "':'")
	}
	return skipSpace(b, i+1), nil
}

// member is one object member: its key (raw, with quotes) and its value span.
type member struct {
	key     []byte // including quotes
	escaped bool   // key contains escapes
	val     []byte
	depth   int // how deeply val nests (see scanValue)
}

// name returns the decoded key.
func (m member) name() string {
	if !m.escaped {
		return string(m.key[1 : len(m.key)-1])
	}
	return decodeString(m.key)
}

// is reports whether the decoded key equals s, without allocating in the common case.
func (m member) is(s string) bool {
	if !m.escaped {
		return string(m.key[1:len(m.key)-1]) == s
	}
	return decodeString(m.key) == s
}

// decodeString decodes a raw JSON string token that scanString accepted.
func decodeString(raw []byte) string {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

// stringValue returns the decoded value of a JSON string span, and false for other types.
func stringValue(v []byte) (string, bool) {
	if len(v) < 2 || v[0] != '"' {
		return "", false
	}
	for _, c := range v[1 : len(v)-1] {
		if c == '\\' {
			return decodeString(v), true
		}
	}
	return string(v[1 : len(v)-1]), true
}

// eachMember walks the members of the object at b[i] (b[i] == '{'), calling fn for each,
// and returns the index just past the object. It stops at the first syntax error, after
// reporting every member it completed.
func eachMember(b []byte, i int, fn func(member)) (int, *syntaxError) {
	if i >= len(b) || b[i] != '{' {
		return i, errAt(b, i, "'{'")
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1, nil
	}
	for {
		kstart := i
		kend, escaped, err := scanString(b, i)
		if err != nil {
			return kend, err
		}
		i = skipSpace(b, kend)
		if i >= len(b) || b[i] != ':' {
			return i, errAt(b, i, "':'")
		}
		i = skipSpace(b, i+1)
		vstart := i
		var depth int
		if i, depth, err = scanValue(b, i); err != nil {
			return i, err
		}
		fn(member{key: b[kstart:kend:kend], escaped: escaped, val: b[vstart:i:i], depth: depth})
		i = skipSpace(b, i)
		if i < len(b) && b[i] == ',' {
			i = skipSpace(b, i+1)
			continue
		}
		if i < len(b) && b[i] == '}' {
			return i + 1, nil
		}
		return i, errAt(b, i, "',' or '}'")
	}
}

// findMember returns the value of the named member of a JSON object span, if present.
// Malformed input yields false.
func findMember(obj []byte, name string) ([]byte, bool) {
	i := skipSpace(obj, 0)
	var found []byte
	ok := false
	_, err := eachMember(obj, i, func(m member) {
		if m.is(name) {
			found, ok = m.val, true
		}
	})
	if err != nil {
		return nil, false
	}
	return found, ok
}
