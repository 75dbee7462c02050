package protocol

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// MaxNesting is the deepest nesting of arrays and objects that JSON decoders are expected to
// accept: encoding/json refuses anything deeper. A frame that nests deeper gets FindTooDeep.
const MaxNesting = 10000

// ErrTooDeep is the error for JSON that nests beyond MaxNesting levels.
var ErrTooDeep = fmt.Errorf("nesting beyond %d levels", MaxNesting)

// DescribeJSONError says what happened when encoding/json gave up on a value: its error for
// nesting beyond MaxNesting ("exceeded max depth") becomes one that wraps ErrTooDeep and says
// so in plain words. Any other error is returned unchanged.
func DescribeJSONError(err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) && strings.Contains(se.Error(), "exceeded max depth") {
		return fmt.Errorf("the JSON nests too deeply to decode (%w); it is kept as received", ErrTooDeep)
	}
	return err
}

// ArrayElements splits a JSON array into its elements, keeping each one's bytes. Unlike
// encoding/json it has no nesting limit. ok is false when raw is not exactly one
// well-formed array (surrounding space allowed).
func ArrayElements(raw []byte) (elems []json.RawMessage, ok bool) {
	i := skipSpace(raw, 0)
	if i == len(raw) || raw[i] != '[' {
		return nil, false
	}
	end, err := skipValue(raw, i)
	if err != nil || skipSpace(raw, end) != len(raw) {
		return nil, false
	}
	elems = []json.RawMessage{}
	for j := skipSpace(raw, i+1); raw[j] != ']'; {
		e, _ := skipValue(raw, j)
		elems = append(elems, json.RawMessage(raw[j:e:e]))
		if j = skipSpace(raw, e); raw[j] == ',' {
			j = skipSpace(raw, j+1)
		}
	}
	return elems, true
}
