package check

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/protocol"
)

// drafts are the dialects a tool's schema may name in $schema.
var drafts = []string{
	"http://json-schema.org/draft-04/schema#",
	"http://json-schema.org/draft-06/schema#",
	"http://json-schema.org/draft-07/schema#",
	"https://json-schema.org/draft/2019-09/schema",
	"https://json-schema.org/draft/2020-12/schema",
}

// TestCompileSchemaEveryDraft: a schema is checked against the meta-schema of the draft its
// $schema names, for every draft, and one that passes validates values.
func TestCompileSchemaEveryDraft(t *testing.T) {
	for _, d := range drafts {
		bad := json.RawMessage(`{"$schema":"` + d + `","type":5}`)
		if _, err := compileSchema(bad, protocol.Rev20251125); err == nil {
			t.Errorf("%s: a schema with \"type\": 5 compiled, want a meta-schema error", d)
		}
		good := json.RawMessage(`{"$schema":"` + d + `","type":"object","required":["a"]}`)
		c, err := compileSchema(good, protocol.Rev20251125)
		if err != nil {
			t.Errorf("%s: %v", d, err)
			continue
		}
		if err := c.validate(json.RawMessage(`{}`)); err == nil || !strings.Contains(err.Error(), "a") {
			t.Errorf("%s: {} against a schema that requires a: %v, want an error naming a", d, err)
		}
		if err := c.validate(json.RawMessage(`{"a":1}`)); err != nil {
			t.Errorf("%s: {\"a\":1}: %v", d, err)
		}
	}
}
