package demo

import (
	"encoding/json"
	"testing"
)

// TestDemoSchemasCompile: every schema the demo defines compiles (they are compiled on
// first use, so a broken one would otherwise show only when its tool is called), and
// checks what it should.
func TestDemoSchemasCompile(t *testing.T) {
	d := newDemo(Options{})
	if len(d.tools) < 10 {
		t.Fatalf("the demo defines %d tools", len(d.tools))
	}
	schemas := map[string]*lazySchema{"elicitation profile": d.profileSchema}
	for name, rt := range d.tools {
		schemas["tool "+name] = rt.schema
	}
	for name, s := range schemas {
		if _, err := s.compiled(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if err := d.tools["echo"].schema.validate(json.RawMessage(`{"text": 5}`)); err == nil {
		t.Error(`echo's schema took {"text": 5}`)
	}
	if err := d.tools["echo"].schema.validate(json.RawMessage(`{"text": "hi"}`)); err != nil {
		t.Errorf(`echo's schema refused {"text": "hi"}: %v`, err)
	}
}
