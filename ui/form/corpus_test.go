package form

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tool is one entry of a saved tools/list.
type tool struct {
	Name        string          `json:"name"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

// corpus is every schema under test: the tools of the demo server and of server-everything,
// then the hand-written ones.
func corpus(t *testing.T) []tool {
	t.Helper()
	var all []tool
	for _, file := range []string{"demo_tools.json", "everything_tools.json"} {
		b, err := os.ReadFile(filepath.Join("testdata", file))
		if err != nil {
			t.Fatal(err)
		}
		var tools []tool
		if err := json.Unmarshal(b, &tools); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if len(tools) == 0 {
			t.Fatalf("%s lists no tools", file)
		}
		for _, tl := range tools {
			tl.Name = strings.TrimSuffix(file, "_tools.json") + "/" + tl.Name
			all = append(all, tl)
		}
	}
	for _, h := range handWritten {
		all = append(all, tool{Name: "hand/" + h.name, InputSchema: json.RawMessage(h.schema)})
	}
	return all
}

func TestCorpus(t *testing.T) {
	for _, tl := range corpus(t) {
		t.Run(tl.Name, func(t *testing.T) {
			s, err := Parse(tl.InputSchema)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if s.root.compileErr != nil {
				t.Fatalf("compile: %v", s.root.compileErr)
			}
			checkOrder(t, tl.InputSchema, s, "")

			m := New(s, Options{})
			args, err := m.Value()
			if err != nil {
				t.Fatalf("Value: %v", err)
			}
			checkDefaults(t, s, args)

			fill(m.root)
			m.changed()
			if probs := m.Validate(); len(probs) > 0 {
				args, _ := m.Value()
				t.Fatalf("a filled form does not validate: %v\nargs: %s", probs, args)
			}

			f, wrong := firstWrongable(m.root)
			if f == nil {
				if !s.Empty() && hasScalar(s) {
					t.Fatal("no field to put a wrong value in")
				}
				return
			}
			f.raw = wrong
			m.changed()
			want := f.pointer()
			probs := m.Validate()
			found := false
			for _, p := range probs {
				found = found || p.Pointer == want
			}
			if !found {
				args, _ := m.Value()
				t.Fatalf("wrong value %s at %s: problems %v, want one at %q\nargs: %s", wrong, want, probs, want, args)
			}
		})
	}
}

// checkOrder asserts every object's properties come in the order the raw schema writes
// them, found independently: by where each "name": occurs in the raw properties text.
func checkOrder(t *testing.T, raw json.RawMessage, s *Schema, at string) {
	t.Helper()
	var doc struct {
		Properties map[string]json.RawMessage `json:"properties"`
		Ref        string                     `json:"$ref"`
	}
	if json.Unmarshal(raw, &doc) != nil || doc.Ref != "" || len(doc.Properties) == 0 {
		return
	}
	var whole struct {
		Properties json.RawMessage `json:"properties"`
	}
	_ = json.Unmarshal(raw, &whole)
	text := string(whole.Properties)
	var own []Property // allOf may add more
	for _, p := range s.Properties {
		if _, ok := doc.Properties[p.Name]; ok {
			own = append(own, p)
		}
	}
	if len(own) != len(doc.Properties) {
		t.Fatalf("%s: %d properties, want %d", at, len(own), len(doc.Properties))
	}
	last := -1
	for _, p := range own {
		name, _ := json.Marshal(p.Name)
		i := topLevelIndex(text, string(name)+":")
		if i < 0 {
			t.Fatalf("%s: property %s not in the schema text", at, name)
		}
		if i < last {
			t.Fatalf("%s: property %s out of schema order", at, name)
		}
		last = i
		checkOrder(t, doc.Properties[p.Name], p.Schema, at+"/"+p.Name)
	}
}

// topLevelIndex finds key in a compact JSON object's text at nesting depth one.
func topLevelIndex(text, key string) int {
	depth := 0
	inStr := false
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case inStr && c == '\\':
			i++
		case c == '"':
			if !inStr && depth == 1 && strings.HasPrefix(text[i:], key) {
				return i
			}
			inStr = !inStr
		case inStr:
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
		}
	}
	return -1
}

// checkDefaults asserts each top-level default is in the fresh form's arguments.
func checkDefaults(t *testing.T, s *Schema, args json.RawMessage) {
	t.Helper()
	var got map[string]json.RawMessage
	if err := json.Unmarshal(args, &got); err != nil {
		t.Fatalf("arguments %s: %v", args, err)
	}
	for _, p := range s.Properties {
		if p.Schema.Default == nil {
			continue
		}
		if v, ok := got[p.Name]; !ok || !sameJSON(v, p.Schema.Default) {
			t.Errorf("default of %s: got %s, want %s", p.Name, v, p.Schema.Default)
		}
	}
}

// hasScalar reports whether s has a property a wrong value can be put in.
func hasScalar(s *Schema) bool {
	for _, p := range s.Properties {
		if p.Schema.Kind != KindAny {
			return true
		}
	}
	return false
}

// firstWrongable finds the first field that a value of the wrong type breaks, and that
// value.
func firstWrongable(f *field) (*field, json.RawMessage) {
	if f.parent != nil {
		switch f.s.Kind {
		case KindString, KindEnum, KindConst, KindArray, KindObject:
			return f, json.RawMessage(`12345`)
		case KindNumber, KindInteger, KindBoolean:
			return f, json.RawMessage(`"wrong"`)
		}
	}
	for _, k := range f.kids {
		if g, v := firstWrongable(k); g != nil {
			return g, v
		}
	}
	return nil, nil
}

// fill gives every field a value its schema accepts; recursive schemas stop after a few
// levels.
func fill(f *field) { fillDepth(f, 0) }

func fillDepth(f *field, depth int) {
	s := f.s
	f.raw, f.null, f.present = nil, false, true
	switch s.Kind {
	case KindString:
		f.text = sampleString(s)
	case KindNumber, KindInteger:
		f.text = sampleNumber(s)
	case KindBoolean:
		f.on = true
	case KindEnum:
		f.choice = 0
	case KindAny:
		f.text = `"any"`
	case KindObject:
		if f.collapsed && depth >= 4 {
			f.present = false
			return
		}
		if f.collapsed {
			f.expand(false, f.ancestors())
		}
		for _, k := range f.kids {
			fillDepth(k, depth+1)
		}
	case KindArray:
		n := 1
		if depth >= 3 {
			n = 0
		}
		if s.MinItems != nil && *s.MinItems > n {
			n = *s.MinItems
		}
		if s.MaxItems != nil && *s.MaxItems < n {
			n = *s.MaxItems
		}
		f.kids = nil
		for i := 0; i < n; i++ {
			k := f.newItem()
			fillDepth(k, depth+1)
			if k.s.Kind == KindEnum {
				k.choice = i % max(len(k.s.Options), 1)
			}
			f.kids = append(f.kids, k)
		}
	case KindVariant:
		for _, k := range f.kids {
			fillDepth(k, depth+1)
		}
	}
}

func sampleString(s *Schema) string {
	v := map[string]string{
		"email": "ada@example.com", "uri": "https://example.com/x", "date": "2024-02-29",
		"date-time": "2024-02-29T12:00:00Z", "uuid": "123e4567-e89b-12d3-a456-426614174000",
		"time": "12:00:00Z", "hostname": "example.com", "ipv4": "192.0.2.1",
	}[s.Format]
	if v == "" {
		v = "text"
	}
	for s.MinLength != nil && len(v) < *s.MinLength {
		v += "x"
	}
	if s.MaxLength != nil && len(v) > *s.MaxLength {
		v = v[:*s.MaxLength]
	}
	return v
}

func sampleNumber(s *Schema) string {
	n := 1.0
	switch {
	case s.Minimum != nil:
		n = *s.Minimum
	case s.ExclusiveMinimum != nil:
		n = *s.ExclusiveMinimum + 1
	}
	if s.MultipleOf != nil {
		n = *s.MultipleOf * float64(int(n / *s.MultipleOf + 1))
	}
	if s.Maximum != nil && n > *s.Maximum {
		n = *s.Maximum
	}
	return fmt.Sprint(n)
}
