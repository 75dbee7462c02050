package fault

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/mcpscope/mcpscope/protocol"
)

// corrupt is raw damaged as kind says, or false when kind does not apply to it (a wrong
// id for a message without one).
func corrupt(kind string, f *protocol.Frame, raw []byte) ([][]byte, bool) {
	switch kind {
	case Truncate:
		return [][]byte{clone(raw[:len(raw)/2])}, len(raw) > 1
	case InvalidJSON:
		if len(raw) == 0 {
			return nil, false
		}
		return [][]byte{append(clone(raw[:len(raw)-1]), ',', '}')}, true
	case Duplicate:
		return [][]byte{raw, raw}, true
	case WrongID:
		if f.ID.IsZero() {
			return nil, false
		}
		out, ok := replaceMember(raw, "id", f.ID.Raw, []byte(strconv.Quote("mcpscope-wrong-id-"+strings.Trim(f.ID.String(), `"`))))
		return [][]byte{out}, ok
	case WrongVersion:
		if f.JSONRPC == nil {
			return nil, false
		}
		out, ok := replaceMember(raw, "jsonrpc", f.JSONRPC, []byte(`"1.0"`))
		return [][]byte{out}, ok
	}
	return nil, false
}

// replaceMember is raw with the value of its top-level member name, written as old,
// replaced by repl; the rest of the bytes as they were. It looks for "name" followed by
// white space, a colon, white space and old.
func replaceMember(raw []byte, name string, old, repl []byte) ([]byte, bool) {
	key := []byte(strconv.Quote(name))
	for from := 0; ; {
		i := bytes.Index(raw[from:], key)
		if i < 0 {
			return nil, false
		}
		j := from + i + len(key)
		j = skipSpace(raw, j)
		if j < len(raw) && raw[j] == ':' {
			v := skipSpace(raw, j+1)
			if bytes.HasPrefix(raw[v:], old) {
				out := make([]byte, 0, len(raw)-len(old)+len(repl))
				out = append(append(append(out, raw[:v]...), repl...), raw[v+len(old):]...)
				return out, true
			}
		}
		from = from + i + 1
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

func clone(b []byte) []byte { return append([]byte(nil), b...) }
