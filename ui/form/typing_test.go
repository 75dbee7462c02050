package form

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestTypingEdits: in navigation a printable key edits the focused text field at once
// (replacing an untouched default, adding to a value), and the hint says so; the actions on
// the field are ctrl keys.
func TestTypingEdits(t *testing.T) {
	m := New(mustParse(t, `{"properties":{"city":{"type":"string","default":"Paris"},"n":{"type":"integer"}}}`), Options{})
	if v := ansi.Strip(m.View()); !strings.Contains(strings.Join(strings.Fields(v), " "), "type or backspace to edit") {
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
