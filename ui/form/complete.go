package form

import (
	"sync/atomic"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// CompleteFunc asks for suggestions for a top-level string field while it is typed: field
// is the property name, value the text so far, context the other top-level string fields
// that hold text. It returns a command that yields a SuggestionsMsg (nil: no suggestions).
// The form stamps the message with its own identity and request number, so the command
// only fills Values (and Err).
type CompleteFunc func(field, value string, context map[string]string) tea.Cmd

// SuggestionsMsg carries completion suggestions back to the form that asked. Answers to
// an older request, or to another form, are dropped.
type SuggestionsMsg struct {
	Values []string
	Err    error

	form  uint64 // the asking form
	seq   int    // the request it answers
	field string // the field's JSON pointer
}

// completeDueMsg fires when typing paused long enough to ask for suggestions.
type completeDueMsg struct {
	form uint64
	seq  int
}

// completeDelay is how long typing must pause before suggestions are asked for.
const completeDelay = 120 * time.Millisecond

// maxSuggestions bounds the suggestions shown under a field.
const maxSuggestions = 8

var formIDs atomic.Uint64

// suggest is the completion state of the form.
type suggest struct {
	seq    int      // the latest request
	field  string   // pointer of the field the suggestions are for
	values []string // suggestions shown
	sel    int      // highlighted suggestion, -1 for none
	asked  string   // the text the latest request was for
}

// completable reports whether the focused field gets suggestions: a top-level string.
func (m *Model) completable() bool {
	f := m.focused()
	return m.complete != nil && f != nil && f.s.Kind == KindString && f.parent == m.root && f.name != "" && !m.editKey
}

// suggesting reports whether suggestions are shown for the field being edited.
func (m *Model) suggesting() bool {
	f := m.focused()
	return m.mode == modeEdit && f != nil && len(m.sugg.values) > 0 && m.sugg.field == f.pointer()
}

// editText is the text of the edit in progress.
func (m *Model) editText() string {
	if m.editingMultiline() {
		return m.area.Value()
	}
	return m.input.Value()
}

// askLater schedules a completion request for the text being typed; a newer keystroke
// supersedes it.
func (m *Model) askLater() tea.Cmd {
	if !m.completable() || m.mode != modeEdit || m.editText() == m.sugg.asked {
		return nil
	}
	m.sugg.seq++
	due := completeDueMsg{form: m.id, seq: m.sugg.seq}
	return tea.Tick(completeDelay, func(time.Time) tea.Msg { return due })
}

// ask sends the completion request for the focused field now.
func (m *Model) ask() tea.Cmd {
	if !m.completable() {
		return nil
	}
	f := m.focused()
	m.sugg.seq++
	text := f.text
	if m.mode == modeEdit {
		text = m.editText()
	}
	m.sugg.asked = text
	ctx := map[string]string{}
	for _, k := range m.root.kids {
		if k != f && k.s.Kind == KindString && k.text != "" {
			ctx[k.name] = k.text
		}
	}
	cmd := m.complete(f.name, text, ctx)
	if cmd == nil {
		return nil
	}
	id, seq, ptr := m.id, m.sugg.seq, f.pointer()
	return func() tea.Msg {
		msg, ok := cmd().(SuggestionsMsg)
		if !ok {
			return nil
		}
		msg.form, msg.seq, msg.field = id, seq, ptr
		return msg
	}
}

// suggestions takes in an answer: only the latest request's, for this form.
func (m *Model) suggestions(msg SuggestionsMsg) {
	if msg.form != m.id || msg.seq != m.sugg.seq {
		return
	}
	m.sugg.field, m.sugg.sel = msg.field, -1
	m.sugg.values = msg.Values
	if len(m.sugg.values) > maxSuggestions {
		m.sugg.values = m.sugg.values[:maxSuggestions]
	}
	if msg.Err != nil {
		m.sugg.values = nil
	}
}

// clearSuggestions hides the suggestions and drops answers still on their way.
func (m *Model) clearSuggestions() {
	m.sugg.values, m.sugg.sel, m.sugg.asked = nil, -1, ""
	m.sugg.seq++
}

// keySuggest handles the keys that pick a suggestion: ↓/↑ highlight, tab takes the
// highlighted one (the first when none is). It reports whether it used the key.
func (m *Model) keySuggest(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if !m.suggesting() {
		return nil, false
	}
	k := m.keys
	n := len(m.sugg.values)
	switch {
	case key.Matches(msg, k.Down):
		m.sugg.sel = (m.sugg.sel + 1) % n
	case key.Matches(msg, k.Up):
		m.sugg.sel = max(m.sugg.sel-1, -1)
	case key.Matches(msg, k.Accept), m.sugg.sel >= 0 && key.Matches(msg, k.Edit):
		v := m.sugg.values[max(m.sugg.sel, 0)]
		if m.editingMultiline() {
			m.area.SetValue(v)
		} else {
			m.input.SetValue(v)
			m.input.CursorEnd()
		}
		m.clearSuggestions()
		m.sugg.asked = v
		m.checkTyped()
	default:
		return nil, false
	}
	return nil, true
}

// suggestionLines draws the suggestions under the field.
func (m *Model) suggestionLines(pad string) []string {
	if !m.suggesting() {
		return nil
	}
	st := &m.st
	out := make([]string, 0, len(m.sugg.values))
	for i, v := range m.sugg.values {
		if i == m.sugg.sel {
			out = append(out, pad+st.ChoiceActive.Render("› "+v))
		} else {
			out = append(out, pad+st.Choice.Render("  "+v))
		}
	}
	return out
}

// Suggestions are the completion suggestions shown now (none when no field is edited).
func (m *Model) Suggestions() []string {
	if !m.suggesting() {
		return nil
	}
	return m.sugg.values
}
