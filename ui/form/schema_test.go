package form

import (
	"encoding/json"
	"strings"
	"testing"
)

// handWritten are schemas for what the servers' tools do not exercise.
var handWritten = []struct{ name, schema string }{
	{"refs", `{
		"type": "object",
		"properties": {
			"owner": {"$ref": "#/$defs/person", "description": "Who owns it"},
			"team": {"type": "array", "items": {"$ref": "#/$defs/person"}, "minItems": 1},
			"address": {"$ref": "#/$defs/address"}
		},
		"required": ["owner"],
		"$defs": {
			"person": {"type": "object", "properties": {"name": {"type": "string"}, "home": {"$ref": "#/$defs/address"}}, "required": ["name"]},
			"address": {"type": "object", "properties": {"street": {"type": "string"}, "zip": {"type": "string", "default": "00000"}}}
		}
	}`},
	{"recursive", `{
		"type": "object",
		"properties": {
			"tree": {"$ref": "#/$defs/node"},
			"self": {"$ref": "#"}
		},
		"$defs": {
			"node": {"type": "object", "properties": {
				"label": {"type": "string"},
				"children": {"type": "array", "items": {"$ref": "#/$defs/node"}},
				"next": {"$ref": "#/$defs/node", "description": "a sibling"}
			}, "required": ["label"]}
		}
	}`},
	{"oneof", `{
		"type": "object",
		"properties": {
			"shape": {"oneOf": [
				{"type": "object", "title": "Circle", "properties": {"kind": {"const": "circle"}, "radius": {"type": "number", "exclusiveMinimum": 0}}, "required": ["kind", "radius"], "additionalProperties": false},
				{"type": "object", "title": "Square", "properties": {"kind": {"const": "square"}, "side": {"type": "integer", "minimum": 1, "multipleOf": 2}}, "required": ["kind", "side"], "additionalProperties": false}
			]},
			"id": {"type": ["string", "integer"]}
		},
		"required": ["shape"]
	}`},
	{"nullable", `{
		"type": "object",
		"properties": {
			"note": {"type": ["string", "null"], "default": null},
			"limit": {"anyOf": [{"type": "integer", "maximum": 100}, {"type": "null"}]},
			"color": {"enum": ["red", "green", null]},
			"legacy": {"type": "string", "nullable": true}
		},
		"required": ["note", "limit"]
	}`},
	{"nested_arrays", `{
		"type": "object",
		"properties": {
			"matrix": {"type": "array", "items": {"type": "array", "items": {"type": "number"}, "minItems": 2}},
			"orders": {"type": "array", "maxItems": 3, "items": {
				"type": "object",
				"properties": {
					"sku": {"type": "string", "minLength": 2},
					"lines": {"type": "array", "items": {"type": "object", "properties": {"qty": {"type": "integer", "minimum": 1}, "gift": {"type": "boolean", "default": false}}, "required": ["qty"]}}
				},
				"required": ["sku"]
			}}
		},
		"required": ["orders"]
	}`},
	{"enum_titles", `{
		"type": "object",
		"properties": {
			"level": {"type": "string", "oneOf": [{"const": "lo", "title": "Low"}, {"const": "hi", "title": "High"}], "default": "hi"},
			"mode": {"anyOf": [{"const": 1, "title": "One"}, {"const": 2, "title": "Two"}]},
			"size": {"type": "string", "enum": ["s", "m", "l"], "enumNames": ["Small", "Medium", "Large"]}
		}
	}`},
	{"draft07_allof", `{
		"$schema": "http://json-schema.org/draft-07/schema#",
		"type": "object",
		"allOf": [
			{"properties": {"when": {"type": "string", "format": "date-time"}}, "required": ["when"]},
			{"properties": {"count": {"type": "integer", "exclusiveMaximum": 10}}}
		],
		"properties": {"first": {"type": "string", "format": "uuid"}},
		"definitions": {"unused": {"type": "string"}}
	}`},
	{"base_and_variants", `{
		"type": "object",
		"properties": {
			"payment": {
				"type": "object",
				"properties": {"amount": {"type": "number", "minimum": 0}},
				"required": ["amount"],
				"oneOf": [
					{"title": "Card", "properties": {"card": {"type": "string", "minLength": 4}}, "required": ["card"]},
					{"title": "IBAN", "properties": {"iban": {"type": "string"}}, "required": ["iban"]}
				]
			},
			"body": {"type": "string", "description": "Markdown; may span several lines."}
		}
	}`},
}

// schemaOf parses one of handWritten.
func schemaOf(t *testing.T, name string) *Schema {
	t.Helper()
	for _, h := range handWritten {
		if h.name == name {
			s, err := Parse(json.RawMessage(h.schema))
			if err != nil {
				t.Fatalf("Parse %s: %v", name, err)
			}
			return s
		}
	}
	t.Fatalf("no schema %s", name)
	return nil
}

func TestParseRefusesNonLocalRefs(t *testing.T) {
	for _, raw := range []string{
		`{"type":"object","properties":{"a":{"$ref":"https://example.com/schema.json"}}}`,
		`{"$ref":"other.json#/x"}`,
		`{"properties":{"a":{"$ref":"#anchor"}}}`,
		`{"properties":{"a":{"$ref":"#/$defs/missing"}}}`,
	} {
		_, err := Parse(json.RawMessage(raw))
		if err == nil {
			t.Errorf("Parse(%s) succeeded", raw)
			continue
		}
		if !strings.Contains(err.Error(), "$ref") {
			t.Errorf("Parse(%s): error %q does not name the $ref", raw, err)
		}
	}
}

func TestParseKinds(t *testing.T) {
	tests := []struct {
		schema, path string // path: property names, "[]" for items, digits for variants
		kind         Kind
		nullable     bool
		options      int
	}{
		{"nullable", "note", KindString, true, 0},
		{"nullable", "limit", KindInteger, true, 0},
		{"nullable", "color", KindEnum, true, 2},
		{"nullable", "legacy", KindString, true, 0},
		{"enum_titles", "level", KindEnum, false, 2},
		{"enum_titles", "mode", KindEnum, false, 2},
		{"oneof", "shape", KindVariant, false, 0},
		{"oneof", "id", KindVariant, false, 0},
		{"oneof", "shape.1.side", KindInteger, false, 0},
		{"refs", "owner.home.zip", KindString, false, 0},
		{"recursive", "tree.children.[].children.[].label", KindString, false, 0},
		{"nested_arrays", "matrix.[].[]", KindNumber, false, 0},
		{"draft07_allof", "count", KindInteger, false, 0},
		{"base_and_variants", "payment.0.card", KindString, false, 0},
		{"base_and_variants", "payment.1.amount", KindNumber, false, 0},
	}
	for _, tt := range tests {
		s := schemaOf(t, tt.schema)
		for _, step := range strings.Split(tt.path, ".") {
			switch {
			case step == "[]":
				s = s.Items
			case step >= "0" && step <= "9":
				s = s.Variants[int(step[0]-'0')]
			default:
				p := s.property(step)
				if p == nil {
					t.Fatalf("%s: no %s in %s", tt.schema, step, tt.path)
				}
				s = p.Schema
			}
		}
		if s.Kind != tt.kind || s.Nullable != tt.nullable || len(s.Options) != tt.options {
			t.Errorf("%s %s: kind %d nullable %v options %d, want %d %v %d", tt.schema, tt.path, s.Kind, s.Nullable, len(s.Options), tt.kind, tt.nullable, tt.options)
		}
	}
	lv := schemaOf(t, "enum_titles").property("level").Schema
	if lv.Options[1].Title != "High" || string(lv.Default) != `"hi"` {
		t.Errorf("level: options %+v default %s", lv.Options, lv.Default)
	}
	if sz := schemaOf(t, "enum_titles").property("size").Schema; sz.Options[2].Title != "Large" {
		t.Errorf("size titles: %+v", sz.Options)
	}
	if !schemaOf(t, "base_and_variants").property("body").Schema.Multiline {
		t.Error("a description saying several lines does not make the string multi-line")
	}
}

func TestEmpty(t *testing.T) {
	for raw, want := range map[string]bool{
		``: true, `null`: true, `{}`: true, `{"type":"object"}`: true,
		`{"type":"object","properties":{}}`:                      true,
		`{"type":"object","additionalProperties":false}`:         true,
		`{"type":"object","properties":{"a":{"type":"string"}}}`: false,
	} {
		s, err := Parse(json.RawMessage(raw))
		if err != nil {
			t.Fatalf("Parse(%q): %v", raw, err)
		}
		if got := New(s, Options{}).Empty(); got != want {
			t.Errorf("Empty(%q) = %v, want %v", raw, got, want)
		}
	}
}

// TestProblemPointers puts wrong values deep in the form and expects problems there.
func TestProblemPointers(t *testing.T) {
	tests := []struct {
		schema, args, want string
	}{
		{"nested_arrays", `{"orders":[{"sku":"ab"},{"sku":"x","lines":[{"qty":1},{"qty":0}]}]}`, "/orders/1/sku"},
		{"nested_arrays", `{"orders":[{"sku":"ab","lines":[{"qty":1},{"qty":0}]}]}`, "/orders/0/lines/1/qty"},
		{"nested_arrays", `{"orders":[{"lines":[]}]}`, "/orders/0/sku"},
		{"nested_arrays", `{"orders":[],"matrix":[[1]]}`, "/matrix/0"},
		{"oneof", `{"shape":{"kind":"square","side":3}}`, "/shape/side"},
		{"oneof", `{"shape":{"kind":"circle","radius":0}}`, "/shape/radius"},
		{"refs", `{"owner":{"name":"a","home":{"zip":5}}}`, "/owner/home/zip"},
		{"refs", `{"owner":{}}`, "/owner/name"},
		{"recursive", `{"tree":{"label":"a","children":[{"label":"b","children":[{}]}]}}`, "/tree/children/0/children/0/label"},
		{"nullable", `{"note":null,"limit":101}`, "/limit"},
		{"draft07_allof", `{"when":"yesterday"}`, "/when"},
		{"draft07_allof", `{"when":"2024-01-01T00:00:00Z","count":10}`, "/count"},
	}
	for _, tt := range tests {
		s := schemaOf(t, tt.schema)
		m := New(s, Options{Initial: json.RawMessage(tt.args)})
		got, _ := m.Value()
		if !sameJSON(got, json.RawMessage(tt.args)) {
			t.Errorf("%s: form holds %s, want %s", tt.schema, got, tt.args)
		}
		probs := m.Validate()
		found := false
		for _, p := range probs {
			found = found || p.Pointer == tt.want
		}
		if !found {
			t.Errorf("%s %s: problems %v, want one at %s", tt.schema, tt.args, probs, tt.want)
		}
	}
}

func TestFormatHints(t *testing.T) {
	s, err := Parse(json.RawMessage(`{"properties":{"d":{"type":"string","format":"date"},"e":{"type":"string","format":"email"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	m := New(s, Options{})
	m.SetSize(60, 8)
	v := m.View()
	for _, want := range []string{"YYYY-MM-DD", "name@example.com"} {
		if !strings.Contains(v, want) {
			t.Errorf("view lacks the %q hint:\n%s", want, v)
		}
	}
}

// TestProblemPointersInTuplesAndNames: a problem in an item after prefixItems is at that
// item's own index, and a property name that fails propertyNames is reported on the object
// that holds it, so the form marks the field the user typed into.
func TestProblemPointersInTuplesAndNames(t *testing.T) {
	tests := []struct {
		schema, args, want string
	}{
		{`{"type":"object","properties":{"pair":{"type":"array","prefixItems":[{"type":"string"},{"type":"string"}],"items":{"type":"integer"}}}}`,
			`{"pair":["a","b",1,"x"]}`, "/pair/3"},
		{`{"type":"object","properties":{"tags":{"type":"object","propertyNames":{"pattern":"^[a-z]+$"}}}}`,
			`{"tags":{"Bad":1}}`, "/tags"},
	}
	for _, tt := range tests {
		s, err := Parse(json.RawMessage(tt.schema))
		if err != nil {
			t.Fatalf("Parse(%s): %v", tt.schema, err)
		}
		m := New(s, Options{Initial: json.RawMessage(tt.args)})
		if got, _ := m.Value(); !sameJSON(got, json.RawMessage(tt.args)) {
			t.Fatalf("%s: form holds %s, want %s", tt.schema, got, tt.args)
		}
		probs := m.Validate()
		if len(probs) != 1 || probs[0].Pointer != tt.want {
			t.Errorf("%s: problems %v, want one at %s", tt.args, probs, tt.want)
		}
	}
}

// TestEveryDraftChecked: the form checks a schema against the meta-schema of the draft its
// $schema names and asserts formats, for every draft from 04 to 2020-12.
func TestEveryDraftChecked(t *testing.T) {
	for _, d := range []string{
		"http://json-schema.org/draft-04/schema#",
		"http://json-schema.org/draft-06/schema#",
		"http://json-schema.org/draft-07/schema#",
		"https://json-schema.org/draft/2019-09/schema",
		"https://json-schema.org/draft/2020-12/schema",
	} {
		s, err := Parse(json.RawMessage(`{"$schema":"` + d + `","type":"object","properties":{"e":{"type":"string","format":"email"}}}`))
		if err != nil {
			t.Fatalf("%s: %v", d, err)
		}
		probs := New(s, Options{Initial: json.RawMessage(`{"e":"nobody"}`)}).Validate()
		if len(probs) != 1 || probs[0].Pointer != "/e" {
			t.Errorf("%s: {\"e\":\"nobody\"}: problems %v, want one at /e (format email)", d, probs)
		}
		if probs := New(s, Options{Initial: json.RawMessage(`{"e":"a@example.com"}`)}).Validate(); len(probs) != 0 {
			t.Errorf("%s: a valid email: problems %v", d, probs)
		}
		bad, err := Parse(json.RawMessage(`{"$schema":"` + d + `","type":"object","properties":{"n":{"type":"integer","minimum":"zero"}}}`))
		if err != nil {
			t.Fatalf("%s: %v", d, err)
		}
		probs = New(bad, Options{}).Validate()
		if len(probs) != 1 || !strings.Contains(probs[0].Message, "cannot be checked") {
			t.Errorf("%s: a schema with \"minimum\": \"zero\": problems %v, want the schema refused", d, probs)
		}
	}
}
