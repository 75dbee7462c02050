package ui

import (
	"strings"
	"testing"
)

// TestJSONViewSendOnTheWire sends from a tool form's JSON view arguments whose value does
// not fit the schema (echo's uppercase is a boolean; an object is typed), against the demo
// server: ctrl+s asks first, with the form behind showing the value kept as JSON; n goes
// back to the JSON view with the text as typed; y sends exactly what was typed. A second
// value typed over the first, then taken to the form with ctrl+j, is the one sent.
func TestJSONViewSendOnTheWire(t *testing.T) {
	r := newRig(t, "2025-11-25", nil)
	typed := `{"text":"hi","uppercase":{"X":"1"}}`

	at := r.mark()
	r.keys("2")
	r.d.selectItem(0, "echo")
	r.keys("enter", "ctrl+j", "ctrl+a")
	r.typeText(typed)
	r.keys("ctrl+s")
	if s := r.screen(); !strings.Contains(s, "send anyway? y/n") || !strings.Contains(s, `⟨kept as JSON⟩ {"X":"1"}`) {
		t.Fatalf("ctrl+s did not ask, showing the value kept as JSON:\n%s", s)
	}
	r.keys("n")
	if s := r.screen(); !strings.Contains(s, "Arguments as JSON") || !strings.Contains(s, typed) {
		t.Fatalf("n did not go back to the JSON view as typed:\n%s", s)
	}
	r.keys("ctrl+s", "y")
	r.sent(at, "the typed arguments", map[string]any{"text": "hi", "uppercase": map[string]string{"X": "1"}}, "arguments")
	r.until("the form closed and its call done", func() bool {
		run := selectedCall(r.m)
		return !r.m.explorer.FormOpen() && run != nil && run.Done
	})

	// The form opens with the arguments sent; another value typed over them in the JSON
	// view, refused once, then taken to the form, is what goes.
	at = r.mark()
	r.keys("enter", "ctrl+j", "ctrl+a")
	r.typeText(`{"text":"hi","uppercase":{"Y":"2"}}`)
	r.keys("ctrl+s", "n", "ctrl+j")
	if s := r.screen(); !strings.Contains(s, `⟨kept as JSON⟩ {"Y":"2"}`) {
		t.Fatalf("the form does not hold the value typed last:\n%s", s)
	}
	r.keys("ctrl+s", "y")
	r.sent(at, "the value typed last", map[string]string{"Y": "2"}, "arguments", "uppercase")
}
