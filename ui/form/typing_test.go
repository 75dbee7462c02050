package form

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestTypingEdits: in navigation a printable key edits the focused text field at once
// (replacing an untouched default, adding to a value), and the hint says so; the actions on
// the field are ctrl keys.
func TestTypingEdits(t *testing.T) {
	m := New(mustParse(t, `{"properties":{"city":{"type":"string","default":"Paris"},"n":{"type":"integer"}}}`), Options{})
	if v := ansi.Strip(m.View()); !strings.Contains(v, hintReplace) {
		t.Fatalf("no typing hint on the focused field:\n%s", v)
	}
	typeText(t, m, "Lyon")
	if m.mode != modeEdit {
		t.Fatalf("typing did not start editing")
	}
	keys(t, m, "tab")
	typeText(t, m, "42")
	keys(t, m, "up")
	typeText(t, m, "!")
	keys(t, m, "esc")
	if v, err := m.Value(); err != nil || string(v) != `{"city":"Lyon!","n":42}` {
		t.Fatalf("value %s (%v), want the typed text", v, err)
	}
	keys(t, m, "backspace") // edits the value at once: deletes its last character
	keys(t, m, "esc")
	if v, _ := m.Value(); string(v) != `{"city":"Lyon","n":42}` {
		t.Fatalf("backspace in navigation did not edit the value: %s", v)
	}
	keys(t, m, "ctrl+x") // clears the field
	if v, _ := m.Value(); strings.Contains(string(v), "Lyon") {
		t.Fatalf("ctrl+x did not clear the field: %s", v)
	}
}

// TestNewItemNotSentEmpty: an array item added and left untouched shows its placeholder
// and is left out of the arguments, with a problem saying so, never sent as "".
func TestNewItemNotSentEmpty(t *testing.T) {
	m := New(mustParse(t, `{"properties":{"tags":{"type":"array","items":{"type":"string"}}}}`), Options{})
	keys(t, m, "enter") // on the array: adds an item, focused
	if v := m.View(); !strings.Contains(v, "text") {
		t.Fatalf("the new item shows no placeholder:\n%s", v)
	}
	v, _ := m.Value()
	if string(v) != `{"tags":[]}` {
		t.Fatalf("the untouched item was sent: %s", v)
	}
	if ps := m.Validate(); len(ps) == 0 || !strings.Contains(ps[0].Message, "no value yet") {
		t.Fatalf("no problem names the empty item: %v", ps)
	}
	typeText(t, m, "ui")
	keys(t, m, "esc")
	if v, _ := m.Value(); string(v) != `{"tags":["ui"]}` {
		t.Fatalf("the typed item: %s", v)
	}
}

// TestNullableHelpNamesItsKey: a nullable field's help names the key that makes it null
// (a ctrl key: n is text there).
func TestNullableHelpNamesItsKey(t *testing.T) {
	m := New(mustParse(t, `{"properties":{"who":{"type":["string","null"],"description":"Who."}}}`), Options{})
	v := ansi.Strip(m.View())
	if !strings.Contains(v, "(ctrl+g: null)") || strings.Contains(v, "n: null") {
		t.Fatalf("the help does not name ctrl+g for null:\n%s", v)
	}
	keys(t, m, "ctrl+g")
	if got := value(t, m); got != `{"who":null}` {
		t.Fatalf("ctrl+g gave %s", got)
	}
	typeText(t, m, "n")
	keys(t, m, "esc")
	if got := value(t, m); got != `{"who":"n"}` {
		t.Fatalf("n on a null field: %s", got)
	}
}

// TestTypingRuleIsVisible: typing replaces only a schema default the form filled in and
// nobody touched, and such a value is drawn as one (dim, "(default)", its own hint); a
// remembered value, even one equal to the default, is drawn as a value and typing adds to
// it. Closing the JSON view unchanged leaves a default a default.
func TestTypingRuleIsVisible(t *testing.T) {
	row := func(m *Model, label string) string {
		for _, l := range strings.Split(ansi.Strip(m.View()), "\n") {
			if strings.Contains(l, label+":") {
				return l
			}
		}
		return ""
	}
	m := New(demoTool(t, "log"), Options{})
	if r := row(m, "message"); !strings.Contains(r, "Hello from the demo server (default)") {
		t.Fatalf("the default is not drawn as one: %q", r)
	}
	if m.valueText(m.focused()) == m.st.Value.Render("Hello from the demo server") {
		t.Fatal("the default is drawn in the style of a value")
	}
	if v := ansi.Strip(m.View()); !strings.Contains(v, hintReplace) {
		t.Fatalf("no hint that typing replaces the default:\n%s", v)
	}
	keys(t, m, "ctrl+j", "ctrl+j") // the JSON view closed unchanged
	if r := row(m, "message"); !strings.Contains(r, "(default)") {
		t.Fatalf("closing the JSON view unchanged made the default a value: %q", r)
	}
	typeText(t, m, "X")
	keys(t, m, "esc")
	if got := value(t, m); got != `{"message":"X","logger":"demo"}` {
		t.Fatalf("typing on the default: %s", got)
	}
	if r := row(m, "message"); strings.Contains(r, "(default)") {
		t.Fatalf("a typed value is drawn as a default: %q", r)
	}
	if v := ansi.Strip(m.View()); !strings.Contains(v, hintAppend) {
		t.Fatalf("no hint that typing adds to the value:\n%s", v)
	}

	// Remembered arguments, the message equal to the default: values, typing adds.
	m = New(demoTool(t, "log"), Options{Initial: json.RawMessage(`{"message":"Hello from the demo server","logger":"mcp quirks: jkdx?"}`)})
	for _, l := range []string{"message", "logger"} {
		if r := row(m, l); strings.Contains(r, "(default)") {
			t.Fatalf("a remembered value is drawn as a default: %q", r)
		}
	}
	if v := ansi.Strip(m.View()); !strings.Contains(v, hintAppend) {
		t.Fatalf("no hint that typing adds to the remembered value:\n%s", v)
	}
	typeText(t, m, "X")
	keys(t, m, "esc", "down")
	typeText(t, m, "X")
	keys(t, m, "esc")
	if got := value(t, m); got != `{"message":"Hello from the demo serverX","logger":"mcp quirks: jkdx?X"}` {
		t.Fatalf("typing on remembered values: %s", got)
	}

	// While editing, the default is drawn selected until typing replaces it.
	m = New(demoTool(t, "log"), Options{})
	keys(t, m, "enter")
	if m.input.Styles().Focused.Text.GetReverse() != true {
		t.Fatal("the default being edited is not drawn selected")
	}
	keys(t, m, "right")
	if m.input.Styles().Focused.Text.GetReverse() {
		t.Fatal("the default kept to edit is still drawn selected")
	}
}
