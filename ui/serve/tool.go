package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpscope/mcpscope/session/secret"
)

// rawSchemas make a json.RawMessage field any JSON value in a schema (the default is an
// array of bytes).
var rawSchemas = &jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
	reflect.TypeFor[json.RawMessage](): {},
}}

// tool is one tool's definition: its name, text, annotations and the enums of its input.
type tool struct {
	name, title, description string
	// readOnly: the tool changes nothing, neither in mcpscope nor in the server.
	readOnly bool
	// destructive: the tool may change the server's world (calls, raw requests).
	destructive bool
	// openWorld: the tool reaches a server outside mcpscope.
	openWorld bool
	// idempotent: repeating it changes nothing more.
	idempotent bool
	// enums are the allowed values of input properties, by name.
	enums map[string][]any
	// objects are input properties that must be JSON objects.
	objects []string
}

// add registers a tool whose input is In and output Out, with schemas made from their
// types and fn as the handler. An error fn returns becomes a tool error with its text.
func add[In, Out any](s *Server, t tool, fn func(ctx context.Context, in In) (Out, error)) {
	in, err := jsonschema.For[In](rawSchemas)
	if err != nil {
		panic(fmt.Sprintf("tool %s: input schema: %v", t.name, err)) // the types are constants
	}
	for name, values := range t.enums {
		p := in.Properties[name]
		if p == nil {
			panic(fmt.Sprintf("tool %s: no input property %s", t.name, name))
		}
		if p.Items != nil && p.Type != "string" {
			p.Items.Enum = values
		} else {
			p.Enum = values
		}
	}
	for _, name := range t.objects {
		in.Properties[name].Type = "object"
	}
	plainTypes(in)
	out, err := jsonschema.For[Out](rawSchemas)
	if err != nil {
		panic(fmt.Sprintf("tool %s: output schema: %v", t.name, err))
	}
	destructive, openWorld := t.destructive, t.openWorld
	def := &mcp.Tool{
		Name: t.name, Title: t.title, Description: t.description,
		InputSchema: in, OutputSchema: out,
		Annotations: &mcp.ToolAnnotations{Title: t.title, ReadOnlyHint: t.readOnly, DestructiveHint: &destructive,
			IdempotentHint: t.idempotent, OpenWorldHint: &openWorld},
	}
	mcp.AddTool(s.server, def, func(ctx context.Context, _ *mcp.CallToolRequest, args In) (*mcp.CallToolResult, Out, error) {
		o, err := fn(ctx, args)
		return nil, o, err
	})
}

// plainTypes gives each property of an input schema (and their items, at any depth) one
// type: an optional array or number is "type": "array", not ["null","array"] as a Go slice
// or pointer makes it. Leaving a member out is how an agent says "none"; a null where a
// model looks for a type only confuses it.
func plainTypes(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if i := slices.Index(s.Types, "null"); i >= 0 && len(s.Types) == 2 {
		s.Type, s.Types = s.Types[1-i], nil
	}
	for _, p := range s.Properties {
		plainTypes(p)
	}
	plainTypes(s.Items)
}

// maskResult masks a tool result in place: its structured content and its text blocks.
func maskResult(m *secret.Masker, r *mcp.CallToolResult) {
	if raw, ok := r.StructuredContent.(json.RawMessage); ok {
		r.StructuredContent = json.RawMessage(m.Bytes(raw))
	} else if r.StructuredContent != nil {
		if b, err := json.Marshal(r.StructuredContent); err == nil {
			r.StructuredContent = json.RawMessage(m.Bytes(b))
		}
	}
	for _, c := range r.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			tc.Text = m.String(tc.Text)
		}
	}
}
