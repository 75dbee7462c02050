package events

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

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

var printer = message.NewPrinter(language.English)

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
	c.UseLoader(noLoader{})
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

type noLoader struct{}

func (noLoader) Load(u string) (any, error) {
	return nil, fmt.Errorf("%s is outside the schema and is not fetched", u)
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
	collect(ve, &out)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Pointer < out[j].Pointer })
	if len(out) > maxProblems {
		out = out[:maxProblems]
	}
	return out
}

func collect(e *jsonschema.ValidationError, out *[]Problem) {
	if len(*out) > maxProblems {
		return
	}
	ptr := protocol.JoinPointer(e.InstanceLocation)
	if k, ok := e.ErrorKind.(*kind.Required); ok {
		for _, name := range k.Missing {
			*out = append(*out, Problem{ptr + "/" + protocol.PointerToken(name), "required, missing"})
		}
		return
	}
	if len(e.Causes) > 0 {
		for _, c := range e.Causes {
			collect(c, out)
		}
		return
	}
	*out = append(*out, Problem{ptr, strings.TrimSpace(e.ErrorKind.LocalizedString(printer))})
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
