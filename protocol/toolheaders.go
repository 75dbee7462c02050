package protocol

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// HeaderParam is one tool parameter that a 2026-07-28 client mirrors into an
// Mcp-Param-{Name} HTTP header on Streamable HTTP (SEP-2243): the inputSchema property
// carries an "x-mcp-header" annotation whose value is Name.
type HeaderParam struct {
	Name string   // the x-mcp-header value, as the server wrote it
	Path []string // the chain of "properties" keys from the schema root to the property
	Type string   // "string", "integer" or "boolean"
}

// Header is the full header name, Mcp-Param-{Name}.
func (p HeaderParam) Header() string { return "Mcp-Param-" + p.Name }

// Pointer is the property's location in the arguments, as a JSON pointer (/region).
func (p HeaderParam) Pointer() string {
	return JoinPointer(p.Path)
}

// headerTypes are the JSON Schema types an x-mcp-header may annotate. "number" is excluded
// by the spec: only integers have one decimal text.
var headerTypes = map[string]bool{"string": true, "integer": true, "boolean": true}

// instanceKeywords hold instance values rather than subschemas; an "x-mcp-header" member
// inside them is data, not an annotation.
var instanceKeywords = map[string]bool{"default": true, "const": true, "enum": true, "examples": true}

// ToolHeaderParams reads the x-mcp-header annotations of a tool's inputSchema and checks
// them against the rules of 2026-07-28 (server/tools and transports/streamable-http): a
// non-empty RFC 9110 token, case-insensitively unique, on a string, integer or boolean
// property that is reachable from the root through "properties" keys only. Any problem
// makes the whole tool invalid: a Streamable HTTP client must exclude it. params are in
// schema order; problems say what is wrong and where, one per violation.
func ToolHeaderParams(inputSchema json.RawMessage) (params []HeaderParam, problems []string) {
	if len(bytes.TrimSpace(inputSchema)) == 0 || !bytes.Contains(inputSchema, []byte(`"x-mcp-header"`)) {
		return nil, nil
	}
	w := headerWalk{seen: map[string]string{}}
	w.schema(inputSchema, "", nil, true)
	return w.params, w.problems
}

type headerWalk struct {
	params   []HeaderParam
	problems []string
	seen     map[string]string // lower-cased name → pointer of its first use
}

// schema visits one subschema at pointer; path is its chain of properties keys while
// reachable is true.
func (w *headerWalk) schema(node json.RawMessage, pointer string, path []string, reachable bool) {
	node = bytes.TrimSpace(node)
	if len(node) > 0 && node[0] == '[' {
		var arr []json.RawMessage
		_ = json.Unmarshal(node, &arr)
		for i, v := range arr {
			w.schema(v, pointer+"/"+strconv.Itoa(i), nil, false)
		}
		return
	}
	members, ok := ObjectMembers(node)
	if !ok {
		return
	}
	for _, m := range members {
		if m.Key == "x-mcp-header" {
			w.annotation(members, m.Value, pointer, path, reachable)
		}
	}
	for _, m := range members {
		switch {
		case instanceKeywords[m.Key] || m.Key == "x-mcp-header":
		case m.Key == "properties":
			props, isObj := ObjectMembers(m.Value)
			if !isObj {
				continue
			}
			for _, p := range props {
				w.schema(p.Value, pointer+"/properties/"+PointerToken(p.Key),
					append(slices.Clip(path), p.Key), reachable)
			}
		default:
			w.schema(m.Value, pointer+"/"+PointerToken(m.Key), nil, false)
		}
	}
}

// annotation checks one x-mcp-header member of the schema object members.
func (w *headerWalk) annotation(members []Member, v json.RawMessage, pointer string, path []string, reachable bool) {
	at := pointer
	if at == "" {
		at = "the schema root"
	}
	bad := func(format string, args ...any) {
		w.problems = append(w.problems, fmt.Sprintf("x-mcp-header at %s: ", at)+fmt.Sprintf(format, args...))
	}
	var name string
	switch {
	case json.Unmarshal(v, &name) != nil:
		bad("the value must be a string, not %s", v)
		return
	case name == "":
		bad("the value must not be empty")
		return
	case !IsHeaderToken(name):
		bad("%q is not an HTTP field-name token (letters, digits and !#$%%&'*+-.^_`|~ only: no spaces, colons, control or non-ASCII characters)", name)
		return
	}
	if !reachable || len(path) == 0 {
		bad("%q is not on a property reachable from the root through \"properties\" alone (not through items, oneOf/anyOf/allOf/not, if/then/else, $ref or $defs)", name)
		return
	}
	typ, problem := primitiveType(members)
	if problem != "" {
		bad("%q: %s", name, problem)
		return
	}
	lower := strings.ToLower(name)
	if first, dup := w.seen[lower]; dup {
		bad("%q collides with the x-mcp-header at %s (names are compared case-insensitively)", name, first)
		return
	}
	w.seen[lower] = pointer
	w.params = append(w.params, HeaderParam{Name: name, Path: path, Type: typ})
}

// primitiveType is the property's type when it is one an x-mcp-header may annotate; a
// type list of one such type and "null" counts (a null value omits the header).
func primitiveType(members []Member) (string, string) {
	var t json.RawMessage
	for _, m := range members {
		if m.Key == "type" {
			t = m.Value
		}
	}
	if t == nil {
		return "", "the property has no type; x-mcp-header is only allowed on string, integer or boolean properties"
	}
	var one string
	var list, types []string
	if json.Unmarshal(t, &one) == nil {
		types = []string{one}
	} else if json.Unmarshal(t, &list) == nil {
		for _, e := range list {
			if e != "null" {
				types = append(types, e)
			}
		}
	}
	if len(types) == 1 && headerTypes[types[0]] {
		return types[0], ""
	}
	return "", fmt.Sprintf("type %s is not allowed; x-mcp-header is only allowed on string, integer or boolean properties (not number, object, array or null)", bytes.TrimSpace(t))
}

// IsHeaderToken reports whether s is an RFC 9110 token (1*tchar), the syntax of an HTTP
// field name.
func IsHeaderToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// HeaderParamValue is the text of p's header for a call with these arguments (a JSON
// object), converted as 2026-07-28 "Value Encoding" says: a string as it is, an integer in
// decimal, a boolean as true or false. ok is false when the header is to be omitted: the
// value is absent or null. A value of another JSON type than p.Type is converted by its own
// type, so that a server sees what the body holds; an object or array has no header form
// and is omitted. The result is not yet header-safe: the transport applies the Base64
// sentinel encoding.
func HeaderParamValue(p HeaderParam, args json.RawMessage) (value string, ok bool) {
	cur := bytes.TrimSpace(args)
	for _, key := range p.Path {
		if len(cur) == 0 || cur[0] != '{' {
			return "", false
		}
		var m map[string]json.RawMessage
		if json.Unmarshal(cur, &m) != nil {
			return "", false
		}
		next, has := m[key]
		if !has {
			return "", false
		}
		cur = bytes.TrimSpace(next)
	}
	if len(cur) == 0 {
		return "", false
	}
	switch cur[0] {
	case 'n', '{', '[':
		return "", false
	case 't', 'f':
		return string(cur), true
	case '"':
		var s string
		if json.Unmarshal(cur, &s) != nil {
			return "", false
		}
		return s, true
	}
	return integerText(string(cur)), true
}

// integerText writes a JSON number that has an integer value in plain decimal (42.0 and
// 4.2e1 become 42); any other number keeps its literal text.
func integerText(lit string) string {
	if _, err := strconv.ParseInt(lit, 10, 64); err == nil {
		return lit
	}
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil || f != float64(int64(f)) || f > 1<<53 || f < -(1<<53) {
		return lit
	}
	return strconv.FormatInt(int64(f), 10)
}

// ToolHeaderFindings flags every tool of a tools/list result whose x-mcp-header
// annotations are invalid, one finding per tool naming all its problems.
func ToolHeaderFindings(result json.RawMessage) []Finding {
	if !bytes.Contains(result, []byte(`"x-mcp-header"`)) {
		return nil
	}
	var res struct {
		Tools []struct {
			Name        string          `json:"name"`
			InputSchema json.RawMessage `json:"inputSchema"`
		} `json:"tools"`
	}
	if json.Unmarshal(result, &res) != nil {
		return nil
	}
	var out []Finding
	for _, t := range res.Tools {
		if _, problems := ToolHeaderParams(t.InputSchema); len(problems) > 0 {
			out = append(out, NewFinding(FindToolHeader, "tool %q is excluded from calls over Streamable HTTP: %s",
				t.Name, strings.Join(problems, "; ")))
		}
	}
	return out
}
