package ui

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/explorer"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// The methods whose results are shown by content type, as the tests name them.
const (
	methodToolsCall     = traffic.MethodToolsCall
	methodPromptsGet    = traffic.MethodPromptsGet
	methodResourcesRead = traffic.MethodResourcesRead
)

// selectedCall is the explorer's last call for its selected item, or nil.
func selectedCall(m *Model) *explorer.Call {
	if c, ok := m.explorer.SelectedCall(); ok {
		return &c
	}
	return nil
}

// explorerScreen is the explorer's view without styles, checked to be a block: every line
// as wide as the first.
func explorerScreen(t *testing.T, x *explorer.Explorer) string {
	t.Helper()
	v := x.View()
	lines := strings.Split(v, "\n")
	for i, l := range lines {
		if w, w0 := ansi.StringWidth(l), ansi.StringWidth(lines[0]); w != w0 {
			t.Fatalf("line %d is %d cells, line 0 %d: %q", i, w, w0, ansi.Strip(l))
		}
	}
	return ansi.Strip(v)
}

// explorerHas fails unless text holds every one of want.
func explorerHas(t *testing.T, text string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("missing %q in:\n%s", w, text)
		}
	}
}

// demoListFixtures are the demo server's lists as `mcpscope list tools|resources|templates|prompts`
// printed them.
func demoListFixtures(t *testing.T) map[session.ListKind][]json.RawMessage {
	t.Helper()
	files := map[session.ListKind]string{
		session.ListTools: "demo-tools.json", session.ListResources: "demo-resources.json",
		session.ListTemplates: "demo-templates.json", session.ListPrompts: "demo-prompts.json",
	}
	out := map[session.ListKind][]json.RawMessage{}
	for k, name := range files {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		var items []json.RawMessage
		if err := json.Unmarshal(b, &items); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[k] = items
	}
	return out
}
