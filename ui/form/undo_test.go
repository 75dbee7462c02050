package form

import (
	"strings"
	"testing"
)

// TestUndo: a clear, a delete and JSON applied from the JSON view can each be taken back
// with ctrl+z, in reverse order, and the form works on after; u is typed like any letter.
func TestUndo(t *testing.T) {
	m := New(mustParse(t, `{"type":"object","properties":{"tags":{"type":"array","items":{"type":"string"}},"note":{"type":"string"}}}`), Options{})
	if m.KeyMap().Undo.Enabled() {
		t.Fatal("undo is offered before anything was thrown away")
	}
	keys(t, m, "ctrl+n", "enter")
	typeText(t, m, "one")
	keys(t, m, "enter", "ctrl+n", "enter")
	typeText(t, m, "two")
	keys(t, m, "enter")
	const full = `{"tags":["one","two"]}`
	if got := value(t, m); got != full {
		t.Fatalf("after adding: %s", got)
	}
	keys(t, m, "ctrl+k")
	if got := value(t, m); got != `{"tags":["one"]}` {
		t.Fatalf("after deleting: %s", got)
	}
	keys(t, m, "up", "ctrl+x")
	if got := value(t, m); got != `{}` {
		t.Fatalf("after clearing: %s", got)
	}
	if !m.KeyMap().Undo.Enabled() || !strings.Contains(strings.Join(helpKeys(m), " "), "ctrl+z undo") {
		t.Fatalf("undo is not offered after a clear: %v", helpKeys(m))
	}
	keys(t, m, "ctrl+z")
	if got := value(t, m); got != `{"tags":["one"]}` || m.status != "undone: clear tags" {
		t.Fatalf("after the first undo: %s, status %q", got, m.status)
	}
	keys(t, m, "ctrl+z")
	if got := value(t, m); got != full || m.status != "undone: delete /tags/1" {
		t.Fatalf("after the second undo: %s, status %q", got, m.status)
	}
	if m.KeyMap().Undo.Enabled() {
		t.Fatal("undo is still offered with nothing left to undo")
	}
	// The restored items are live: edit the second one.
	if f := m.focused(); f == nil || f.pointer() != "/tags/1" {
		t.Fatalf("focus after undo: %v", m.focused())
	}
	keys(t, m, "enter")
	typeText(t, m, "!")
	keys(t, m, "enter")
	if got := value(t, m); got != `{"tags":["one","two!"]}` {
		t.Fatalf("editing after undo: %s", got)
	}

	// The JSON view closed unchanged is no step to undo.
	keys(t, m, "ctrl+j", "ctrl+j")
	if m.KeyMap().Undo.Enabled() {
		t.Fatal("closing the JSON view unchanged left a step to undo")
	}
	// JSON applied from the JSON view replaces the form; u brings the form back.
	keys(t, m, "ctrl+j")
	m.json.SetValue(`{"note":"from json"}`)
	keys(t, m, "ctrl+j")
	if got := value(t, m); got != `{"note":"from json"}` {
		t.Fatalf("after the JSON view: %s", got)
	}
	keys(t, m, "ctrl+z")
	if got := value(t, m); got != `{"tags":["one","two!"]}` {
		t.Fatalf("undoing the JSON view: %s", got)
	}

	// u on a text field is typed, as every letter is.
	for i := 0; i < 5 && (m.focused() == nil || m.focused().name != "note"); i++ {
		keys(t, m, "down")
	}
	if f := m.focused(); f == nil || f.name != "note" {
		t.Fatalf("focus: %v", m.focused())
	}
	typeText(t, m, "up")
	keys(t, m, "enter")
	if got := value(t, m); got != `{"tags":["one","two!"],"note":"up"}` {
		t.Fatalf("typing u: %s", got)
	}
}

// TestUndoVariant: a cleared variant comes back with its chosen alternative and the ones
// kept while switching.
func TestUndoVariant(t *testing.T) {
	m := New(schemaOf(t, "oneof"), Options{})
	keys(t, m, "enter", "down", "enter", "down", "down", "enter") // square; side
	typeText(t, m, "4")
	keys(t, m, "enter", "up", "up", "enter", "up", "enter") // back to the first: circle
	keys(t, m, "ctrl+x")
	if got := value(t, m); got != `{}` {
		t.Fatalf("after clearing: %s", got)
	}
	keys(t, m, "ctrl+z")
	keys(t, m, "enter", "down", "enter") // square again: its side is kept
	if got := value(t, m); got != `{"shape":{"kind":"square","side":4}}` {
		t.Fatalf("after undo and switching: %s", got)
	}
}

// helpKeys is the short help as "key desc" pairs.
func helpKeys(m *Model) []string {
	var out []string
	for _, b := range m.KeyMap().ShortHelp() {
		out = append(out, b.Help().Key+" "+b.Help().Desc)
	}
	return out
}

// TestClearAndUndoWhileEditing: ctrl+x clears the text being edited and ctrl+z takes back
// what was typed since the edit began, without leaving the edit; the help offers each
// while it applies.
func TestClearAndUndoWhileEditing(t *testing.T) {
	m := New(mustParse(t, `{"properties":{"b":{"type":"string"},"c":{"type":"string","default":"dflt"}},"required":["b"]}`), Options{})
	typeText(t, m, "abc")
	keys(t, m, "esc", "enter")
	if m.mode != modeEdit {
		t.Fatal("enter did not edit b")
	}
	help := strings.Join(helpKeys(m), " ")
	if !strings.Contains(help, "ctrl+x clear field") || strings.Contains(help, "ctrl+z") {
		t.Fatalf("the help while editing abc, unchanged: %v", help)
	}
	keys(t, m, "ctrl+x")
	if m.mode != modeEdit || m.input.Value() != "" {
		t.Fatalf("ctrl+x while editing: mode %v, text %q", m.mode, m.input.Value())
	}
	help = strings.Join(helpKeys(m), " ")
	if strings.Contains(help, "ctrl+x") || !strings.Contains(help, "ctrl+z undo") {
		t.Fatalf("the help after ctrl+x: %v", help)
	}
	typeText(t, m, "zz")
	keys(t, m, "ctrl+z")
	if m.mode != modeEdit || m.input.Value() != "abc" {
		t.Fatalf("ctrl+z while editing: mode %v, text %q", m.mode, m.input.Value())
	}
	typeText(t, m, "d")
	keys(t, m, "esc")
	if got := value(t, m); got != `{"b":"abcd","c":"dflt"}` {
		t.Fatalf("value %s", got)
	}

	// On a default: ctrl+x clears it, ctrl+z brings it back selected.
	keys(t, m, "down", "enter", "ctrl+x")
	if m.input.Value() != "" || m.replace {
		t.Fatalf("ctrl+x on the default: %q, replace %v", m.input.Value(), m.replace)
	}
	keys(t, m, "ctrl+z")
	if m.input.Value() != "dflt" || !m.replace {
		t.Fatalf("ctrl+z on the default: %q, replace %v", m.input.Value(), m.replace)
	}
	typeText(t, m, "e")
	keys(t, m, "esc")
	if got := value(t, m); got != `{"b":"abcd","c":"e"}` {
		t.Fatalf("typing after the default came back: %s", got)
	}

	// In a multi-line editor too.
	keys(t, m, "up", "ctrl+l", "enter", "ctrl+x")
	if m.area.Value() != "" {
		t.Fatalf("ctrl+x in the multi-line editor: %q", m.area.Value())
	}
	keys(t, m, "ctrl+z")
	if m.area.Value() != "abcd" {
		t.Fatalf("ctrl+z in the multi-line editor: %q", m.area.Value())
	}
}
