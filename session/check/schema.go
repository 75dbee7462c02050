package check

import (
	"bytes"
	"encoding/json"
	"net/url"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcpscope/mcpscope/protocol"
)

// compiled is a tool's schema, compiled.
type compiled struct{ s *jsonschema.Schema }

// validate checks a JSON value against the schema.
func (c *compiled) validate(raw json.RawMessage) error {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return err
	}
	return firstLine(c.s.Validate(v))
}

// defaultDraft is the dialect of a schema without $schema: 2020-12 from 2025-11-25, which
// says so; draft-07, what servers of earlier revisions wrote, before.
func defaultDraft(rev protocol.Revision) *jsonschema.Draft {
	if rev >= protocol.Rev20251125 {
		return jsonschema.Draft2020
	}
	return jsonschema.Draft7
}

// dialect names the dialect a schema is compiled as.
func dialect(raw json.RawMessage, rev protocol.Revision) string {
	var s struct {
		Schema string `json:"$schema"`
	}
	if json.Unmarshal(raw, &s) == nil && s.Schema != "" {
		return "$schema " + s.Schema
	}
	if rev >= protocol.Rev20251125 {
		return "JSON Schema 2020-12, the default of " + string(rev)
	}
	return "JSON Schema draft-07"
}

// compileSchema compiles a schema, checking it against its dialect's metaschema. Only the
// schema's own resources are available: a $ref to another document fails.
func compileSchema(raw json.RawMessage, rev protocol.Revision) (*compiled, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(defaultDraft(rev))
	c.UseLoader(noLoader{})
	const loc = "mcpscope:///schema.json"
	if err := c.AddResource(loc, doc); err != nil {
		return nil, firstLine(err)
	}
	s, err := c.Compile(loc)
	if err != nil {
		return nil, firstLine(err)
	}
	return &compiled{s}, nil
}

// noLoader refuses every document that is not the schema itself.
type noLoader struct{}

func (noLoader) Load(u string) (any, error) {
	return nil, &url.Error{Op: "load", URL: u, Err: errNoLoad}
}

var errNoLoad = errorString("check reads no schema from elsewhere")

type errorString string

func (e errorString) Error() string { return string(e) }

// firstLine keeps an error's detail short: jsonschema's errors span many lines.
func firstLine(err error) error {
	if err == nil {
		return nil
	}
	var b strings.Builder
	for i, l := range strings.Split(strings.TrimSpace(err.Error()), "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(l)
		if i == 2 {
			break
		}
	}
	return errorString(b.String())
}

// MinimalArguments builds the simplest arguments an inputSchema allows: its required
// properties only, each the first enum or const value, its default, or the least value of
// its type within the schema's bounds.
func MinimalArguments(schema json.RawMessage) json.RawMessage {
	v := minimal(schema, 0)
	if _, ok := v.(map[string]any); !ok {
		v = map[string]any{}
	}
	b, _ := json.Marshal(v)
	return b
}

func minimal(raw json.RawMessage, depth int) any {
	var s struct {
		Type       json.RawMessage            `json:"type"`
		Enum       []json.RawMessage          `json:"enum"`
		Const      json.RawMessage            `json:"const"`
		Default    json.RawMessage            `json:"default"`
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
		Minimum    *float64                   `json:"minimum"`
		ExclMin    *float64                   `json:"exclusiveMinimum"`
		MinLength  int                        `json:"minLength"`
		MinItems   int                        `json:"minItems"`
		Items      json.RawMessage            `json:"items"`
		AnyOf      []json.RawMessage          `json:"anyOf"`
		OneOf      []json.RawMessage          `json:"oneOf"`
	}
	if depth > 8 || json.Unmarshal(raw, &s) != nil {
		return nil
	}
	switch {
	case s.Const != nil:
		return s.Const
	case s.Default != nil:
		return s.Default
	case len(s.Enum) > 0:
		return s.Enum[0]
	case len(s.OneOf) > 0:
		return minimal(s.OneOf[0], depth+1)
	case len(s.AnyOf) > 0:
		return minimal(s.AnyOf[0], depth+1)
	}
	typ := ""
	if json.Unmarshal(s.Type, &typ) != nil {
		var types []string
		_ = json.Unmarshal(s.Type, &types)
		for _, t := range types {
			if t != "null" {
				typ = t
				break
			}
		}
	}
	if typ == "" && s.Properties != nil {
		typ = "object"
	}
	switch typ {
	case "object":
		out := map[string]any{}
		names := append([]string(nil), s.Required...)
		sort.Strings(names)
		for _, n := range names {
			out[n] = minimal(s.Properties[n], depth+1)
		}
		return out
	case "array":
		out := []any{}
		for range min(s.MinItems, 16) {
			out = append(out, minimal(s.Items, depth+1))
		}
		return out
	case "string":
		return strings.Repeat("x", min(s.MinLength, 1<<10))
	case "integer", "number":
		switch {
		case s.Minimum != nil:
			return *s.Minimum
		case s.ExclMin != nil:
			return *s.ExclMin + 1
		}
		return 0
	case "boolean":
		return false
	}
	return nil
}

// expandTemplate fills an RFC 6570 template's expressions with values (simple and reserved
// expansion, query and path forms), enough to read a resource of a template.
func expandTemplate(t string, values map[string]string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(t, '{')
		j := strings.IndexByte(t, '}')
		if i < 0 || j < i {
			b.WriteString(t)
			return b.String()
		}
		b.WriteString(t[:i])
		expr := t[i+1 : j]
		op := ""
		if expr != "" && strings.ContainsRune("+#./;?&", rune(expr[0])) {
			op, expr = expr[:1], expr[1:]
		}
		var parts []string
		for _, v := range strings.Split(expr, ",") {
			name := strings.TrimSuffix(v, "*")
			if k := strings.IndexByte(name, ':'); k >= 0 {
				name = name[:k]
			}
			val := values[name]
			if op != "+" && op != "#" {
				val = url.PathEscape(val)
			}
			if op == "?" || op == "&" || op == ";" {
				val = name + "=" + val
			}
			parts = append(parts, val)
		}
		sep := map[string]string{"": ",", "+": ",", "#": ",", ".": ".", "/": "/", ";": ";", "?": "&", "&": "&"}[op]
		prefix := map[string]string{"#": "#", ".": ".", "/": "/", ";": ";", "?": "?", "&": "&"}[op]
		b.WriteString(prefix + strings.Join(parts, sep))
		t = t[j+1:]
	}
}
