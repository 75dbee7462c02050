package form

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestFreeFormObject: a nested object that declares no members (mcpscope serve's
// call_tool arguments: {"type":"object"}) is a map of any members: enter and ctrl+n add
// one, its key and its value take every key, and what is typed is what the arguments
// carry: a value that is JSON as JSON, any other text as a string. The top of a schema
// without properties still takes no arguments.
func TestFreeFormObject(t *testing.T) {
	const schema = `{"type":"object","properties":{"name":{"type":"string"},"arguments":{"type":"object","description":"the tool's arguments, an object"}},"required":["name"]}`
	typed := "é日本🙂"
	for c := ' '; c <= '~'; c++ {
		typed += string(c)
	}
	m := New(mustParse(t, schema), Options{})
	keys(t, m, "down")
	if h := strings.Join(helpKeys(m), " "); !strings.Contains(h, "ctrl+n new member") {
		t.Fatalf("the help on arguments does not offer a new member: %v", h)
	}
	keys(t, m, "enter")
	if m.mode != modeEdit || !m.editKey {
		t.Fatal("enter on arguments does not ask for a member's key")
	}
	typeText(t, m, "k"+typed)
	keys(t, m, "enter")
	typeText(t, m, "v"+typed)
	keys(t, m, "esc", "up", "ctrl+n")
	typeText(t, m, "n")
	keys(t, m, "enter")
	typeText(t, m, `{"a":[1,true]}`)
	keys(t, m, "esc")
	got, _ := m.Value()
	var v struct {
		Arguments map[string]any `json:"arguments"`
	}
	if err := json.Unmarshal(got, &v); err != nil {
		t.Fatalf("%v: %s", err, got)
	}
	want := map[string]any{"k" + typed: "v" + typed, "n": map[string]any{"a": []any{1.0, true}}}
	wb, _ := json.Marshal(want)
	gb, _ := json.Marshal(v.Arguments)
	if string(wb) != string(gb) {
		t.Fatalf("arguments = %s, want %s", gb, wb)
	}
	if !mustParse(t, `{"type":"object"}`).Empty() {
		t.Error("a tool without properties no longer takes no arguments")
	}
}
