package jsonschema

import (
	"errors"
	"strings"
	"sync"
	"testing"
)

// TestMetaSchemaOnFirstUse: with the meta-schemas compiled on first use, a schema is still
// checked against its draft's meta-schema, for every draft, and from several goroutines at
// once (run with -race).
func TestMetaSchemaOnFirstUse(t *testing.T) {
	drafts := []*Draft{Draft4, Draft6, Draft7, Draft2019, Draft2020}
	var wg sync.WaitGroup
	for _, d := range drafts {
		for range 3 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c := NewCompiler()
				c.DefaultDraft(d)
				doc, err := UnmarshalJSON(strings.NewReader(`{"type": 5}`))
				if err != nil {
					t.Error(err)
					return
				}
				if err := c.AddResource("mem:bad.json", doc); err != nil {
					t.Error(err)
					return
				}
				_, err = c.Compile("mem:bad.json")
				var sve *SchemaValidationError
				if !errors.As(err, &sve) {
					t.Errorf("%s: a schema with \"type\": 5 compiled (err %v), want a meta-schema error", d, err)
				}
				good, _ := UnmarshalJSON(strings.NewReader(`{"type": "object", "required": ["a"]}`))
				c2 := NewCompiler()
				c2.DefaultDraft(d)
				if err := c2.AddResource("mem:good.json", good); err != nil {
					t.Error(err)
					return
				}
				s, err := c2.Compile("mem:good.json")
				if err != nil {
					t.Errorf("%s: %v", d, err)
					return
				}
				if s.Validate(map[string]any{}) == nil {
					t.Errorf("%s: {} passed a schema that requires a", d)
				}
			}()
		}
	}
	wg.Wait()
	for _, d := range drafts {
		if d.sch == nil {
			t.Errorf("%s: meta-schema not compiled after use", d)
		}
	}
}
