package events

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcpscope/mcpscope/protocol"
)

// Schema is a compiled payloadSchema (or inputSchema).
type Schema struct{ s *jsonschema.Schema }

// Problem is one way a value fails a schema, at the JSON pointer of the value it is about.
type Problem struct {
	Pointer string `json:"pointer"`
	Message string `json:"message"`
}

func (p Problem) String() string {
	ptr := p.Pointer
	if ptr == "" {
		ptr = "(data)"
	}
	return ptr + ": " + p.Message
}

// maxProblems bounds the problems reported for one value.
const maxProblems = 20

// Compile compiles a schema the server sent. The extension is defined from revision
// 2026-07-28, whose schemas are JSON Schema 2020-12 unless they name another $schema. Only
// the schema's own resources are available: a $ref to another document fails, so nothing is
// fetched on a server's say-so.
func Compile(raw json.RawMessage) (*Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("the schema is not JSON: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(protocol.NoSchemaLoader{What: "the schema"})
	const loc = "mcpscope:///payload.schema.json"
	if err := c.AddResource(loc, doc); err != nil {
		return nil, oneLine(err)
	}
	s, err := c.Compile(loc)
	if err != nil {
		return nil, oneLine(err)
	}
	return &Schema{s}, nil
}

// Validate checks a value against the schema: no problems means it conforms.
func (s *Schema) Validate(raw json.RawMessage) []Problem {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return []Problem{{"", "not JSON: " + err.Error()}}
	}
	err = s.s.Validate(v)
	if err == nil {
		return nil
	}
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return []Problem{{"", oneLine(err).Error()}}
	}
	var out []Problem
	for _, p := range protocol.SchemaProblems(ve, maxProblems) {
		out = append(out, Problem(p))
	}
	return out
}

// oneLine keeps the first lines of jsonschema's many-line errors.
func oneLine(err error) error {
	lines := strings.Split(strings.TrimSpace(err.Error()), "\n")
	if len(lines) > 3 {
		lines = lines[:3]
	}
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	return fmt.Errorf("%s", strings.Join(lines, "; "))
}
