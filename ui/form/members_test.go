package form

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestMapMembers: an object that takes additional properties is filled in member by member:
// ctrl+n, enter or typing on its row asks for a key, enter goes on to the value; members
// are renamed (f2) and deleted (ctrl+k, undone by ctrl+z); the help offers each; a key
// already taken is a problem and that member is left out, never merged.
func TestMapMembers(t *testing.T) {
	m := New(mustParse(t, `{"properties":{"env":{"type":"object","additionalProperties":{"type":"string"}},"n":{"type":"integer"}}}`), Options{})
	if m.Empty() {
		t.Fatal("a form with a map is empty")
	}
	if h := strings.Join(helpKeys(m), " "); !strings.Contains(h, "ctrl+n new member") {
		t.Fatalf("the help on the map does not offer a new member: %v", h)
	}
	if v := ansi.Strip(m.View()); !strings.Contains(v, hintMap) {
		t.Fatalf("no hint on the map:\n%s", v)
	}
	keys(t, m, "ctrl+n")
	if m.mode != modeEdit || !m.editKey {
		t.Fatal("ctrl+n on the map does not ask for a key")
	}
	if v := ansi.Strip(m.View()); !strings.Contains(v, hintKey) {
		t.Fatalf("no hint on the key input:\n%s", v)
	}
	typeText(t, m, "HOME")
	keys(t, m, "enter")
	if m.mode != modeEdit || m.editKey {
		t.Fatal("enter on the key does not go on to the value")
	}
	typeText(t, m, "/root")
	keys(t, m, "esc")
	if got := value(t, m); got != `{"env":{"HOME":"/root"}}` {
		t.Fatalf("after one member: %s", got)
	}
	if v := ansi.Strip(m.View()); !strings.Contains(v, "▸   HOME: /root") {
		t.Fatalf("the member's row:\n%s", v)
	}
	if h := strings.Join(helpKeys(m), " "); !strings.Contains(h, "ctrl+k delete member") || !strings.Contains(h, "f2 rename key") || !strings.Contains(h, "ctrl+n new member") {
		t.Fatalf("the help on a member: %v", h)
	}

	keys(t, m, "up", "enter") // enter on the map adds a member, as on an array
	typeText(t, m, "PATH")
	keys(t, m, "enter")
	typeText(t, m, "/bin")
	keys(t, m, "esc", "up", "up")
	typeText(t, m, "LANG") // typing on the map's row is the key of a new member
	keys(t, m, "tab")
	if got, _ := m.Value(); string(got) != `{"env":{"HOME":"/root","PATH":"/bin"}}` {
		t.Fatalf("a member without a value was sent: %s", got)
	}
	if ps := m.Problems(); len(ps) != 1 || ps[0].Pointer != "/env/LANG" || !strings.Contains(ps[0].Message, "no value yet") {
		t.Fatalf("problems with LANG unset: %v", ps)
	}

	// A key already taken: a problem on the map, the second member left out.
	keys(t, m, "up", "f2", "ctrl+x")
	typeText(t, m, "HOME")
	keys(t, m, "enter")
	typeText(t, m, "C")
	keys(t, m, "esc")
	if got, _ := m.Value(); string(got) != `{"env":{"HOME":"/root","PATH":"/bin"}}` {
		t.Fatalf("a duplicate key was merged: %s", got)
	}
	if ps := m.Problems(); len(ps) != 1 || ps[0].Pointer != "/env" || !strings.Contains(ps[0].Message, `key "HOME" is taken`) {
		t.Fatalf("problems with HOME twice: %v", ps)
	}
	keys(t, m, "f2", "ctrl+x")
	typeText(t, m, "LANG")
	keys(t, m, "esc")
	if got := value(t, m); got != `{"env":{"HOME":"/root","PATH":"/bin","LANG":"C"}}` {
		t.Fatalf("after renaming: %s", got)
	}

	keys(t, m, "up", "ctrl+k")
	if got := value(t, m); got != `{"env":{"HOME":"/root","LANG":"C"}}` {
		t.Fatalf("after deleting PATH: %s", got)
	}
	keys(t, m, "ctrl+z")
	if got := value(t, m); got != `{"env":{"HOME":"/root","PATH":"/bin","LANG":"C"}}` {
		t.Fatalf("after undo: %s", got)
	}

	// Through JSON and back: members, not kept JSON.
	keys(t, m, "ctrl+j")
	m.json.SetValue(`{"env":{"A":"1","B":"2"},"n":3}`)
	keys(t, m, "ctrl+j")
	if got := value(t, m); got != `{"env":{"A":"1","B":"2"},"n":3}` || len(m.Marked()) != 0 {
		t.Fatalf("from JSON: %s, marked %v", got, m.Marked())
	}
	if v := ansi.Strip(m.View()); !strings.Contains(v, "B: 2") {
		t.Fatalf("the members from JSON are not rows:\n%s", v)
	}
}

// TestMapKinds: members typed by additionalProperties (numbers, nested maps, any value),
// patternProperties, arguments that are a map, and remembered arguments.
func TestMapKinds(t *testing.T) {
	m := New(mustParse(t, `{"properties":{"m":{"type":"object","additionalProperties":{"type":"object","additionalProperties":{"type":"integer"}}}}}`), Options{})
	keys(t, m, "ctrl+n")
	typeText(t, m, "a")
	keys(t, m, "enter") // the value is a map: the focus stays on the member
	if m.mode != modeNavigate {
		t.Fatalf("mode %v after the key of a member whose value is a map", m.mode)
	}
	keys(t, m, "ctrl+n")
	typeText(t, m, "b")
	keys(t, m, "enter")
	typeText(t, m, "7")
	keys(t, m, "esc")
	if got := value(t, m); got != `{"m":{"a":{"b":7}}}` {
		t.Fatalf("nested maps: %s", got)
	}

	m = New(mustParse(t, `{"properties":{"p":{"type":"object","patternProperties":{"^x-":{"type":"number"}}},"any":{"type":"object","additionalProperties":true}}}`), Options{})
	keys(t, m, "ctrl+n")
	typeText(t, m, "x-a")
	keys(t, m, "enter")
	typeText(t, m, "1.5")
	keys(t, m, "esc", "down", "ctrl+n")
	typeText(t, m, "k")
	keys(t, m, "enter")
	typeText(t, m, `[1,"two"]`)
	keys(t, m, "esc")
	if got := value(t, m); got != `{"p":{"x-a":1.5},"any":{"k":[1,"two"]}}` {
		t.Fatalf("patternProperties and any values: %s", got)
	}
	// A key a property has is taken, even while the property holds no value.
	m = New(mustParse(t, `{"properties":{"o":{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":{"type":"string"}}}}`), Options{})
	keys(t, m, "ctrl+n")
	typeText(t, m, "a")
	keys(t, m, "enter")
	typeText(t, m, "x")
	keys(t, m, "esc")
	if ps := m.Problems(); len(ps) != 1 || ps[0].Pointer != "/o" || !strings.Contains(ps[0].Message, `key "a" is taken`) {
		t.Fatalf("a member named as a property: %v", ps)
	}
	if got, _ := m.Value(); string(got) != `{"o":{}}` {
		t.Fatalf("a member named as a property was merged: %s", got)
	}

	root := mustParse(t, `{"type":"object","additionalProperties":{"type":"string"}}`)
	m = New(root, Options{})
	if m.Empty() {
		t.Fatal("arguments that are a map are empty")
	}
	keys(t, m, "ctrl+n") // on Send, the only row
	typeText(t, m, "k")
	keys(t, m, "enter")
	typeText(t, m, "v")
	keys(t, m, "esc")
	if got := value(t, m); got != `{"k":"v"}` {
		t.Fatalf("a map as the arguments: %s", got)
	}

	m = New(mustParse(t, `{"properties":{"env":{"type":"object","additionalProperties":{"type":"string"}}}}`), Options{Initial: json.RawMessage(`{"env":{"A":"1"}}`)})
	keys(t, m, "down")
	typeText(t, m, "2")
	keys(t, m, "esc")
	if got := value(t, m); got != `{"env":{"A":"12"}}` {
		t.Fatalf("a remembered member: %s", got)
	}
}
