package form

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/mcpscope/mcpscope/protocol"
)

// object is a JSON object with its members in document order and their raw values, which
// map-based decoders lose. A repeated key keeps its first position and its last value, as
// encoding/json does.
type object struct {
	keys []string
	vals map[string]json.RawMessage
}

// get returns a member's raw value.
func (o *object) get(k string) (json.RawMessage, bool) {
	if o == nil {
		return nil, false
	}
	v, ok := o.vals[k]
	return v, ok
}

// decodeObject reads raw as an ordered object; it returns nil, nil when raw is valid JSON
// but not an object.
func decodeObject(raw json.RawMessage) (*object, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		if !json.Valid(raw) {
			return nil, errors.New("not valid JSON")
		}
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	o := &object{vals: map[string]json.RawMessage{}}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		k, ok := t.(string)
		if !ok {
			return nil, fmt.Errorf("object key is %v, not a string", t)
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		if _, seen := o.vals[k]; !seen {
			o.keys = append(o.keys, k)
		}
		o.vals[k] = v
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err == nil {
		return nil, errors.New("data after the top-level value")
	}
	return o, nil
}

// decodeArray reads raw as a JSON array of raw values; ok is false when it is not one.
func decodeArray(raw json.RawMessage) ([]json.RawMessage, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '[' {
		return nil, false
	}
	var a []json.RawMessage
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, false
	}
	return a, true
}

// jsonType is the JSON type name of a raw value: object, array, string, number, boolean,
// null, or "" when it is not valid JSON.
func jsonType(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || !json.Valid(raw) {
		return ""
	}
	return protocol.JSONType(raw)
}

// isInteger reports whether a JSON number has no fractional part.
func isInteger(raw json.RawMessage) bool {
	f, err := strconv.ParseFloat(string(bytes.TrimSpace(raw)), 64)
	return err == nil && f == float64(int64(f))
}

// compact is raw without insignificant white space (raw itself when it is not valid).
func compact(raw json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return raw
	}
	return b.Bytes()
}

// sameJSON reports whether two raw values are the same JSON value, member order aside.
func sameJSON(a, b json.RawMessage) bool {
	var x, y any
	da, db := json.NewDecoder(bytes.NewReader(a)), json.NewDecoder(bytes.NewReader(b))
	da.UseNumber()
	db.UseNumber()
	if da.Decode(&x) != nil || db.Decode(&y) != nil {
		return bytes.Equal(a, b)
	}
	return equalValues(x, y)
}

func equalValues(x, y any) bool {
	switch a := x.(type) {
	case map[string]any:
		b, ok := y.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k, v := range a {
			w, ok := b[k]
			if !ok || !equalValues(v, w) {
				return false
			}
		}
		return true
	case []any:
		b, ok := y.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !equalValues(a[i], b[i]) {
				return false
			}
		}
		return true
	case json.Number:
		b, ok := y.(json.Number)
		if !ok {
			return false
		}
		fa, ea := a.Float64()
		fb, eb := b.Float64()
		if ea != nil || eb != nil {
			return a == b
		}
		return fa == fb
	}
	return x == y
}

// resolvePointer finds the value a JSON pointer (without its leading '#') names in doc.
func resolvePointer(doc json.RawMessage, ptr string) (json.RawMessage, error) {
	if ptr == "" {
		return doc, nil
	}
	if !strings.HasPrefix(ptr, "/") {
		return nil, fmt.Errorf("%q is not a JSON pointer", ptr)
	}
	cur := doc
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = protocol.UnescapePointerToken(tok)
		if o, err := decodeObject(cur); err == nil && o != nil {
			v, ok := o.get(tok)
			if !ok {
				return nil, fmt.Errorf("no %q in the schema", tok)
			}
			cur = v
			continue
		}
		a, ok := decodeArray(cur)
		if !ok {
			return nil, fmt.Errorf("cannot step into %q", tok)
		}
		i, err := strconv.Atoi(tok)
		if err != nil || i < 0 || i >= len(a) {
			return nil, fmt.Errorf("no item %q in the schema", tok)
		}
		cur = a[i]
	}
	return cur, nil
}
