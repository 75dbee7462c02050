package form

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/mcpscope/mcpscope/protocol"
)

// Reading an object schema: its properties in order, required, allOf merged, and the
// members beyond its properties it takes (additionalProperties, patternProperties).

// object reads properties and required, in schema order.
func (p *parser) object(s *Schema, o *object, ptr string, depth int) error {
	var required []string
	if r, ok := o.get("required"); ok {
		_ = json.Unmarshal(r, &required)
	}
	isReq := map[string]bool{}
	for _, r := range required {
		isReq[r] = true
	}
	if props, ok := o.get("properties"); ok {
		po, err := decodeObject(props)
		if err != nil {
			return fmt.Errorf("properties at %q: %w", "#"+ptr, err)
		}
		for _, name := range po.keys2() {
			v, _ := po.get(name)
			ps, err := p.node(v, ptr+"/properties/"+protocol.PointerToken(name), depth+1)
			if err != nil {
				return err
			}
			s.setProperty(Property{Name: name, Required: isReq[name], Schema: ps})
		}
	}
	for _, r := range required {
		if s.property(r) == nil {
			s.setProperty(Property{Name: r, Required: true, Schema: &Schema{Kind: KindAny}})
		}
		s.property(r).Required = true
	}
	return p.additional(s, o, ptr, depth)
}

// additional reads what members beyond the properties an object takes: additionalProperties
// (false: none; true: any value; a schema), else patternProperties.
func (p *parser) additional(s *Schema, o *object, ptr string, depth int) error {
	if ap, ok := o.get("additionalProperties"); ok {
		switch strings.TrimSpace(string(ap)) {
		case "false":
			return nil
		case "true", "{}":
			s.Additional = &Schema{Kind: KindAny}
			return nil
		}
		a, err := p.node(ap, ptr+"/additionalProperties", depth+1)
		if err != nil {
			return err
		}
		s.Additional = a
		return nil
	}
	pp, ok := o.get("patternProperties")
	if !ok {
		return nil
	}
	po, err := decodeObject(pp)
	if err != nil || po == nil || len(po.keys) == 0 {
		return nil
	}
	if len(po.keys) > 1 { // the key decides the schema: any value, checked against the schema
		s.Additional = &Schema{Kind: KindAny}
		return nil
	}
	v, _ := po.get(po.keys[0])
	a, err := p.node(v, ptr+"/patternProperties/"+protocol.PointerToken(po.keys[0]), depth+1)
	if err != nil {
		return err
	}
	s.Additional = a
	return nil
}

// freeForm makes an object nested in the arguments that declares no members at all (no
// properties, additionalProperties or patternProperties) a map of any members, as JSON
// Schema reads it: the user adds members by key (ctrl+n), each value typed as JSON or a
// string. The top of a tool's input schema stays as it is: without properties it takes no
// arguments (Empty).
func freeForm(s *Schema, o *object, depth int) {
	if s.Kind != KindObject || depth == 0 || len(s.Properties) > 0 || s.Additional != nil {
		return
	}
	for _, kw := range []string{"additionalProperties", "patternProperties"} {
		if _, ok := o.get(kw); ok {
			return
		}
	}
	s.Additional = &Schema{Kind: KindAny}
}

// keys2 is keys, tolerating a nil object.
func (o *object) keys2() []string {
	if o == nil {
		return nil
	}
	return o.keys
}

// property finds a property by name.
func (s *Schema) property(name string) *Property {
	for i := range s.Properties {
		if s.Properties[i].Name == name {
			return &s.Properties[i]
		}
	}
	return nil
}

// setProperty adds a property, or replaces the one of the same name in place.
func (s *Schema) setProperty(pr Property) {
	if old := s.property(pr.Name); old != nil {
		pr.Required = pr.Required || old.Required
		*old = pr
		return
	}
	s.Properties = append(s.Properties, pr)
}

// allOf merges every subschema of allOf into s: properties, required, and what s lacks.
func (p *parser) allOf(s *Schema, o *object, ptr string, depth int) error {
	raw, ok := o.get("allOf")
	if !ok {
		return nil
	}
	subs, _ := decodeArray(raw)
	for i, sub := range subs {
		m, err := p.node(sub, ptr+"/allOf/"+strconv.Itoa(i), depth+1)
		if err != nil {
			return err
		}
		if m == s {
			continue
		}
		for _, pr := range m.Properties {
			s.setProperty(pr)
		}
		if s.Kind == KindAny {
			s.Kind = m.Kind
		}
		if s.Items == nil {
			s.Items = m.Items
		}
		if s.Additional == nil {
			s.Additional = m.Additional
		}
		if len(s.Options) == 0 {
			s.Options = m.Options
		}
		if s.Format == "" {
			s.Format = m.Format
		}
	}
	return nil
}
