package protocol

import (
	"encoding/json"
	"strconv"
)

// IntID returns the id written as the integer n.
func IntID(n int64) ID { return ID{Raw: strconv.AppendInt(nil, n, 10)} }

// StringID returns the id written as the JSON string s.
func StringID(s string) ID {
	b, _ := json.Marshal(s) // a string always marshals
	return ID{Raw: b}
}

// IsZero reports whether the id is absent.
func (id ID) IsZero() bool { return len(id.Raw) == 0 }

// String returns the id exactly as written ("" when absent).
func (id ID) String() string { return string(id.Raw) }

// Kind reports the JSON type of the id. A number with a fraction or an exponent part
// (1.5, 1.0, 1e3) is IDFractional even when its value is whole: MCP asks for integers and
// mcpscope reports what was written.
func (id ID) Kind() IDKind {
	if len(id.Raw) == 0 {
		return IDAbsent
	}
	switch c := id.Raw[0]; {
	case c == '"':
		return IDString
	case c == 'n':
		return IDNull
	case c == '-' || isDigit(c):
		if _, frac, err := scanNumber(id.Raw, 0); err == nil && frac {
			return IDFractional
		}
		return IDInteger
	}
	return IDOther
}

// Key returns the canonical key used to match a response to its request:
//
//   - strings become "s:" followed by the decoded value, so "\u0031" and "1" match each other
//     but never the number 1;
//   - integers become "n:" followed by the digits as written (-0 becomes 0); big integers are
//     kept exactly, never rounded through float64;
//   - fractional numbers become "f:" followed by the text as written, so 1.0 and 1 stay
//     distinct: a peer that rewrites an id has changed it, and the mismatch is worth seeing;
//   - null becomes "null"; other types become "x:" and their raw text; absent is "".
func (id ID) Key() string {
	switch id.Kind() {
	case IDAbsent:
		return ""
	case IDString:
		s, _ := stringValue(id.Raw)
		return "s:" + s
	case IDInteger:
		if string(id.Raw) == "-0" {
			return "n:0"
		}
		return "n:" + string(id.Raw)
	case IDFractional:
		return "f:" + string(id.Raw)
	case IDNull:
		return "null"
	}
	return "x:" + string(id.Raw)
}

// Int returns the id's value when it is an integer that fits in int64.
func (id ID) Int() (int64, bool) {
	if id.Kind() != IDInteger {
		return 0, false
	}
	n, err := strconv.ParseInt(string(id.Raw), 10, 64)
	return n, err == nil
}

// String returns the name of an id kind.
func (k IDKind) String() string {
	switch k {
	case IDString:
		return "string"
	case IDInteger:
		return "integer"
	case IDFractional:
		return "fractional number"
	case IDNull:
		return "null"
	case IDOther:
		return "object, array or boolean"
	}
	return "absent"
}
