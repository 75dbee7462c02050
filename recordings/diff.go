package recordings

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/mcpscope/mcpscope/protocol"
)

// Difference is one place where two JSON values differ. Recorded or Live is nil when the
// member or element is absent on that side.
type Difference struct {
	Path     string          `json:"path"` // JSON pointer (RFC 6901); "" is the whole value
	Recorded json.RawMessage `json:"recorded,omitempty"`
	Live     json.RawMessage `json:"live,omitempty"`
}

func (d Difference) String() string {
	p := d.Path
	if p == "" {
		p = "(whole value)"
	}
	return fmt.Sprintf("%s: %s → %s", p, shown(d.Recorded), shown(d.Live))
}

func shown(v json.RawMessage) string {
	if v == nil {
		return "(absent)"
	}
	s := string(v)
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// DefaultIgnores are left out of replay comparisons unless turned off: they identify a
// connection or a build of the server rather than what it answered.
//
//   - /id: the JSON-RPC id, which the replay renumbers;
//   - /result/_meta/**: result metadata, which MCP reserves for implementation details;
//   - /result/requestState: the opaque state of a 2026-07-28 input_required result;
//   - **/sessionId: session identifiers, new for every connection;
//   - /result/serverInfo/version: the server's build, in the initialize result;
//   - /params/_meta/**: a server request's metadata (see Responder);
//   - **/elicitationId: an elicitation's id, new for every elicitation.
var DefaultIgnores = []string{"/id", "/result/_meta/**", "/result/requestState", "**/sessionId", "/result/serverInfo/version", "/params/_meta/**", "**/elicitationId"}

// Ignore is a set of JSON pointer patterns whose places Diff leaves out. A pattern is a JSON
// pointer whose segments may be globs (path.Match syntax: "*" matches within one segment);
// a "**" segment matches any number of segments. A pattern that matches a place also
// covers everything below it.
type Ignore struct {
	pats [][]string
}

// NewIgnore compiles patterns; each must start with "/" (or be "" for everything).
func NewIgnore(patterns ...string) (*Ignore, error) {
	ig := &Ignore{}
	for _, p := range patterns {
		if p != "" && !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "**") {
			return nil, fmt.Errorf("ignore pattern %q: want a JSON pointer such as /result/_meta/** or /result/content/*/text", p)
		}
		segs := protocol.SplitPointer(p)
		for _, s := range segs {
			if _, err := path.Match(s, ""); err != nil {
				return nil, fmt.Errorf("ignore pattern %q: %w", p, err)
			}
		}
		ig.pats = append(ig.pats, segs)
	}
	return ig, nil
}

// Match reports whether the place at segs (unescaped pointer segments) is ignored.
func (ig *Ignore) match(segs []string) bool {
	if ig == nil {
		return false
	}
	for _, p := range ig.pats {
		if matchSegs(p, segs) {
			return true
		}
	}
	return false
}

// matchSegs matches a pattern against a path prefix: a pattern that matches the first
// segments of a path matches the path.
func matchSegs(pat, segs []string) bool {
	if len(pat) == 0 {
		return true
	}
	if pat[0] == "**" {
		for k := 0; k <= len(segs); k++ {
			if matchSegs(pat[1:], segs[k:]) {
				return true
			}
		}
		return false
	}
	if len(segs) == 0 {
		return false
	}
	if ok, _ := path.Match(pat[0], segs[0]); !ok {
		return false
	}
	return matchSegs(pat[1:], segs[1:])
}

// Diff compares two JSON texts structurally: object members by key, arrays element by
// element, numbers by value, everything else by type and value. Places ig matches are left
// out. Texts that are not JSON are compared as bytes and differ at "" when unequal.
func Diff(recorded, live []byte, ig *Ignore) []Difference {
	a, errA := decodeJSON(recorded)
	b, errB := decodeJSON(live)
	if errA != nil || errB != nil {
		if bytes.Equal(recorded, live) || ig.match(nil) {
			return nil
		}
		return []Difference{{Path: "", Recorded: asJSON(recorded), Live: asJSON(live)}}
	}
	var out []Difference
	diffValue(a, b, nil, ig, &out)
	return out
}

// asJSON is b when it is JSON, else b as a JSON string.
func asJSON(b []byte) json.RawMessage {
	if b == nil {
		return nil
	}
	if json.Valid(b) {
		return b
	}
	q, _ := json.Marshal(string(b))
	return q
}

func decodeJSON(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("trailing data")
	}
	return v, nil
}

func diffValue(a, b any, segs []string, ig *Ignore, out *[]Difference) {
	if ig.match(segs) {
		return
	}
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			break
		}
		keys := make([]string, 0, len(x)+len(y))
		for k := range x {
			keys = append(keys, k)
		}
		for k := range y {
			if _, ok := x[k]; !ok {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			va, inA := x[k]
			vb, inB := y[k]
			sub := append(segs[:len(segs):len(segs)], k)
			switch {
			case inA && inB:
				diffValue(va, vb, sub, ig, out)
			case !ig.match(sub):
				d := Difference{Path: protocol.JoinPointer(sub)}
				if inA {
					d.Recorded = encode(va)
				} else {
					d.Live = encode(vb)
				}
				*out = append(*out, d)
			}
		}
		return
	case []any:
		y, ok := b.([]any)
		if !ok {
			break
		}
		for i := 0; i < max(len(x), len(y)); i++ {
			sub := append(segs[:len(segs):len(segs)], strconv.Itoa(i))
			switch {
			case i < len(x) && i < len(y):
				diffValue(x[i], y[i], sub, ig, out)
			case !ig.match(sub):
				d := Difference{Path: protocol.JoinPointer(sub)}
				if i < len(x) {
					d.Recorded = encode(x[i])
				} else {
					d.Live = encode(y[i])
				}
				*out = append(*out, d)
			}
		}
		return
	default:
		if scalarEqual(a, b) {
			return
		}
	}
	*out = append(*out, Difference{Path: protocol.JoinPointer(segs), Recorded: encode(a), Live: encode(b)})
}

func scalarEqual(a, b any) bool {
	switch x := a.(type) {
	case json.Number:
		y, ok := b.(json.Number)
		if !ok {
			return false
		}
		if x == y {
			return true
		}
		fa, okA := new(big.Float).SetString(string(x))
		fb, okB := new(big.Float).SetString(string(y))
		return okA && okB && fa.Cmp(fb) == 0
	case string:
		y, ok := b.(string)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case nil:
		return b == nil
	}
	return false
}

// encode renders a decoded value as compact JSON, without HTML escaping.
func encode(v any) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}
