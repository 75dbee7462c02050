package form

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/mcpscope/mcpscope/protocol"
)

// field is the state of one value in the form. Object members and array items are kids; a
// variant's chosen alternative is its single kid.
type field struct {
	s        *Schema
	name     string // property name; "" for the root, array items and a variant's kid
	parent   *field
	required bool // a required property, or an array item (which always has a value)

	present   bool            // has a value even if empty (a default, imported, or edited)
	null      bool            // the value is null
	text      string          // string, number, integer and any: what was typed
	on        bool            // boolean
	choice    int             // enum: index into s.Options, -1 for none
	variant   int             // variant: index into s.Variants
	alts      map[int]*field  // variant: the other alternatives, kept while switching
	kids      []*field        // object members, array items, the variant's alternative
	extra     []member        // object members the schema does not describe, kept from JSON
	raw       json.RawMessage // a value the form cannot express, kept from JSON
	collapsed bool            // a recursive object not yet opened
	multiline bool            // edited on several lines
	edited    bool            // the user changed the value (typed, toggled, chose, added or moved items)
	fromDflt  bool            // the value is the schema default the form filled in (or part of one)
	fromLast  bool            // the value is the argument sent last time, filled in by the form
	member    bool            // a member added to a map (Schema.Additional) by its key: name is edited
}

// member is one object member kept as JSON.
type member struct {
	name string
	raw  json.RawMessage
}

// maxFields bounds how many fields one build makes; past it objects start collapsed, so a
// schema whose members multiply at every level still gives a form at once.
const maxFields = 2000

// builder makes fields, counting them against maxFields.
type builder struct {
	defaults bool
	left     int
}

// newField builds the field for s; defaults fill it when withDefaults. seen guards
// recursive schemas: an object already on the path is left collapsed.
func newField(s *Schema, parent *field, name string, required, withDefaults bool, seen []*Schema) *field {
	b := &builder{defaults: withDefaults, left: maxFields}
	return b.field(s, parent, name, required, seen)
}

func (b *builder) field(s *Schema, parent *field, name string, required bool, seen []*Schema) *field {
	b.left--
	f := &field{s: s, name: name, parent: parent, required: required, choice: -1, multiline: s.Multiline}
	switch s.Kind {
	case KindConst:
		f.present = true
	case KindBoolean:
		f.present, f.fromDflt = required, required // false, filled in by the form
	case KindObject:
		f.collapsed = b.left <= 0
		for _, a := range seen {
			if a == s {
				f.collapsed = true
				break
			}
		}
		if !f.collapsed {
			b.expand(f, seen)
		}
	case KindVariant:
		if len(s.Variants) > 0 {
			f.kids = []*field{b.field(s.Variants[0], f, "", required, append(seen, s))}
		}
	}
	if b.defaults && s.Default != nil {
		f.set(s.Default, seen)
		f.markDefault()
	}
	return f
}

// expand builds the members of an object field.
func (f *field) expand(withDefaults bool, seen []*Schema) {
	b := &builder{defaults: withDefaults, left: maxFields}
	b.expand(f, seen)
}

func (b *builder) expand(f *field, seen []*Schema) {
	f.collapsed = false
	f.kids = nil
	for _, p := range f.s.Properties {
		f.kids = append(f.kids, b.field(p.Schema, f, p.Name, p.Required, append(seen[:len(seen):len(seen)], f.s)))
	}
}

// ancestors lists the schemas above f, for the recursion guard.
func (f *field) ancestors() []*Schema {
	var out []*Schema
	for p := f.parent; p != nil; p = p.parent {
		out = append([]*Schema{p.s}, out...)
	}
	return out
}

// newItem makes an empty item for an array field.
func (f *field) newItem() *field {
	it := f.s.Items
	if it == nil {
		it = &Schema{Kind: KindAny}
	}
	k := newField(it, f, "", true, true, append(f.ancestors(), f.s))
	if k.collapsed { // an item the user asks for opens one level, even when recursive
		k.expand(true, append(f.ancestors(), f.s))
	}
	return k
}

// pointer is the JSON pointer of f's value in the arguments.
func (f *field) pointer() string {
	var toks []string
	for c := f; c.parent != nil; c = c.parent {
		switch c.parent.s.Kind {
		case KindArray:
			toks = append(toks, strconv.Itoa(c.parent.indexOf(c)))
		case KindObject:
			toks = append(toks, protocol.PointerToken(c.name))
		}
	}
	var b strings.Builder
	for i := len(toks) - 1; i >= 0; i-- {
		b.WriteByte('/')
		b.WriteString(toks[i])
	}
	return b.String()
}

func (f *field) indexOf(k *field) int {
	for i, c := range f.kids {
		if c == k {
			return i
		}
	}
	return -1
}

// hasValue reports whether f contributes to the arguments.
func (f *field) hasValue() bool {
	if f.raw != nil || f.null || f.present {
		return true
	}
	switch f.s.Kind {
	case KindString:
		return f.text != ""
	case KindNumber, KindInteger, KindAny:
		return strings.TrimSpace(f.text) != ""
	case KindEnum:
		return f.choice >= 0
	case KindObject:
		// A required object holds its defaults; an optional one only what was entered.
		for _, k := range f.kids {
			if k.member || k.s.Kind != KindConst && k.hasValue() && (f.required || k.entered()) {
				return true
			}
		}
		return len(f.extra) > 0
	case KindArray:
		return len(f.kids) > 0
	case KindVariant:
		return len(f.kids) == 1 && f.kids[0].hasValue() && f.kids[0].s.Kind != KindConst
	}
	return false
}

// value is f's JSON value. A problem is returned for text that is not what the field
// holds (a number that does not parse); the value then carries the text as a string, so
// nothing typed is lost and the schema check points at the field too.
func (f *field) value(probs *[]Problem) json.RawMessage {
	if f.raw != nil {
		return f.raw
	}
	if f.null {
		return json.RawMessage("null")
	}
	str := func(s string) json.RawMessage { b, _ := protocol.Marshal(s); return b }
	switch f.s.Kind {
	case KindString:
		return str(f.text)
	case KindNumber, KindInteger:
		t := strings.TrimSpace(f.text)
		if t == "" {
			return json.RawMessage("null")
		}
		if n, err := parseNumber(t, f.s.Kind == KindInteger); err == nil {
			return n
		} else {
			*probs = append(*probs, Problem{f.pointer(), err.Error()})
		}
		return str(f.text)
	case KindBoolean:
		return json.RawMessage(strconv.FormatBool(f.on))
	case KindConst:
		return f.s.Const
	case KindEnum:
		if f.choice >= 0 && f.choice < len(f.s.Options) {
			return f.s.Options[f.choice].Value
		}
		return json.RawMessage("null")
	case KindNull:
		return json.RawMessage("null")
	case KindAny:
		t := strings.TrimSpace(f.text)
		if t == "" {
			return json.RawMessage("null")
		}
		if json.Valid([]byte(t)) {
			return compact(json.RawMessage(t))
		}
		return str(f.text) // plain text is a string
	case KindArray:
		var b bytes.Buffer
		b.WriteByte('[')
		n := 0
		for _, k := range f.kids {
			if k.unsetText() {
				// A new item shows its placeholder; it is not sent as "" (nor at all).
				*probs = append(*probs, Problem{Pointer: k.pointer(), Message: "no value yet (left out): type one, or delete the item"})
				continue
			}
			if n > 0 {
				b.WriteByte(',')
			}
			n++
			b.Write(k.value(probs))
		}
		b.WriteByte(']')
		return b.Bytes()
	case KindObject:
		var b bytes.Buffer
		b.WriteByte('{')
		n := 0
		write := func(name string, v json.RawMessage) {
			if n > 0 {
				b.WriteByte(',')
			}
			n++
			b.Write(str(name))
			b.WriteByte(':')
			b.Write(v)
		}
		var taken map[string]bool // keys a member cannot have: properties, kept members, earlier members
		for _, k := range f.kids {
			switch {
			case k.member:
				if taken == nil {
					taken = f.keysTaken()
				}
				if k.memberProblem(taken, probs) {
					continue
				}
				write(k.name, k.value(probs))
			case k.hasValue():
				write(k.name, k.value(probs))
			}
		}
		for _, m := range f.extra {
			write(m.name, m.raw)
		}
		b.WriteByte('}')
		return b.Bytes()
	case KindVariant:
		if len(f.kids) == 1 {
			return f.kids[0].value(probs)
		}
	}
	return json.RawMessage("null")
}

// parseNumber checks typed text is a JSON number (an integer when integer is set).
func parseNumber(t string, integer bool) (json.RawMessage, error) {
	if _, err := strconv.ParseFloat(t, 64); err != nil || !json.Valid([]byte(t)) {
		if integer {
			return nil, fmt.Errorf("%q is not an integer", t)
		}
		return nil, fmt.Errorf("%q is not a number", t)
	}
	if integer && !isInteger(json.RawMessage(t)) {
		return nil, fmt.Errorf("%q is not an integer", t)
	}
	return json.RawMessage(t), nil
}

// set fills f from a JSON value. What the field cannot show is kept in raw (or, for
// unknown object members, in extra) and marked.
func (f *field) set(v json.RawMessage, seen []*Schema) {
	v = compact(v)
	f.raw, f.null, f.present, f.fromDflt, f.fromLast = nil, false, true, false, false
	t := jsonType(v)
	if t == "null" && f.s.Nullable {
		f.null = true
		return
	}
	switch f.s.Kind {
	case KindString:
		if t == "string" {
			_ = json.Unmarshal(v, &f.text)
			f.multiline = f.multiline || strings.Contains(f.text, "\n")
			return
		}
	case KindNumber, KindInteger:
		if t == "number" && (f.s.Kind == KindNumber || isInteger(v)) {
			f.text = string(v)
			return
		}
	case KindBoolean:
		if t == "boolean" {
			f.on = string(v) == "true"
			return
		}
	case KindNull:
		if t == "null" {
			return
		}
	case KindConst:
		if sameJSON(v, f.s.Const) {
			return
		}
	case KindEnum:
		for i, o := range f.s.Options {
			if sameJSON(v, o.Value) {
				f.choice = i
				return
			}
		}
	case KindAny:
		if t != "" {
			f.text = string(v)
			return
		}
	case KindArray:
		if items, ok := decodeArray(v); ok {
			f.kids = nil
			for _, it := range items {
				k := f.newItem()
				k.set(it, nil)
				f.kids = append(f.kids, k)
			}
			return
		}
	case KindObject:
		if o, err := decodeObject(v); err == nil && o != nil {
			f.setObject(o, seen)
			return
		}
	case KindVariant:
		if len(f.s.Variants) > 0 {
			i := bestVariant(f.s.Variants, v)
			f.alts = nil
			f.variant = i
			f.kids = []*field{newField(f.s.Variants[i], f, "", f.required, false, append(seen, f.s))}
			f.kids[0].set(v, seen)
			return
		}
	}
	f.raw = v
}

// setObject fills an object field's members; members it does not describe go to extra.
func (f *field) setObject(o *object, seen []*Schema) {
	if f.collapsed || f.kids == nil {
		f.expand(false, seen)
	}
	f.kids = declared(f.kids)
	for _, k := range f.kids {
		k.clear()
	}
	f.extra = nil
	for _, name := range o.keys {
		v, _ := o.get(name)
		var kid *field
		for _, k := range f.kids {
			if k.name == name && !k.member {
				kid = k
			}
		}
		if kid == nil && f.s.Additional != nil {
			kid = f.newMember(name)
			f.kids = append(f.kids, kid)
		}
		if kid == nil {
			f.extra = append(f.extra, member{name, v})
			continue
		}
		kid.set(v, append(seen, f.s))
	}
}

// clear empties f: no value, no kept JSON; defaults are not applied.
func (f *field) clear() {
	f.raw, f.null, f.text, f.on, f.choice, f.extra, f.fromDflt, f.fromLast = nil, false, "", false, -1, nil, false, false
	f.present = f.s.Kind == KindConst || f.s.Kind == KindBoolean && f.required
	f.fromDflt = f.s.Kind == KindBoolean && f.required // false, filled in by the form
	switch f.s.Kind {
	case KindArray:
		f.kids = nil
	case KindObject:
		f.kids = declared(f.kids)
		for _, k := range f.kids {
			k.clear()
		}
	case KindVariant:
		for _, k := range f.kids {
			k.clear()
		}
	}
}

// bestVariant picks the alternative a value most likely belongs to: its type must fit,
// its consts must match, and the more of its properties the value has, the better.
func bestVariant(vs []*Schema, v json.RawMessage) int {
	t := jsonType(v)
	o, _ := decodeObject(v)
	best, bestScore := 0, -1<<30
	for i, s := range vs {
		score := 0
		switch s.Kind {
		case KindAny:
			score = 1
		case KindConst:
			if sameJSON(s.Const, v) {
				score = 100
			} else {
				score = -1000
			}
		case KindEnum:
			score = -1000
			for _, o := range s.Options {
				if sameJSON(o.Value, v) {
					score = 100
				}
			}
		case KindObject:
			if o == nil {
				score = -1000
				break
			}
			for _, p := range s.Properties {
				pv, ok := o.get(p.Name)
				switch {
				case ok && p.Schema.Kind == KindConst && !sameJSON(pv, p.Schema.Const):
					score -= 1000
				case ok:
					score += 10
				case p.Required:
					score -= 5
				}
			}
			for _, k := range o.keys {
				if s.property(k) == nil {
					score--
				}
			}
		default:
			if !typeFits(s.Kind, t, v) {
				score = -1000
			}
		}
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	return best
}

// typeFits reports whether a JSON value of type t fits a kind.
func typeFits(k Kind, t string, v json.RawMessage) bool {
	switch k {
	case KindString:
		return t == "string"
	case KindNumber:
		return t == "number"
	case KindInteger:
		return t == "number" && isInteger(v)
	case KindBoolean:
		return t == "boolean"
	case KindNull:
		return t == "null"
	case KindArray:
		return t == "array"
	}
	return true
}

// marked lists the pointers of what is kept as JSON because the form cannot show it.
func (f *field) marked(out *[]string) {
	if f.raw != nil {
		*out = append(*out, f.pointer())
		return
	}
	for _, m := range f.extra {
		*out = append(*out, f.pointer()+"/"+protocol.PointerToken(m.name))
	}
	for _, k := range f.kids {
		if k.hasValue() || f.s.Kind == KindArray {
			k.marked(out)
		}
	}
}

// chosenVariants maps the pointer of every variant field to its chosen alternative.
func (f *field) chosenVariants(out map[string]int) {
	if f.s.Kind == KindVariant {
		out[f.pointer()] = f.variant
	}
	for _, k := range f.kids {
		k.chosenVariants(out)
	}
}

// unsetText reports whether f is a string never given a value: it shows its placeholder.
func (f *field) unsetText() bool {
	return f.s.Kind == KindString && !f.present && f.text == "" && !f.null && f.raw == nil
}
