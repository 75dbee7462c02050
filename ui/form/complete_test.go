package form

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// suggestionsIn runs cmd and what it batches, and returns the SuggestionsMsg among the
// results. Ticks are not run: the test sends the due message itself.
func suggestionsIn(cmd tea.Cmd) []SuggestionsMsg {
	if cmd == nil {
		return nil
	}
	var out []SuggestionsMsg
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			out = append(out, suggestionsIn(c)...)
		}
	case SuggestionsMsg:
		out = append(out, msg)
	}
	return out
}

// TestCompletion asks for suggestions on entering a field and after typing, shows them
// under the field, takes one with ↓ and tab, and drops answers to older requests.
func TestCompletion(t *testing.T) {
	s := mustParse(t, `{"type":"object","properties":{"language":{"type":"string"},"style":{"type":"string"}},"required":["language"]}`)
	type ask struct {
		field, value string
		ctx          map[string]string
	}
	var asked []ask
	complete := func(field, value string, ctx map[string]string) tea.Cmd {
		asked = append(asked, ask{field, value, ctx})
		return func() tea.Msg {
			var vals []string
			for _, v := range []string{"go", "golang", "python"} {
				if strings.HasPrefix(v, value) {
					vals = append(vals, v)
				}
			}
			return SuggestionsMsg{Values: vals}
		}
	}
	m := New(s, Options{Complete: complete})
	m.SetSize(80, 20)

	first := suggestionsIn(m.Update(press("enter")))
	if len(asked) != 1 || asked[0].field != "language" || asked[0].value != "" || len(first) != 1 {
		t.Fatalf("entering the field asked %+v, answers %v", asked, first)
	}
	typeText(t, m, "g")
	// The answer to the request made before typing is stale once a newer one is made.
	due := completeDueMsg{form: m.id, seq: m.sugg.seq}
	fresh := suggestionsIn(m.Update(due))
	if len(fresh) != 1 || asked[len(asked)-1].value != "g" {
		t.Fatalf("after typing: asked %+v, answers %v", asked, fresh)
	}
	m.Update(first[0])
	if m.suggesting() {
		t.Fatalf("a stale answer was shown: %v", m.sugg.values)
	}
	m.Update(fresh[0])
	view := ansi.Strip(m.View())
	if !strings.Contains(view, "go") || !strings.Contains(view, "golang") || strings.Contains(view, "python") {
		t.Fatalf("suggestions not shown:\n%s", view)
	}
	if !m.KeyMap().Accept.Enabled() {
		t.Errorf("the take-suggestion key is not enabled while suggestions show")
	}
	m.Update(press("down"))
	m.Update(press("down"))
	m.Update(press("tab"))
	if got := m.input.Value(); got != "golang" {
		t.Fatalf("tab took %q, want golang", got)
	}
	m.Update(press("esc"))
	if m.suggesting() {
		t.Errorf("suggestions stay after editing ends")
	}

	// The other fields' text is the context of a request.
	m.Update(press("tab"))
	m.Update(press("enter"))
	last := asked[len(asked)-1]
	if last.field != "style" || last.ctx["language"] != "golang" {
		t.Errorf("second field asked %+v", last)
	}
	var args map[string]string
	v, _ := m.Value()
	_ = json.Unmarshal(v, &args)
	if args["language"] != "golang" {
		t.Errorf("arguments %s", v)
	}
	// Answers for another form are dropped too.
	other := New(s, Options{Complete: complete})
	msg := fresh[0]
	other.Update(msg)
	if slices.Equal(other.sugg.values, msg.Values) {
		t.Errorf("a form took another form's suggestions")
	}
}
