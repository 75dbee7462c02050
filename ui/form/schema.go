package form

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Kind is what a schema asks for, and so which editor its field gets.
type Kind int

// The kinds of field.
const (
	KindAny     Kind = iota // no usable type: edited as JSON text
	KindString              // text, with a format hint
	KindNumber              // a JSON number
	KindInteger             // a JSON number without fraction
	KindBoolean             // a toggle
	KindNull                // only null
	KindConst               // one fixed value
	KindEnum                // a choice among values (enum, oneOf/anyOf of consts)
	KindArray               // a list of Items
	KindObject              // Properties in schema order
	KindVariant             // a choice among Variants (oneOf/anyOf, or several types)
)

// Option is one value of an enum, with the title to show for it.
type Option struct {
	Value json.RawMessage
	Title string
}

// Property is one member of an object schema.
type Property struct {
	Name     string
	Required bool
	Schema   *Schema
}

// Schema is a parsed, $ref-resolved schema node. A recursive schema is a graph: a $ref
// back to a node still being read yields that same node, so walkers must guard cycles.
type Schema struct {
	Kind        Kind
	Title       string
	Description string
	Format      string          // "email", "uri", "date", …
	Multiline   bool            // a string better edited on several lines
	Nullable    bool            // null is allowed besides Kind
	Default     json.RawMessage // nil when there is none
	Const       json.RawMessage // the value of a KindConst

	Options []Option // KindEnum

	Minimum, Maximum, ExclusiveMinimum, ExclusiveMaximum, MultipleOf *float64
	MinLength, MaxLength, MinItems, MaxItems                         *int

	Properties []Property // KindObject, in schema order
	// Additional is the schema of the members the user may add to a KindObject, by a key
	// of their choice: additionalProperties (a schema, or true for any value) or, without
	// it, patternProperties (its one schema, any value when there are several). Nil when
	// the object takes only its Properties.
	Additional *Schema
	Items      *Schema   // KindArray; nil means any item
	Variants   []*Schema // KindVariant

	// Ref is the local reference this node was read through, for display.
	Ref string

	root *root // set on the node Parse returns
}

// root is what validation needs from the whole document.
type root struct {
	compiled   *jsonschema.Schema
	compileErr error
}

// maxDepth bounds how deeply Parse follows nested schemas.
const maxDepth = 64

// Parse reads a tool's inputSchema. Properties keep the schema's order; local $refs
// ("#/$defs/…", "#") are resolved, recursive ones included; any other $ref is refused,
// since the form never fetches schemas from the network. An empty or null schema is an
// object without properties. The schema is also compiled for validation; a schema that
// parses but does not compile still gives a form, and Validate reports why it cannot check.
func Parse(raw json.RawMessage) (*Schema, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		raw = json.RawMessage(`{"type":"object"}`)
	}
	if !json.Valid(raw) {
		return nil, errors.New("the input schema is not valid JSON")
	}
	p := &parser{doc: raw, memo: map[string]*Schema{}, busy: map[string]bool{}}
	s, err := p.node(raw, "", 0)
	if err != nil {
		return nil, err
	}
	r := &root{}
	r.compiled, r.compileErr = compile(raw)
	top := *s
	top.root = r
	return &top, nil
}

// Empty reports whether the schema takes no arguments at all, so the tool can be called
// without showing a form.
func (s *Schema) Empty() bool {
	return s.Kind == KindObject && len(s.Properties) == 0 && s.Additional == nil || s.Kind == KindAny && s.Default == nil
}

type parser struct {
	doc  json.RawMessage
	memo map[string]*Schema // by $ref target
	busy map[string]bool    // $ref targets being read
}

// node reads the schema at raw (found at pointer ptr of the document).
func (p *parser) node(raw json.RawMessage, ptr string, depth int) (*Schema, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("the schema nests deeper than %d levels at %q", maxDepth, ptr)
	}
	o, err := decodeObject(raw)
	if err != nil {
		return nil, fmt.Errorf("schema at %q: %w", "#"+ptr, err)
	}
	if o == nil { // true, false, or something that is not a schema
		return &Schema{Kind: KindAny}, nil
	}
	if ref, ok := o.get("$ref"); ok {
		return p.ref(o, ref, ptr, depth)
	}
	s := &Schema{}
	if err := p.fill(s, o, ptr, depth); err != nil {
		return nil, err
	}
	return s, nil
}

// ref resolves a local $ref, applying the annotations written beside it.
func (p *parser) ref(o *object, raw json.RawMessage, ptr string, depth int) (*Schema, error) {
	var ref string
	if err := json.Unmarshal(raw, &ref); err != nil {
		return nil, fmt.Errorf("$ref at %q is not a string", "#"+ptr)
	}
	if !strings.HasPrefix(ref, "#") {
		return nil, fmt.Errorf("$ref %q at %q points outside the schema: only local references (\"#/…\") are supported, and the form never fetches schemas", ref, "#"+ptr)
	}
	target, err := url.PathUnescape(ref[1:])
	if err != nil {
		return nil, fmt.Errorf("$ref %q: %w", ref, err)
	}
	if target != "" && !strings.HasPrefix(target, "/") {
		return nil, fmt.Errorf("$ref %q: anchors are not supported, use a JSON pointer (\"#/$defs/…\")", ref)
	}
	t, ok := p.memo[target]
	if !ok {
		sub, err := resolvePointer(p.doc, target)
		if err != nil {
			return nil, fmt.Errorf("$ref %q: %w", ref, err)
		}
		t = &Schema{Ref: ref}
		p.memo[target] = t // a $ref back to this node, met while reading it, gets t itself
		p.busy[target] = true
		if so, err := decodeObject(sub); err == nil && so != nil {
			if inner, ok := so.get("$ref"); ok {
				r, err := p.ref(so, inner, target, depth+1)
				if err != nil {
					return nil, err
				}
				*t = *r
				t.Ref = ref
			} else if err := p.fill(t, so, target, depth+1); err != nil {
				return nil, err
			}
		} else {
			t.Kind = KindAny
		}
		delete(p.busy, target)
	}
	if len(o.keys) == 1 || p.busy[target] {
		return t, nil // a node still being read cannot be copied yet
	}
	// Annotations beside $ref apply to this use only.
	c := *t
	var sib Schema
	if err := p.annotations(&sib, o); err != nil {
		return nil, err
	}
	if sib.Title != "" {
		c.Title = sib.Title
	}
	if sib.Description != "" {
		c.Description = sib.Description
	}
	if sib.Default != nil {
		c.Default = sib.Default
	}
	if sib.Nullable {
		c.Nullable = true
	}
	return &c, nil
}

// annotations reads the keywords that only describe: title, description, default, format.
func (p *parser) annotations(s *Schema, o *object) error {
	str := func(k string) string {
		var v string
		if raw, ok := o.get(k); ok {
			_ = json.Unmarshal(raw, &v)
		}
		return v
	}
	s.Title, s.Description, s.Format = str("title"), str("description"), str("format")
	if d, ok := o.get("default"); ok {
		s.Default = compact(d)
	}
	if n, ok := o.get("nullable"); ok && string(bytes.TrimSpace(n)) == "true" {
		s.Nullable = true
	}
	return nil
}

// fill reads an object schema without $ref into s.
func (p *parser) fill(s *Schema, o *object, ptr string, depth int) error {
	if err := p.annotations(s, o); err != nil {
		return err
	}
	num := func(k string) *float64 {
		raw, ok := o.get(k)
		if !ok {
			return nil
		}
		f, err := strconv.ParseFloat(string(bytes.TrimSpace(raw)), 64)
		if err != nil {
			return nil
		}
		return &f
	}
	count := func(k string) *int {
		if f := num(k); f != nil && *f >= 0 && *f < 1<<31 {
			n := int(*f)
			return &n
		}
		return nil
	}
	s.Minimum, s.Maximum, s.MultipleOf = num("minimum"), num("maximum"), num("multipleOf")
	s.ExclusiveMinimum, s.ExclusiveMaximum = num("exclusiveMinimum"), num("exclusiveMaximum")
	for _, ex := range []struct {
		kw       string
		bound    **float64
		excluded **float64
	}{{"exclusiveMinimum", &s.Minimum, &s.ExclusiveMinimum}, {"exclusiveMaximum", &s.Maximum, &s.ExclusiveMaximum}} {
		if raw, ok := o.get(ex.kw); ok && string(bytes.TrimSpace(raw)) == "true" { // draft 4
			*ex.excluded, *ex.bound = *ex.bound, nil
		}
	}
	s.MinLength, s.MaxLength = count("minLength"), count("maxLength")
	s.MinItems, s.MaxItems = count("minItems"), count("maxItems")
	s.Multiline = multilineHint(o, s)

	types := p.types(o)
	for i := 0; i < len(types); i++ {
		if types[i] == "null" {
			s.Nullable = true
			types = append(types[:i:i], types[i+1:]...)
			i--
		}
	}
	if err := p.allOf(s, o, ptr, depth); err != nil {
		return err
	}
	if err := p.object(s, o, ptr, depth); err != nil {
		return err
	}
	if items, ok := o.get("items"); ok {
		if _, isArr := decodeArray(items); !isArr {
			it, err := p.node(items, ptr+"/items", depth+1)
			if err != nil {
				return err
			}
			s.Items = it
		}
	}
	if c, ok := o.get("const"); ok {
		s.Kind, s.Const = KindConst, compact(c)
		return nil
	}
	if e, ok := o.get("enum"); ok {
		vals, _ := decodeArray(e)
		titles := enumNames(o)
		for i, v := range vals {
			if jsonType(v) == "null" {
				s.Nullable = true
				continue
			}
			opt := Option{Value: compact(v)}
			if i < len(titles) {
				opt.Title = titles[i]
			}
			s.Options = append(s.Options, opt)
		}
		s.Kind = KindEnum
		return nil
	}
	for _, kw := range []string{"oneOf", "anyOf"} {
		if alts, ok := o.get(kw); ok {
			if done, err := p.alternatives(s, o, alts, ptr+"/"+kw, types, depth); done || err != nil {
				return err
			}
		}
	}
	switch {
	case len(types) > 1:
		s.Kind = KindVariant
		for _, t := range types {
			v := *s
			v.Kind, v.Title, v.Description, v.Default, v.Nullable, v.Variants = kindOf(t), t, "", nil, false, nil
			s.Variants = append(s.Variants, &v)
		}
	case len(types) == 1:
		s.Kind = kindOf(types[0])
	case len(s.Properties) > 0 || s.Additional != nil:
		s.Kind = KindObject
	case s.Items != nil:
		s.Kind = KindArray
	case s.Kind == KindAny && s.Nullable && len(types) == 0 && typesWritten(o):
		s.Kind = KindNull
	}
	freeForm(s, o, depth)
	return nil
}

// types reads "type" as a list.
func (p *parser) types(o *object) []string {
	raw, ok := o.get("type")
	if !ok {
		return nil
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return []string{one}
	}
	var many []string
	_ = json.Unmarshal(raw, &many)
	return many
}

func typesWritten(o *object) bool { _, ok := o.get("type"); return ok }

// kindOf maps a JSON Schema type name to a Kind.
func kindOf(t string) Kind {
	switch t {
	case "string":
		return KindString
	case "number":
		return KindNumber
	case "integer":
		return KindInteger
	case "boolean":
		return KindBoolean
	case "null":
		return KindNull
	case "array":
		return KindArray
	case "object":
		return KindObject
	}
	return KindAny
}

// alternatives reads oneOf/anyOf: consts become an enum, {"type":"null"} makes the schema
// nullable, a single remaining alternative is merged, and several become variants. done
// reports that s is complete.
func (p *parser) alternatives(s *Schema, o *object, raw json.RawMessage, ptr string, types []string, depth int) (bool, error) {
	alts, _ := decodeArray(raw)
	var rest []*Schema
	var opts []Option
	for i, a := range alts {
		v, err := p.node(a, ptr+"/"+strconv.Itoa(i), depth+1)
		if err != nil {
			return false, err
		}
		switch {
		case v.Kind == KindNull:
			s.Nullable = true
		case v.Kind == KindConst:
			opts = append(opts, Option{Value: v.Const, Title: v.Title})
		case v.Kind == KindEnum && len(v.Options) == 1:
			opts = append(opts, Option{Value: v.Options[0].Value, Title: v.Title})
		default:
			rest = append(rest, v)
		}
	}
	if len(opts) > 0 && len(rest) == 0 {
		s.Kind, s.Options = KindEnum, opts
		return true, nil
	}
	for _, v := range opts {
		rest = append(rest, &Schema{Kind: KindConst, Const: v.Value, Title: v.Title})
	}
	base := len(s.Properties) > 0
	if len(rest) == 1 && rest[0] != s {
		mergeInto(s, rest[0], base)
		return s.Kind != KindAny || len(types) == 0, nil
	}
	if len(rest) == 0 {
		return false, nil
	}
	s.Kind = KindVariant
	for _, v := range rest {
		if base && v != s {
			c := *s
			c.Kind, c.Variants, c.Title, c.Description, c.Default, c.Nullable = KindObject, nil, v.Title, v.Description, nil, false
			c.Properties = append([]Property(nil), s.Properties...)
			for _, pr := range v.Properties {
				c.setProperty(pr)
			}
			v = &c
		}
		s.Variants = append(s.Variants, v)
	}
	return true, nil
}

// mergeInto folds the only alternative v into s (anyOf [X, {"type":"null"}] is X, nullable).
func mergeInto(s, v *Schema, base bool) {
	nullable, title, desc, def := s.Nullable || v.Nullable, s.Title, s.Description, s.Default
	props := s.Properties
	*s = *v
	s.Nullable = nullable
	if title != "" {
		s.Title = title
	}
	if desc != "" {
		s.Description = desc
	}
	if def != nil {
		s.Default = def
	}
	if base {
		s.Properties = append([]Property(nil), props...)
		for _, pr := range v.Properties {
			s.setProperty(pr)
		}
		s.Kind = KindObject
	}
}

// enumNames reads the titles some servers give enum values beside the enum.
func enumNames(o *object) []string {
	for _, k := range []string{"enumNames", "x-enumNames", "enumTitles"} {
		if raw, ok := o.get(k); ok {
			var t []string
			if json.Unmarshal(raw, &t) == nil {
				return t
			}
		}
	}
	return nil
}

// multilineHint guesses whether a string wants several lines: an explicit hint, a long
// maxLength, or a description saying so.
func multilineHint(o *object, s *Schema) bool {
	for _, k := range []string{"multiline", "x-multiline", "x-ui-multiline"} {
		if raw, ok := o.get(k); ok && string(bytes.TrimSpace(raw)) == "true" {
			return true
		}
	}
	if raw, ok := o.get("contentMediaType"); ok && strings.Contains(string(raw), "markdown") {
		return true
	}
	if s.MaxLength != nil && *s.MaxLength > 200 {
		return true
	}
	d := strings.ToLower(s.Description)
	for _, w := range []string{"multi-line", "multiline", "several lines", "multiple lines", "markdown"} {
		if strings.Contains(d, w) {
			return true
		}
	}
	return false
}
