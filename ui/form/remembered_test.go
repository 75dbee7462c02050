package form

import (
	"encoding/json"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// TestRememberedReplacedByTyping: the arguments sent last time (Options.Remembered) are
// drawn as what typing replaces ("(sent last)", their own hint) and the first key typed
// replaces each, as it does a schema default; enter then ← keeps one to edit; a value
// changed once is added to after that.
func TestRememberedReplacedByTyping(t *testing.T) {
	m := New(demoTool(t, "log"), Options{Initial: json.RawMessage(`{"message":"hello world","logger":"app"}`), Remembered: true})
	v := ansi.Strip(m.View())
	if !strings.Contains(v, "hello world (sent last)") || !strings.Contains(v, hintLast) {
		t.Fatalf("the remembered value is not drawn as one typing replaces:\n%s", v)
	}
	typeText(t, m, "slow")
	keys(t, m, "esc")
	if got := value(t, m); got != `{"message":"slow","logger":"app"}` {
		t.Fatalf("typing on the remembered value: %s", got)
	}
	typeText(t, m, "er")
	keys(t, m, "esc", "down", "enter")
	if v := ansi.Strip(m.View()); !strings.Contains(v, replaceLastHint) {
		t.Fatalf("editing the remembered value, the footer does not say typing replaces it:\n%s", v)
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyLeft})
	typeText(t, m, "s")
	keys(t, m, "esc")
	if got := value(t, m); got != `{"message":"slower","logger":"apsp"}` {
		t.Fatalf("after editing: %s, want slower and apsp", got)
	}
}
