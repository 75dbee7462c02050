package check

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
)

// wrongValues are values of another type than each JSON Schema type, for arguments that
// fail a property's schema.
var wrongValues = map[string]struct {
	value json.RawMessage
	what  string
}{
	"string":  {json.RawMessage(`12345`), "a number where it wants a string"},
	"integer": {json.RawMessage(`"not a number"`), "a string where it wants an integer"},
	"number":  {json.RawMessage(`"not a number"`), "a string where it wants a number"},
	"boolean": {json.RawMessage(`"not a boolean"`), "a string where it wants a boolean"},
	"object":  {json.RawMessage(`"not an object"`), "a string where it wants an object"},
	"array":   {json.RawMessage(`"not an array"`), "a string where it wants an array"},
}

// InvalidArguments builds arguments that fail an inputSchema, from its simplest valid ones
// (MinimalArguments): a property given a value of another type, else a required property
// left out. It says what is wrong with them; ok is false when the schema gives no such
// handle (no typed property, nothing required). A property mirrored into a header
// (x-mcp-header) is not used: the header, not the tool, would refuse it.
func InvalidArguments(schema json.RawMessage) (args json.RawMessage, what string, ok bool) {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return nil, "", false
	}
	base := map[string]json.RawMessage{}
	_ = json.Unmarshal(MinimalArguments(schema), &base)
	names := make([]string, 0, len(s.Properties))
	for name := range s.Properties {
		names = append(names, name)
	}
	slices.Sort(names)
	// Required properties first: a server checks those before anything else.
	slices.SortStableFunc(names, func(a, b string) int {
		return boolRank(slices.Contains(s.Required, b)) - boolRank(slices.Contains(s.Required, a))
	})
	for _, name := range names {
		var p struct {
			Type   json.RawMessage `json:"type"`
			Header json.RawMessage `json:"x-mcp-header"`
		}
		var typ string
		if json.Unmarshal(s.Properties[name], &p) != nil || p.Header != nil || json.Unmarshal(p.Type, &typ) != nil {
			continue
		}
		if w, known := wrongValues[typ]; known {
			out := maps.Clone(base)
			out[name] = w.value
			b, _ := json.Marshal(out)
			return b, fmt.Sprintf("%q: %s", name, w.what), true
		}
	}
	for _, name := range s.Required {
		out := maps.Clone(base)
		delete(out, name)
		b, _ := json.Marshal(out)
		return b, fmt.Sprintf("required %q left out", name), true
	}
	return nil, "", false
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// inputValidation sends one tool check may call (read-only, or named by --call) arguments
// that fail its inputSchema, and flags a server that answers them with a JSON-RPC error:
// from 2025-11-25 (SEP-1303) an input validation error is a tool execution error (isError
// true), which the model can act on. Earlier revisions said otherwise, so they are not
// asked.
func (r *runner) inputValidation() {
	if r.rev < protocol.Rev20251125 || !protocol.Declared(r.caps, "server:tools") {
		return
	}
	var names []string
	if !r.o.NoSafeCalls {
		for _, c := range r.safeTools() {
			names = append(names, c.Name)
		}
	}
	for _, c := range r.o.Calls {
		if !slices.Contains(names, c.Name) {
			names = append(names, c.Name)
		}
	}
	for _, name := range names {
		schema := r.inSchema[name]
		if schema == nil {
			continue
		}
		args, what, ok := InvalidArguments(r.toolSchema(name))
		if !ok || schema.validate(args) == nil {
			continue // no arguments this schema refuses
		}
		r.sendInvalid(name, args, what)
		return // one tool shows how the server answers
	}
	if len(names) > 0 {
		r.note("input validation not tested: no tool called has an inputSchema that arguments can fail")
	}
}

// sendInvalid calls tool name with arguments that fail its inputSchema (what says how).
func (r *runner) sendInvalid(name string, args json.RawMessage, what string) {
	mark := r.lastSeq()
	resp, err := r.s.Call(r.ctx, "tools/call", map[string]any{"name": name, "arguments": args}, session.WithTimeout(errWait))
	var rpc *session.RPCError
	switch {
	case errors.As(err, &rpc):
		f := protocol.NewFinding(protocol.FindInputValidation,
			"tool %q answered arguments that fail its inputSchema (%s) with JSON-RPC error %d (%s); from %s an input validation error is a tool execution error (a result with isError: true)",
			name, what, rpc.Code, protocol.ErrorCodeName(rpc.Code), protocol.Rev20251125)
		r.add(f, r.shown(resp, mark, "tools/call"))
	case err != nil:
		r.note("input validation not tested: tools/call %s with arguments that fail its inputSchema failed: %v", name, err)
	case isToolError(resp.Result):
		r.note("input validation: tool %s answered arguments that fail its inputSchema (%s) with a tool error (isError), as %s asks", name, what, protocol.Rev20251125)
	default:
		r.note("input validation: tool %s accepted arguments that fail its inputSchema (%s)", name, what)
	}
}
