package pin

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
)

// Canonicalization names the canonical form items are hashed in.
const Canonicalization = "RFC 8785 (JCS)"

// Canonical returns the RFC 8785 canonical form of the JSON text b: no whitespace, object
// members sorted by the UTF-16 code units of their names, numbers as ECMAScript's
// Number.prototype.toString prints the IEEE 754 double they denote, strings with only the
// escapes JSON.stringify makes. Numbers that are not finite doubles are an error.
func Canonical(b []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("trailing data after the JSON value")
	}
	var out bytes.Buffer
	if err := canonValue(&out, v); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

func canonValue(w *bytes.Buffer, v any) error {
	switch x := v.(type) {
	case nil:
		w.WriteString("null")
	case bool:
		w.WriteString(strconv.FormatBool(x))
	case json.Number:
		s, err := esNumber(string(x))
		if err != nil {
			return err
		}
		w.WriteString(s)
	case string:
		canonString(w, x)
	case []any:
		w.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				w.WriteByte(',')
			}
			if err := canonValue(w, e); err != nil {
				return err
			}
		}
		w.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.SortFunc(keys, compareUTF16)
		w.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				w.WriteByte(',')
			}
			canonString(w, k)
			w.WriteByte(':')
			if err := canonValue(w, x[k]); err != nil {
				return err
			}
		}
		w.WriteByte('}')
	default:
		return fmt.Errorf("unexpected %T", v)
	}
	return nil
}

// compareUTF16 orders strings by their UTF-16 code units, as RFC 8785 sorts member names.
func compareUTF16(a, b string) int {
	return slices.Compare(utf16.Encode([]rune(a)), utf16.Encode([]rune(b)))
}

// canonString writes s as JSON.stringify does.
func canonString(w *bytes.Buffer, s string) {
	w.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			w.WriteString(`\"`)
		case '\\':
			w.WriteString(`\\`)
		case '\b':
			w.WriteString(`\b`)
		case '\f':
			w.WriteString(`\f`)
		case '\n':
			w.WriteString(`\n`)
		case '\r':
			w.WriteString(`\r`)
		case '\t':
			w.WriteString(`\t`)
		default:
			if r < 0x20 {
				fmt.Fprintf(w, `\u%04x`, r)
			} else {
				w.WriteRune(r)
			}
		}
	}
	w.WriteByte('"')
}

// esNumber prints the double that the JSON number text denotes as ECMAScript does.
func esNumber(text string) (string, error) {
	f, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return "", fmt.Errorf("number %s is not a finite IEEE 754 double", text)
	}
	if f == 0 {
		return "0", nil
	}
	sign := ""
	if f < 0 {
		sign, f = "-", -f
	}
	// Shortest round-tripping digits, as ECMAScript chooses them.
	e := strconv.FormatFloat(f, 'e', -1, 64)
	mant, exp, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	x, _ := strconv.Atoi(exp)
	k, n := len(digits), x+1
	var s string
	switch {
	case k <= n && n <= 21:
		s = digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		s = digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		s = "0." + strings.Repeat("0", -n) + digits
	default:
		es := "+"
		if n-1 < 0 {
			es = "-"
		}
		ex := strconv.Itoa(abs(n - 1))
		if k == 1 {
			s = digits + "e" + es + ex
		} else {
			s = digits[:1] + "." + digits[1:] + "e" + es + ex
		}
	}
	return sign + s, nil
}

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}
