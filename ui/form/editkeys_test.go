package form

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestStructuralKeysWhileEditing: ctrl+n (new item or member) and ctrl+k (delete it) work
// while a field is being edited, on the field as committed, and the help offers them there;
// ctrl+k where there is nothing to delete says so and leaves the text alone.
func TestStructuralKeysWhileEditing(t *testing.T) {
	m := New(mustParse(t, `{"properties":{"name":{"type":"string"},"tags":{"type":"array","items":{"type":"string"}},
		"env":{"type":"object","additionalProperties":{"type":"string"}}}}`), Options{})
	typeText(t, m, "mary")
	keys(t, m, "ctrl+k")
	if m.mode != modeEdit || m.input.Value() != "mary" || !strings.Contains(ansi.Strip(m.View()), "no item or member here") {
		t.Fatalf("ctrl+k outside an item: mode %v, text %q\n%s", m.mode, m.input.Value(), ansi.Strip(m.View()))
	}
	keys(t, m, "tab", "enter") // the array: a new item, edited at once
	typeText(t, m, "a")
	if !strings.Contains(strings.Join(helpKeys(m), " "), "ctrl+n") || !strings.Contains(strings.Join(helpKeys(m), " "), "ctrl+k") {
		t.Fatalf("the help while editing an item does not offer ctrl+n and ctrl+k: %v", helpKeys(m))
	}
	keys(t, m, "ctrl+n")
	typeText(t, m, "b")
	keys(t, m, "ctrl+n")
	typeText(t, m, "c")
	keys(t, m, "esc")
	if got := value(t, m); got != `{"name":"mary","tags":["a","b","c"]}` {
		t.Fatalf("ctrl+n while editing items: %s", got)
	}
	keys(t, m, "up")
	typeText(t, m, "x")
	keys(t, m, "ctrl+k")
	if got := value(t, m); got != `{"name":"mary","tags":["a","c"]}` {
		t.Fatalf("ctrl+k while editing the second item: %s", got)
	}
	if m.mode != modeNavigate {
		t.Fatalf("after ctrl+k the form is in mode %v", m.mode)
	}

	// A map: ctrl+n while its member's value is edited adds the next member; ctrl+k while
	// a key is typed deletes that member.
	focusOn(m, "/env")
	typeText(t, m, "HOME")
	keys(t, m, "enter")
	typeText(t, m, "/home/mary")
	keys(t, m, "ctrl+n")
	if !m.editKey {
		t.Fatal("ctrl+n while editing a member's value did not ask for the next key")
	}
	typeText(t, m, "TMP")
	keys(t, m, "ctrl+k")
	if got := value(t, m); got != `{"name":"mary","tags":["a","c"],"env":{"HOME":"/home/mary"}}` {
		t.Fatalf("ctrl+k while typing a key: %s", got)
	}
}
