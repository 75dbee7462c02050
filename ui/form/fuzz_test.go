package form

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse feeds arbitrary schema JSON through Parse and, when it parses, through a form:
// nothing may panic or hang, recursive $refs included.
func FuzzParse(f *testing.F) {
	for _, file := range []string{"demo_tools.json", "everything_tools.json"} {
		b, err := os.ReadFile(filepath.Join("testdata", file))
		if err != nil {
			f.Fatal(err)
		}
		var tools []tool
		if err := json.Unmarshal(b, &tools); err != nil {
			f.Fatal(err)
		}
		for _, tl := range tools {
			f.Add([]byte(tl.InputSchema))
		}
	}
	for _, h := range handWritten {
		f.Add([]byte(h.schema))
	}
	for _, s := range []string{
		`{"$ref":"#"}`,
		`{"$ref":"#/$defs/a","$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}}}`,
		`{"properties":{"x":{"$ref":"#"}},"required":["x"]}`,
		`{"allOf":[{"$ref":"#"}],"properties":{"a":{"oneOf":[{"$ref":"#"},{"type":"null"}]}}}`,
		`{"type":["object","array","null"],"items":{"$ref":"#"},"properties":{"a":{"$ref":"#/items"}}}`,
		`{"$defs":{"p":{"properties":{"a":{"$ref":"#/$defs/p"},"b":{"$ref":"#/$defs/p"},"c":{"$ref":"#/$defs/p"}}}},"$ref":"#/$defs/p"}`,
		`{"properties":{"a":{"enum":[]},"b":{"oneOf":[]},"c":{"type":[]},"d":false,"e":true}}`,
		`true`, `false`, `[]`, `"x"`, `{"$ref":5}`, `{"$ref":"#/properties/~2"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		s, err := Parse(json.RawMessage(raw))
		if err != nil {
			return
		}
		m := New(s, Options{})
		m.SetSize(60, 12)
		_ = m.View()
		v, _ := m.Value()
		if v != nil && !json.Valid(v) {
			t.Fatalf("Value is not JSON: %s", v)
		}
		_ = m.Validate()
		for _, k := range []string{"enter", "down", "a", "enter", "n", "x", "tab", "space", "ctrl+j"} {
			m.Update(press(k))
			_ = m.View()
		}
		m.Update(press("ctrl+j"))
		_, _ = m.Value()
		if v != nil {
			_ = New(s, Options{Initial: v}).Validate()
		}
	})
}
