package card

import (
	"bytes"
	_ "embed"
	"fmt"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcpscope/mcpscope/protocol"
)

// The published schema mcpscope validates against, and where it stands.
const (
	// SchemaURL is the $schema a v1 card names (the schema's own pattern requires it).
	SchemaURL = "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json"
	// SchemaRepo, SchemaCommit and SchemaDate say which schema.json server-card.schema.json is.
	SchemaRepo   = "modelcontextprotocol/experimental-ext-server-card"
	SchemaCommit = "8924e08682b4a936e6464b57845ec2ff17dc8776"
	SchemaDate   = "2026-07-24"
	// SchemaVersion is the family the schema defines ($schema's vN segment).
	SchemaVersion = "v1"
)

//go:embed server-card.schema.json
var schemaJSON []byte

// SchemaJSON is the shipped schema's bytes (a copy; the embedded ones stay as they are).
func SchemaJSON() []byte { return bytes.Clone(schemaJSON) }

// cardRef is the card's definition inside the schema document.
const cardRef = SchemaURL + "#/$defs/ServerCard"

// compiled is the card's schema, compiled on the first validation.
var compiled = sync.OnceValues(func() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaJSON))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	c.UseLoader(protocol.NoSchemaLoader{What: "the shipped schema"})
	if err := c.AddResource(SchemaURL, doc); err != nil {
		return nil, err
	}
	return c.Compile(cardRef)
})

// Problem is one way a card fails the schema, at the JSON pointer of the value it is about
// ("" is the card itself).
type Problem struct {
	Pointer string `json:"pointer"`
	Message string `json:"message"`
}

// String is "pointer: message".
func (p Problem) String() string {
	ptr := p.Pointer
	if ptr == "" {
		ptr = "(card)"
	}
	return ptr + ": " + p.Message
}

// maxProblems bounds the problems reported for one card.
const maxProblems = 50

// Validate checks raw, a card's bytes, against the shipped schema. It returns the problems
// found (none: the card conforms) or an error when raw is not JSON.
//
// Bounded: at most maxProblems problems; the caller bounds raw.
func Validate(raw []byte) ([]Problem, error) {
	s, err := compiled()
	if err != nil {
		return nil, fmt.Errorf("the shipped server card schema does not compile: %w", err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("not JSON: %w", err)
	}
	err = s.Validate(v)
	if err == nil {
		return nil, nil
	}
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return nil, err
	}
	var out []Problem
	for _, p := range protocol.SchemaProblems(ve, maxProblems) {
		out = append(out, Problem(p))
	}
	return out, nil
}
