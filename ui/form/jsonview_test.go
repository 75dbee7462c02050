package form

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// connectLike is the shape of mcpscope serve's connect tool: env takes an array of
// strings or null, so an object typed for it does not fit and is kept as JSON.
const connectLike = `{"type":"object","properties":{
	"command":{"type":"array","items":{"type":"string"}},
	"env":{"type":["array","null"],"items":{"type":"string"}}}}`

// jsonTyped opens the JSON view, selects its text and types text over it.
func jsonTyped(t *testing.T, m *Model, text string) {
	t.Helper()
	keys(t, m, "ctrl+j", "ctrl+a")
	typeText(t, m, text)
	if m.mode != modeJSON || m.json.Value() != text {
		t.Fatalf("the JSON view holds %q, want %q", m.json.Value(), text)
	}
}

// TestJSONViewSendKeepsWhatWasTyped: ctrl+s in the JSON view applies the text as leaving
// the view does (a value that does not fit is kept as JSON and flagged, not dropped); n
// returns to the JSON view with the text as typed, and y sends exactly that text.
func TestJSONViewSendKeepsWhatWasTyped(t *testing.T) {
	typed := `{"command":["mcpscope","demo"],"env":{"X":"1"}}`
	m := New(mustParse(t, connectLike), Options{})
	m.SetSize(80, 24)
	jsonTyped(t, m, typed)

	if msg := keys(t, m, "ctrl+s"); msg != nil {
		t.Fatalf("arguments that do not match were sent without asking: %#v", msg)
	}
	if m.mode != modeConfirm {
		t.Fatalf("no confirmation (mode %d)", m.mode)
	}
	screen := ansi.Strip(m.View())
	for _, want := range []string{`⟨kept as JSON⟩ {"X":"1"}`, "send anyway? y/n"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the confirmation does not show %q:\n%s", want, screen)
		}
	}

	if got := m.KeyMap().No.Help().Desc; got != "back to the JSON view" {
		t.Errorf("n is offered as %q", got)
	}

	keys(t, m, "n")
	if m.mode != modeJSON || m.json.Value() != typed {
		t.Fatalf("n: mode %d, the JSON view holds %q, want %q", m.mode, m.json.Value(), typed)
	}
	keys(t, m, "ctrl+j") // back to the form: env is kept as JSON there too
	if got := value(t, m); !sameJSON(json.RawMessage(got), json.RawMessage(typed)) {
		t.Fatalf("the form holds %s, want %s", got, typed)
	}
	if marked := strings.Join(m.Marked(), " "); marked != "/env" {
		t.Errorf("marked %q, want /env", marked)
	}

	keys(t, m, "ctrl+s")
	if got := m.KeyMap().No.Help().Desc; got != "back to the form" {
		t.Errorf("n is offered from the form as %q", got)
	}
	keys(t, m, "n", "ctrl+j")
	msg := keys(t, m, "ctrl+s", "y")
	sub, ok := msg.(SubmitMsg)
	if !ok || !sub.Invalid || string(sub.Args) != typed {
		t.Fatalf("y sent %#v, want %s", msg, typed)
	}
}

// TestJSONViewSendAfterOlderJSON: a value kept as JSON from an earlier visit to the JSON
// view is replaced by the one typed now, whether the answer is n or y.
func TestJSONViewSendAfterOlderJSON(t *testing.T) {
	m := New(mustParse(t, connectLike), Options{})
	jsonTyped(t, m, `{"env":{"A":"b"}}`)
	keys(t, m, "ctrl+j")
	if got := value(t, m); got != `{"env":{"A":"b"}}` {
		t.Fatalf("the form holds %s", got)
	}

	typed := `{"env":{"B":"c"}}`
	jsonTyped(t, m, typed)
	keys(t, m, "ctrl+s")
	if m.mode != modeConfirm || !strings.Contains(ansi.Strip(m.View()), `{"B":"c"}`) {
		t.Fatalf("the confirmation does not show the value typed:\n%s", ansi.Strip(m.View()))
	}
	keys(t, m, "n", "ctrl+j")
	if got := value(t, m); got != typed {
		t.Fatalf("the form holds %s, want %s", got, typed)
	}
	keys(t, m, "ctrl+z") // one undo step: the form as it was before the text was applied
	if got := value(t, m); got != `{"env":{"A":"b"}}` {
		t.Fatalf("undo gives %s", got)
	}
}

// TestJSONViewSendInvalidJSON: ctrl+s on text that is not JSON stays in the view with
// the reason and sends nothing.
func TestJSONViewSendInvalidJSON(t *testing.T) {
	m := New(mustParse(t, connectLike), Options{})
	jsonTyped(t, m, `{"command":[`)
	if msg := keys(t, m, "ctrl+s"); msg != nil {
		t.Fatalf("sent %#v", msg)
	}
	if m.mode != modeJSON || m.json.Value() != `{"command":[` || !strings.Contains(m.View(), "not valid JSON") {
		t.Fatalf("mode %d, text %q, view:\n%s", m.mode, m.json.Value(), m.View())
	}
}
