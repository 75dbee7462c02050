package form

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/protocol"
)

// printable is every printable ASCII character and a few that are not ASCII: what a user
// may type into any text input.
func printable() string {
	var b strings.Builder
	for c := ' '; c <= '~'; c++ {
		b.WriteRune(c)
	}
	return b.String() + "é日本🙂"
}

// typeEach types each rune of s from navigation: the rune, then esc. Every key is thus the
// first key on a field that is not being edited, where the form's own keys act. reopen are
// keys that open the input again before a rune, where typing alone would not (a map
// member's key: typing on its row edits its value).
func typeEach(t *testing.T, m *Model, s string, reopen ...string) {
	t.Helper()
	for _, r := range s {
		if m.mode != modeEdit {
			keys(t, m, reopen...)
		}
		typeText(t, m, string(r))
		if m.mode != modeEdit {
			t.Fatalf("%q on %s did not start editing", r, labelOf(m.focused()))
		}
		keys(t, m, "esc")
	}
}

// TestEveryKeyIsText: on every kind of text input of the form, every printable key is
// text, typed as the first key from navigation as well as while editing, with undo
// available and in a freshly added item; the arguments hold exactly what was typed.
func TestEveryKeyIsText(t *testing.T) {
	typed := printable()
	str := func(s string) string { b, _ := protocol.Marshal(s); return string(b) } // & < > as typed, never \u0026
	type input struct {
		name   string
		schema string
		before []string // keys that reach the input
		want   func(typed string) string
	}
	// Keys that open an input again from navigation, where typing on its row does not.
	reopen := map[string][]string{"object key of a new member": {"f2"}, "object key of a map in an array item": {"f2"}}
	inputs := []input{
		{"string", `{"properties":{"s":{"type":"string"}}}`, nil,
			func(x string) string { return `{"s":` + str(x) + `}` }},
		{"string holding a default", `{"properties":{"s":{"type":"string","default":"Paris"}}}`, nil,
			func(x string) string { return `{"s":` + str(x) + `}` }},
		{"nullable string that is null", `{"properties":{"s":{"type":["string","null"],"default":null}}}`, nil,
			func(x string) string { return `{"s":` + str(x) + `}` }},
		{"multi-line string", `{"properties":{"s":{"type":"string"}}}`, []string{"ctrl+l"},
			func(x string) string { return `{"s":` + str(x) + `}` }},
		{"number", `{"properties":{"n":{"type":"number"}}}`, nil,
			func(x string) string { return `{"n":` + str(x) + `}` }},
		{"integer", `{"properties":{"n":{"type":"integer"}}}`, nil,
			func(x string) string { return `{"n":` + str(x) + `}` }},
		{"any value", `{"properties":{"v":{}}}`, nil,
			func(x string) string { return `{"v":` + str(x) + `}` }},
		{"item just added", `{"properties":{"paths":{"type":"array","items":{"type":"string"}}}}`, []string{"ctrl+n"},
			func(x string) string { return `{"paths":[` + str(x) + `]}` }},
		{"item added after another", `{"properties":{"paths":{"type":"array","items":{"type":"string"}}}}`,
			[]string{"ctrl+n", "r", "esc", "ctrl+n"},
			func(x string) string { return `{"paths":["r",` + str(x) + `]}` }},
		{"item of numbers just added", `{"properties":{"l":{"type":"array","items":{"type":"integer"}}}}`, []string{"ctrl+n"},
			func(x string) string { return `{"l":[` + str(x) + `]}` }},
		{"object key of a new member", `{"properties":{"env":{"type":"object","additionalProperties":{"type":"string","default":"v"}}}}`,
			[]string{"ctrl+n"}, func(x string) string { return `{"env":{` + str(x) + `:"v"}}` }},
		{"object key of a map in an array item", `{"properties":{"l":{"type":"array","items":{"type":"object","patternProperties":{"^.*$":{"type":"integer","default":1}}}}}}`,
			[]string{"ctrl+n", "ctrl+n"}, func(x string) string { return `{"l":[{` + str(x) + `:1}]}` }},
		{"string with undo available", `{"properties":{"s":{"type":"string"},"t":{"type":"string","default":"x"}}}`,
			[]string{"down", "ctrl+x", "up"},
			func(x string) string { return `{"s":` + str(x) + `}` }},
	}
	for _, in := range inputs {
		for _, how := range []string{"while editing", "each key from navigation"} {
			t.Run(in.name+"/"+how, func(t *testing.T) {
				m := New(mustParse(t, in.schema), Options{})
				for _, k := range in.before {
					if len(k) == 1 {
						typeText(t, m, k)
					} else {
						keys(t, m, k)
					}
				}
				if how == "while editing" {
					typeText(t, m, typed)
					keys(t, m, "esc")
				} else {
					typeEach(t, m, typed, reopen[in.name]...)
				}
				v, _ := m.Value()
				if got, want := string(v), in.want(typed); got != want {
					t.Fatalf("typed %q\ngot  %s\nwant %s", typed, got, want)
				}
			})
		}
	}
}

// TestNumberKeepsLetters: a number field takes letters as typed and shows at once that the
// text is not a number; the problem goes when the text is a number again.
func TestNumberKeepsLetters(t *testing.T) {
	m := New(mustParse(t, `{"properties":{"n":{"type":"number"}}}`), Options{})
	typeText(t, m, "4")
	if ps := m.Problems(); len(ps) != 0 {
		t.Fatalf("problems for 4: %v", ps)
	}
	typeText(t, m, "x")
	if m.mode != modeEdit {
		t.Fatal("x ended the edit")
	}
	if ps := m.Problems(); len(ps) != 1 || ps[0].Pointer != "/n" {
		t.Fatalf("4x is no number, problems: %v", ps)
	}
	if f := ansi.Strip(m.footer()); !strings.Contains(f, "1 problem") {
		t.Fatalf("the problems line does not follow the key: %q", f)
	}
	keys(t, m, "backspace")
	if ps := m.Problems(); len(ps) != 0 {
		t.Fatalf("problems after backspace: %v", ps)
	}
	keys(t, m, "esc")
	if got := value(t, m); got != `{"n":4}` {
		t.Fatalf("value %s", got)
	}
}

// TestProblemsFollowEachKey: the problems line follows each key while a field is edited,
// not only when the field is left.
func TestProblemsFollowEachKey(t *testing.T) {
	m := New(mustParse(t, `{"properties":{"name":{"type":"string","minLength":3}},"required":["name"]}`), Options{})
	if ps := m.Problems(); len(ps) != 1 {
		t.Fatalf("an empty required name: problems %v", ps)
	}
	typeText(t, m, "ma")
	if ps := m.Problems(); len(ps) != 1 || !strings.Contains(ps[0].Message, "3") {
		t.Fatalf("after ma: problems %v", ps)
	}
	typeText(t, m, "r")
	if ps := m.Problems(); len(ps) != 0 || m.mode != modeEdit {
		t.Fatalf("after mar, still editing: problems %v", ps)
	}
	if f := ansi.Strip(m.footer()); !strings.Contains(f, "match the schema") {
		t.Fatalf("footer %q", f)
	}
	keys(t, m, "backspace")
	if ps := m.Problems(); len(ps) != 1 {
		t.Fatalf("after backspace: problems %v", ps)
	}
	m.Update(tea.PasteMsg{Content: "rylebone"})
	if ps := m.Problems(); len(ps) != 0 {
		t.Fatalf("after a paste: problems %v", ps)
	}
	keys(t, m, "esc")
	if got := value(t, m); got != `{"name":"marylebone"}` {
		t.Fatalf("value %s", got)
	}
}

// TestJSONViewTyping: the JSON view opens with the cursor after the text, so typing adds
// to its end; ctrl+a selects it all, and typing or pasting then replaces it.
func TestJSONViewTyping(t *testing.T) {
	m := New(mustParse(t, `{"properties":{"s":{"type":"string"}}}`), Options{})
	typeText(t, m, "a")
	keys(t, m, "esc", "ctrl+j")
	if m.mode != modeJSON {
		t.Fatal("ctrl+j did not open the JSON view")
	}
	m.SetSize(80, 24)
	if title := strings.Split(ansi.Strip(m.View()), "\n")[0]; !strings.Contains(title, "ctrl+a select all") || !strings.Contains(title, "ctrl+e $EDITOR") {
		t.Fatalf("the JSON view's title line at 80 columns: %q", title)
	}
	lines := strings.Split(m.json.Value(), "\n")
	if li := m.json.LineInfo(); m.json.Line() != len(lines)-1 || li.ColumnOffset+li.StartColumn != len([]rune(lines[len(lines)-1])) {
		t.Fatalf("the cursor is at %d:%d, not after the text %q", m.json.Line(), li.ColumnOffset, m.json.Value())
	}
	typeText(t, m, " ")
	if !strings.HasSuffix(m.json.Value(), "} ") {
		t.Fatalf("typing did not add to the end: %q", m.json.Value())
	}
	keys(t, m, "ctrl+a")
	if f := ansi.Strip(m.footer()); !strings.Contains(f, "all selected") {
		t.Fatalf("the selection is not shown: %q", f)
	}
	typeText(t, m, `{"s":"z`)
	typeText(t, m, `"}`)
	if got := m.json.Value(); got != `{"s":"z"}` {
		t.Fatalf("typing after select-all: %q", got)
	}
	if ps := m.Problems(); len(ps) != 0 {
		t.Fatalf("problems: %v", ps)
	}
	keys(t, m, "ctrl+a")
	m.Update(tea.PasteMsg{Content: `{"s":1}`})
	if got := m.json.Value(); got != `{"s":1}` {
		t.Fatalf("pasting after select-all: %q", got)
	}
	if ps := m.Problems(); len(ps) != 1 {
		t.Fatalf("the problems do not follow the JSON text: %v", ps)
	}
	keys(t, m, "ctrl+a", "backspace")
	if got := m.json.Value(); got != "" {
		t.Fatalf("backspace after select-all: %q", got)
	}
	typeText(t, m, `{"s":"k"}`)
	keys(t, m, "ctrl+a", "left")
	typeText(t, m, "x")
	if got := m.json.Value(); got != `{"s":"k"x}` {
		t.Fatalf("a cursor key did not keep the text: %q", got)
	}
}

// BenchmarkTypeKey is one key typed into a field of create_ticket's form (nested objects,
// a oneOf, arrays, $refs): the form is checked again against the schema on each key.
func BenchmarkTypeKey(b *testing.B) {
	t := &testing.T{}
	m := New(demoTool(t, "create_ticket"), Options{})
	typeText(t, m, "x")
	k := tea.KeyPressMsg{Code: 'y', Text: "y"}
	b.ResetTimer()
	for range b.N {
		m.Update(k)
	}
}
