package form

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// press turns a key name ("enter", "ctrl+s", "K", "x") into a key press.
func press(name string) tea.KeyPressMsg {
	special := map[string]tea.KeyPressMsg{
		"enter": {Code: tea.KeyEnter}, "tab": {Code: tea.KeyTab}, "esc": {Code: tea.KeyEscape},
		"shift+tab": {Code: tea.KeyTab, Mod: tea.ModShift}, "up": {Code: tea.KeyUp},
		"down": {Code: tea.KeyDown}, "space": {Code: tea.KeySpace, Text: " "},
		"backspace": {Code: tea.KeyBackspace}, "ctrl+up": {Code: tea.KeyUp, Mod: tea.ModCtrl},
		"ctrl+down": {Code: tea.KeyDown, Mod: tea.ModCtrl}, "alt+up": {Code: tea.KeyUp, Mod: tea.ModAlt},
		"alt+down": {Code: tea.KeyDown, Mod: tea.ModAlt}, "left": {Code: tea.KeyLeft}, "right": {Code: tea.KeyRight},
		"f2": {Code: tea.KeyF2},
	}
	if k, ok := special[name]; ok {
		return k
	}
	if rest, ok := strings.CutPrefix(name, "ctrl+"); ok {
		return tea.KeyPressMsg{Code: rune(rest[0]), Mod: tea.ModCtrl}
	}
	r := []rune(name)[0]
	return tea.KeyPressMsg{Code: r, Text: name}
}

// keys sends key presses and returns the message of the last command that yields a
// SubmitMsg or CancelMsg (other commands, such as cursor blinks, are not run).
func keys(t *testing.T, m *Model, names ...string) tea.Msg {
	t.Helper()
	var last tea.Msg
	for _, n := range names {
		// Only keys that can end the form are run: others may return a cursor blink.
		ends := n == "ctrl+s" || n == "esc" && m.mode == modeNavigate || n == "y" && m.mode == modeConfirm ||
			n == "enter" && m.mode == modeNavigate && m.focusedRow().kind == rowSubmit
		cmd := m.Update(press(n))
		last = nil
		if cmd != nil && ends {
			switch msg := runQuick(cmd).(type) {
			case SubmitMsg, CancelMsg:
				last = msg
			}
		}
	}
	return last
}

// runQuick runs a command known not to wait (submit, cancel).
func runQuick(cmd tea.Cmd) tea.Msg { return cmd() }

// typeText types each rune of s.
func typeText(t *testing.T, m *Model, s string) {
	t.Helper()
	for _, r := range s {
		m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

func demoTool(t *testing.T, name string) *Schema {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "demo_tools.json"))
	if err != nil {
		t.Fatal(err)
	}
	var tools []tool
	if err := json.Unmarshal(b, &tools); err != nil {
		t.Fatal(err)
	}
	for _, tl := range tools {
		if tl.Name == name {
			s, err := Parse(tl.InputSchema)
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
	}
	t.Fatalf("no demo tool %s", name)
	return nil
}

func mustParse(t *testing.T, raw string) *Schema {
	t.Helper()
	s, err := Parse(json.RawMessage(raw))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func value(t *testing.T, m *Model) string {
	t.Helper()
	v, err := m.Value()
	if err != nil {
		t.Fatalf("Value: %v", err)
	}
	return string(v)
}

func TestTypeAndSubmit(t *testing.T) {
	m := New(demoTool(t, "add"), Options{})
	if got := value(t, m); got != `{"integer":false}` {
		t.Fatalf("fresh form: %s", got)
	}
	keys(t, m, "enter")
	typeText(t, m, "12")
	keys(t, m, "tab", "enter")
	typeText(t, m, "3.5")
	keys(t, m, "enter", "down", "space")
	msg := keys(t, m, "ctrl+s")
	sub, ok := msg.(SubmitMsg)
	if !ok {
		t.Fatalf("ctrl+s gave %T, want SubmitMsg; view:\n%s", msg, m.View())
	}
	if string(sub.Args) != `{"a":12,"b":3.5,"integer":true}` || sub.Invalid {
		t.Fatalf("submitted %s invalid=%v", sub.Args, sub.Invalid)
	}
	// The Send button submits too.
	keys(t, m, "down")
	if r := m.focusedRow(); r.kind != rowSubmit {
		t.Fatalf("focus on row %+v, want the Send button", r)
	}
	if _, ok := keys(t, m, "enter").(SubmitMsg); !ok {
		t.Fatal("enter on Send did not submit")
	}
}

func TestInvalidSubmitAsks(t *testing.T) {
	m := New(demoTool(t, "add"), Options{})
	m.SetSize(100, 12)
	keys(t, m, "enter")
	typeText(t, m, "5000")
	keys(t, m, "tab", "enter")
	typeText(t, m, "x1")
	if msg := keys(t, m, "ctrl+s"); msg != nil {
		t.Fatalf("invalid arguments were sent without asking: %v", msg)
	}
	v := m.View()
	if !strings.Contains(v, "arguments do not match the schema (2 problems) — send anyway? y/n") {
		t.Fatalf("no confirmation:\n%s", v)
	}
	if got := m.Problems(); len(got) != 2 || got[0].Pointer != "/a" || got[1].Pointer != "/b" {
		t.Fatalf("problems %v, want /a then /b", got)
	}
	keys(t, m, "n")
	if m.mode != modeNavigate {
		t.Fatal("n did not go back to the form")
	}
	keys(t, m, "ctrl+s")
	sub, ok := keys(t, m, "y").(SubmitMsg)
	if !ok || !sub.Invalid || string(sub.Args) != `{"a":5000,"b":"x1","integer":false}` {
		t.Fatalf("send anyway gave %+v", sub)
	}
}

func TestEscape(t *testing.T) {
	m := New(demoTool(t, "echo"), Options{})
	keys(t, m, "enter")
	typeText(t, m, "hi")
	if msg := keys(t, m, "esc"); msg != nil {
		t.Fatalf("esc while editing gave %T; it should only stop editing", msg)
	}
	if got := value(t, m); !strings.Contains(got, `"text":"hi"`) { // typing replaced the default
		t.Fatalf("edit lost: %s", got)
	}
	if _, ok := keys(t, m, "esc").(CancelMsg); !ok {
		t.Fatal("esc did not cancel")
	}
}

func TestArrayItems(t *testing.T) {
	m := New(mustParse(t, `{"type":"object","properties":{"tags":{"type":"array","items":{"type":"string"},"maxItems":3}}}`), Options{})
	keys(t, m, "ctrl+n", "enter")
	typeText(t, m, "one")
	keys(t, m, "enter", "ctrl+n", "enter")
	typeText(t, m, "two")
	keys(t, m, "enter", "ctrl+n", "enter")
	typeText(t, m, "three")
	keys(t, m, "enter")
	if got := value(t, m); got != `{"tags":["one","two","three"]}` {
		t.Fatalf("after adding: %s", got)
	}
	keys(t, m, "ctrl+n")
	if !strings.Contains(m.status, "at most 3") {
		t.Fatalf("a fourth item was not refused: %q %s", m.status, value(t, m))
	}
	keys(t, m, "ctrl+up", "alt+up")
	if got := value(t, m); got != `{"tags":["three","one","two"]}` {
		t.Fatalf("after moving up twice: %s", got)
	}
	keys(t, m, "ctrl+down")
	if got := value(t, m); got != `{"tags":["one","three","two"]}` {
		t.Fatalf("after moving down: %s", got)
	}
	keys(t, m, "ctrl+k")
	if got := value(t, m); got != `{"tags":["one","two"]}` {
		t.Fatalf("after deleting: %s", got)
	}
	keys(t, m, "ctrl+k", "ctrl+k")
	if got := value(t, m); got != `{"tags":[]}` {
		t.Fatalf("after deleting all: %s", got)
	}
	if f := m.focused(); f == nil || f.s.Kind != KindArray {
		t.Fatal("focus did not return to the array")
	}
	keys(t, m, "ctrl+x")
	if got := value(t, m); got != `{}` {
		t.Fatalf("after clearing: %s", got)
	}
}

func TestArrayOfObjects(t *testing.T) {
	m := New(schemaOf(t, "nested_arrays"), Options{})
	// Rows: matrix, orders.
	keys(t, m, "down", "enter") // add an order
	keys(t, m, "down", "enter")
	typeText(t, m, "ab")
	keys(t, m, "enter", "down", "ctrl+n", "down", "enter") // add a line, edit its qty
	typeText(t, m, "2")
	keys(t, m, "enter")
	want := `{"orders":[{"sku":"ab","lines":[{"qty":2,"gift":false}]}]}`
	if got := value(t, m); got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	if p := m.Validate(); len(p) != 0 {
		t.Fatalf("problems: %v", p)
	}
}

func TestNullToggle(t *testing.T) {
	m := New(schemaOf(t, "nullable"), Options{})
	if got := value(t, m); got != `{"note":null}` {
		t.Fatalf("default null: %s", got)
	}
	keys(t, m, "ctrl+g")
	if got := value(t, m); got != `{"note":""}` {
		t.Fatalf("null off: %s", got)
	}
	keys(t, m, "enter")
	typeText(t, m, "hi")
	keys(t, m, "enter")
	if got := value(t, m); got != `{"note":"hi"}` {
		t.Fatalf("typed: %s", got)
	}
	keys(t, m, "ctrl+g", "down", "ctrl+g")
	if got := value(t, m); got != `{"note":null,"limit":null}` {
		t.Fatalf("both null: %s", got)
	}
	if p := m.Validate(); len(p) != 0 {
		t.Fatalf("problems: %v", p)
	}
	if m.KeyMap().Null.Enabled() != true {
		t.Fatal("the null key is disabled on a nullable field")
	}
}

func TestSwitchVariant(t *testing.T) {
	m := New(schemaOf(t, "oneof"), Options{})
	if got := value(t, m); got != `{}` {
		t.Fatalf("untouched: %s", got)
	}
	keys(t, m, "enter", "down", "enter")
	if got := value(t, m); got != `{"shape":{"kind":"square"}}` {
		t.Fatalf("second variant: %s", got)
	}
	keys(t, m, "down", "down", "enter") // shape, kind, side
	typeText(t, m, "3")
	keys(t, m, "enter")
	probs := m.Validate()
	if len(probs) != 1 || probs[0].Pointer != "/shape/side" {
		t.Fatalf("problems %v, want only one at /shape/side (from the chosen variant)", probs)
	}
	keys(t, m, "enter", "backspace")
	typeText(t, m, "4")
	keys(t, m, "enter")
	if got := value(t, m); got != `{"shape":{"kind":"square","side":4}}` || len(m.Validate()) != 0 {
		t.Fatalf("got %s, problems %v", got, m.Validate())
	}
	// Switching back and forth keeps each alternative's values.
	keys(t, m, "up", "up", "enter", "up", "enter", "enter", "down", "enter")
	if got := value(t, m); got != `{"shape":{"kind":"square","side":4}}` {
		t.Fatalf("after switching back: %s", got)
	}
}

func TestJSONRoundTrip(t *testing.T) {
	s := demoTool(t, "create_ticket")
	m := New(s, Options{})
	m.SetSize(100, 30)
	fill(m.root)
	m.changed()
	before := value(t, m)
	keys(t, m, "ctrl+j")
	if m.mode != modeJSON || !sameJSON(json.RawMessage(m.json.Value()), json.RawMessage(before)) {
		t.Fatalf("JSON view holds %s, want %s", m.json.Value(), before)
	}
	keys(t, m, "ctrl+j")
	if got := value(t, m); got != before {
		t.Fatalf("form → JSON → form changed the arguments:\n%s\n%s", got, before)
	}

	edited := `{"title":"Broken","due":5,"zzz":{"a":1},"target":{"kind":"service","name":"api"},"labels":["ui","nope"]}`
	keys(t, m, "ctrl+j")
	m.json.SetValue(edited)
	typeText(t, m, "x") // no longer JSON
	keys(t, m, "ctrl+j")
	if m.mode != modeJSON || !strings.Contains(m.View(), "not valid JSON") {
		t.Fatal("invalid JSON left the JSON view")
	}
	keys(t, m, "backspace", "ctrl+j")
	if m.mode != modeNavigate {
		t.Fatalf("valid JSON did not go back to the form: %s", m.jsonErr)
	}
	if got := value(t, m); !sameJSON(json.RawMessage(got), json.RawMessage(edited)) {
		t.Fatalf("form lost some of the JSON:\n%s\n%s", got, edited)
	}
	marked := strings.Join(m.Marked(), " ")
	for _, want := range []string{"/due", "/zzz", "/labels/1"} {
		if !strings.Contains(marked, want) {
			t.Errorf("%s is not marked as kept JSON (marked: %s)", want, marked)
		}
	}
	if f := findField(m.root, "/target"); f == nil || f.variant != 1 {
		t.Fatal("the JSON did not select the service variant")
	}
	m.SetSize(120, 40)
	if v := m.View(); !strings.Contains(v, "kept as JSON") {
		t.Fatalf("kept JSON is not marked in the form:\n%s", v)
	}
	// The form can still send what it shows, and sent JSON is exactly the typed JSON.
	keys(t, m, "ctrl+j")
	if sub, ok := keys(t, m, "ctrl+s", "y").(SubmitMsg); !ok || !sameJSON(sub.Args, json.RawMessage(edited)) {
		t.Fatalf("submit from the JSON view gave %+v", sub)
	}
}

func TestInitialValue(t *testing.T) {
	initial := `{"message":"again","logger":"x"}`
	m := New(demoTool(t, "log"), Options{Initial: json.RawMessage(initial)})
	if got := value(t, m); !sameJSON(json.RawMessage(got), json.RawMessage(initial)) {
		t.Fatalf("got %s, want %s", got, initial)
	}
}

func TestEditorResult(t *testing.T) {
	m := New(demoTool(t, "echo"), Options{})
	cmd := m.Update(press("ctrl+e"))
	if cmd == nil || m.editorID != 1 {
		t.Fatal("ctrl+e gave no editor command")
	}
	m.Update(EditedMsg{ID: 0, Text: []byte(`{"text":"stale"}`)})
	if strings.Contains(value(t, m), "stale") {
		t.Fatal("a stale editor result was applied")
	}
	m.Update(EditedMsg{ID: 1, Text: []byte("{\"text\": \"from the editor\"}\n")})
	if got := value(t, m); got != `{"text":"from the editor"}` {
		t.Fatalf("got %s", got)
	}
	m.Update(m.Update(press("ctrl+e"))) // a command, not a message: ignored
	m.Update(EditedMsg{ID: m.editorID, Text: []byte(`{"text":`)})
	if m.mode != modeJSON || m.jsonErr == "" {
		t.Fatal("unparsable editor text did not open the JSON view with the error")
	}
	m.Update(EditedMsg{ID: m.editorID, Err: errors.New("vi: exit status 1")})
	if m.status == "" {
		t.Fatal("a failed editor is not reported")
	}
}

func TestEditorArgv(t *testing.T) {
	env := map[string]string{"EDITOR": "code --wait"}
	look := func(s string) (string, error) {
		if s == "code" || s == "nano" {
			return s, nil
		}
		return "", errors.New("not found")
	}
	argv, err := editorArgv(func(k string) string { return env[k] }, look)
	if err != nil || strings.Join(argv, " ") != "code --wait" {
		t.Fatalf("got %v %v", argv, err)
	}
	env = nil
	if argv, err = editorArgv(func(k string) string { return env[k] }, look); err != nil || argv[0] != "nano" {
		t.Fatalf("fallback: %v %v", argv, err)
	}
	env = map[string]string{"VISUAL": "nope"}
	if _, err = editorArgv(func(k string) string { return env[k] }, look); err == nil || !strings.Contains(err.Error(), "$VISUAL") {
		t.Fatalf("bad $VISUAL: %v", err)
	}
}

func TestMultiline(t *testing.T) {
	m := New(schemaOf(t, "base_and_variants"), Options{})
	for m.focused() == nil || m.focused().name != "body" {
		keys(t, m, "down")
	}
	keys(t, m, "enter")
	typeText(t, m, "a")
	keys(t, m, "enter")
	typeText(t, m, "b")
	keys(t, m, "esc")
	if got := value(t, m); !strings.Contains(got, `"body":"a\nb"`) {
		t.Fatalf("got %s", got)
	}
	keys(t, m, "ctrl+l") // text with several lines stays multi-line
	if !m.focused().multiline {
		t.Fatal("m made a text of several lines single-line")
	}
	keys(t, m, "ctrl+x", "ctrl+l", "enter") // single line now: enter ends the edit
	typeText(t, m, "c")
	keys(t, m, "enter")
	if got := value(t, m); !strings.Contains(got, `"body":"c"`) {
		t.Fatalf("got %s", got)
	}
}

func TestKeysFollowState(t *testing.T) {
	m := New(mustParse(t, `{"properties":{"n":{"type":"string"},"l":{"type":"array","items":{"type":"integer"}}}}`), Options{})
	k := m.KeyMap()
	if k.Delete.Enabled() || k.Add.Enabled() || k.Null.Enabled() || k.Toggle.Enabled() {
		t.Fatal("array and null keys are enabled on a plain string field")
	}
	keys(t, m, "down")
	if !k.Add.Enabled() || k.Delete.Enabled() {
		t.Fatal("on an array: add should be on, delete off")
	}
	keys(t, m, "ctrl+n")
	if !k.Delete.Enabled() || !k.MoveUp.Enabled() {
		t.Fatal("on an item: delete and move should be on")
	}
	for _, b := range k.ShortHelp() {
		if !b.Enabled() {
			t.Fatalf("short help offers disabled %v", b.Help())
		}
	}
	keys(t, m, "enter")
	if !k.Commit.Enabled() || k.Cancel.Enabled() {
		t.Fatal("while editing, esc should end the edit, not cancel")
	}
}

func TestViewSize(t *testing.T) {
	for _, tl := range corpus(t) {
		s, err := Parse(tl.InputSchema)
		if err != nil {
			t.Fatal(err)
		}
		m := New(s, Options{})
		for _, size := range [][2]int{{80, 24}, {40, 6}, {120, 50}} {
			m.SetSize(size[0], size[1])
			for _, k := range []string{"", "down", "enter", "ctrl+j"} {
				if k != "" {
					m.Update(press(k))
				}
				checkSize(t, tl.Name+" "+k, m.View(), size[0], size[1])
			}
			m.Update(press("esc"))
			m.Update(press("esc"))
		}
	}
}

func checkSize(t *testing.T, name, v string, w, h int) {
	t.Helper()
	lines := strings.Split(v, "\n")
	if len(lines) != h {
		t.Fatalf("%s: %d lines, want %d:\n%s", name, len(lines), h, v)
	}
	for i, l := range lines {
		if got := ansi.StringWidth(l); got != w {
			t.Fatalf("%s: line %d is %d wide, want %d: %q", name, i, got, w, l)
		}
	}
}

// findField finds the field at a pointer.
func findField(f *field, ptr string) *field {
	if f.pointer() == ptr && f.s.Kind != KindObject || f.pointer() == ptr && f.parent == nil || f.pointer() == ptr && f.parent.s.Kind != KindVariant {
		return f
	}
	for _, k := range f.kids {
		if g := findField(k, ptr); g != nil {
			return g
		}
	}
	return nil
}

// TestEditReplacesDefault edits fields that hold their untouched default: typing replaces
// the default instead of appending to it (slow's seconds 5, typing 30 gives 30, not 530),
// backspace deletes it, a cursor key keeps it to edit, and a value the user typed is
// edited, not replaced, the next time.
func TestEditReplacesDefault(t *testing.T) {
	m := New(demoTool(t, "slow"), Options{})
	if got := value(t, m); got != `{"seconds":5,"steps":5}` {
		t.Fatalf("fresh form: %s", got)
	}
	keys(t, m, "enter")
	if !strings.Contains(ansi.Strip(m.View()), replaceHint) {
		t.Errorf("the footer does not say typing replaces the default:\n%s", ansi.Strip(m.View()))
	}
	typeText(t, m, "30")
	keys(t, m, "enter")
	if got := value(t, m); got != `{"seconds":30,"steps":5}` {
		t.Fatalf("typing over the default gave %s, want seconds 30", got)
	}
	// Now the user's own value: editing appends to it.
	keys(t, m, "enter")
	typeText(t, m, "0")
	keys(t, m, "enter")
	if got := value(t, m); got != `{"seconds":300,"steps":5}` {
		t.Fatalf("editing a typed value gave %s, want seconds 300", got)
	}
	// A cursor key keeps the default to edit it.
	keys(t, m, "down", "enter")
	m.Update(tea.KeyPressMsg{Code: tea.KeyLeft})
	typeText(t, m, "1")
	keys(t, m, "enter")
	if got := value(t, m); got != `{"seconds":300,"steps":15}` {
		t.Fatalf("editing the default after ← gave %s, want steps 15", got)
	}

	// Backspace deletes an untouched default, as if it were selected.
	m = New(demoTool(t, "slow"), Options{})
	keys(t, m, "enter", "backspace")
	typeText(t, m, "7")
	keys(t, m, "enter")
	if got := value(t, m); got != `{"seconds":7,"steps":5}` {
		t.Fatalf("backspace then 7 over the default gave %s", got)
	}

	// A recorded value (edit & re-send) is not a default: typing edits it.
	m = New(demoTool(t, "slow"), Options{Initial: json.RawMessage(`{"seconds":2}`)})
	keys(t, m, "enter")
	typeText(t, m, "5")
	keys(t, m, "enter")
	if got := value(t, m); got != `{"seconds":25}` {
		t.Fatalf("editing a recorded value gave %s", got)
	}
}
