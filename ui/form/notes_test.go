package form

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// A field's note shows under it while it has the focus, and only then.
func TestNotesShowOnFocus(t *testing.T) {
	s := mustParse(t, `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}}}`)
	m := New(s, Options{Notes: map[string]string{"/b": "also sent as the HTTP header Mcp-Param-B"}})
	if v := ansi.Strip(m.View()); strings.Contains(v, "Mcp-Param-B") {
		t.Fatalf("note shown while a has the focus:\n%s", v)
	}
	keys(t, m, "down")
	if v := ansi.Strip(m.View()); !strings.Contains(v, "⇢ also sent as the HTTP header Mcp-Param-B") {
		t.Fatalf("no note under b:\n%s", v)
	}
}
