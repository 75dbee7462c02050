package serve

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// toolError calls a tool that must fail, and returns its text.
func toolError(t *testing.T, cs *mcp.ClientSession, name string, args any) (string, *mcp.CallToolResult) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if !res.IsError || len(res.Content) == 0 {
		t.Fatalf("%s: not a tool error: %+v", name, res)
	}
	return res.Content[0].(*mcp.TextContent).Text, res
}

// TestServeTellsWhatWentWrong: an agent learns what went wrong from the tool error itself.
// A timeline query that does not parse is an error naming the part at fault, with no
// events (which would answer another question); a connect whose server exits at once
// returns the last lines the server wrote on stderr.
func TestServeTellsWhatWentWrong(t *testing.T) {
	s := New(Options{Open: stdioOpener, RecordDir: t.TempDir()})
	defer s.Close()
	cs := inMemory(t, s)
	var c Connected
	callInto(t, cs, "connect", map[string]any{"command": []string{sessiontest.BuildMCPScope(t), "demo"}}, &c)

	text, res := toolError(t, cs, "timeline", map[string]any{"session": c.Session, "query": "method:tools/list dir:sideways"})
	if !strings.Contains(text, "dir:sideways") || !strings.Contains(text, "want in or out") {
		t.Errorf("the error does not say what is wrong with the query: %q", text)
	}
	if res.StructuredContent != nil {
		t.Errorf("a query that does not parse still returned events: %v", res.StructuredContent)
	}

	text, _ = toolError(t, cs, "connect", map[string]any{"command": []string{"sh", "-c", "echo 'reading config' >&2; echo 'fatal: DATABASE_URL is not set' >&2; exit 3"}})
	if !strings.Contains(text, "last lines the server wrote on stderr") || !strings.Contains(text, "fatal: DATABASE_URL is not set") {
		t.Errorf("connect to a server that exits does not say what it wrote: %q", text)
	}
}

// TestServeSchemasPlain: every property of a tool's input schema has one type (an optional
// array is "type": "array", not ["null","array"]), and no property schema of an input or
// output schema is a bare true, which 2025-11-25's Tool schema does not allow.
func TestServeSchemasPlain(t *testing.T) {
	s := New(Options{Open: stdioOpener})
	defer s.Close()
	cs := inMemory(t, s)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var walk func(tool, where string, v any, input bool)
	walk = func(tool, where string, v any, input bool) {
		switch v := v.(type) {
		case bool:
			t.Errorf("tool %s: %s is the bare schema %v", tool, where, v)
		case map[string]any:
			if ty, many := v["type"].([]any); many && input {
				t.Errorf("tool %s: %s has the types %v", tool, where, ty)
			}
			if props, ok := v["properties"].(map[string]any); ok {
				for name, p := range props {
					walk(tool, where+"/properties/"+name, p, input)
				}
			}
			if items, ok := v["items"]; ok {
				walk(tool, where+"/items", items, input)
			}
		}
	}
	for _, tl := range res.Tools {
		for _, side := range []struct {
			name   string
			schema any
			input  bool
		}{{"inputSchema", tl.InputSchema, true}, {"outputSchema", tl.OutputSchema, false}} {
			b, _ := json.Marshal(side.schema)
			var v any
			if err := json.Unmarshal(b, &v); err != nil {
				t.Fatal(err)
			}
			walk(tl.Name, side.name, v, side.input)
		}
	}
}
