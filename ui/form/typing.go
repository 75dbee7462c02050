package form

import (
	"encoding/json"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// Typing on a field: in navigation, any printable key (the form's own keys on text fields
// are all ctrl combinations) or backspace starts editing the focused text field with that
// key, as if enter had been pressed first. It replaces an untouched schema default (drawn
// dim, marked "(default)") and adds to the end of anything else. The field's hint line
// says which.

// typable reports whether f is edited as text.
func typable(f *field) bool {
	if f == nil {
		return false
	}
	if f.raw != nil {
		return true
	}
	switch f.s.Kind {
	case KindString, KindNumber, KindInteger, KindAny:
		return true
	}
	return false
}

// typeInto starts editing the focused field with msg typed, when msg is printable text or
// backspace and the field is edited as text; ok is false otherwise.
func (m *Model) typeInto(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	f := m.focused()
	edits := msg.Text != "" || msg.Code == tea.KeyBackspace
	if msg.Text != "" && msg.Mod&(tea.ModCtrl|tea.ModAlt) == 0 && f != nil && f.s.Kind == KindObject && f.s.Additional != nil && f.raw == nil {
		// On a map, typing is the key of a new member.
		cmd := m.addMember(f, nil)
		return tea.Batch(cmd, m.keyEdit(msg)), true
	}
	if !edits || msg.Mod&(tea.ModCtrl|tea.ModAlt) != 0 || !typable(f) {
		return nil, false
	}
	cmd := m.activate()
	if m.mode != modeEdit {
		return cmd, true
	}
	if !m.replace && f.text != "" {
		// Typing adds to the end of what the field holds.
		if m.editingMultiline() {
			m.area.CursorEnd()
		} else {
			m.input.CursorEnd()
		}
	}
	return tea.Batch(cmd, m.keyEdit(msg)), true
}

// The hints under a focused text field in navigation: what typing will do to it. Every
// printable key is typed; the actions on the field are ctrl keys, listed in the help line.
const (
	hintReplace = "the default: typing replaces it · enter, then ←/→ to edit it"
	hintLast    = "sent last time: typing replaces it · enter, then ←/→ to edit it"
	hintAppend  = "typing adds to the end · backspace deletes the last character"
	hintEmpty   = "type to fill it in"
	hintMap     = "type a key (or ctrl+n, enter) to add a member"
	hintKey     = "the member's key: enter goes on to its value"
	hintAbsent  = "unset: sent once a value in it is entered"
)

// typingHint is the line under a focused text field in navigation: whether typing replaces
// what it holds (an untouched schema default, or the value sent last time) or adds to it
// (anything else).
func (m *Model) typingHint(f *field) string {
	switch {
	case m.mode == modeEdit && m.editKey:
		return hintKey
	case m.mode == modeNavigate && f.s.Kind == KindObject && f.s.Additional != nil && f.raw == nil:
		return hintMap
	}
	if m.mode != modeNavigate || !typable(f) {
		return ""
	}
	switch {
	case f.untouchedDefault() && f.fromLast:
		return hintLast
	case f.untouchedDefault():
		return hintReplace
	case f.raw != nil || f.text != "":
		return hintAppend
	}
	return hintEmpty
}

// checkTyped checks the form as if the text being edited were committed, so the problems
// shown follow each key rather than waiting for the field to be left. The field itself is
// left as it was: esc still commits, and a field left by tab commits as before.
func (m *Model) checkTyped() {
	f := m.focused()
	if m.mode != modeEdit || f == nil {
		return
	}
	text := m.input.Value()
	if m.editKey {
		name := f.name
		defer func() { f.name = name }()
		f.name = text
		m.revalidate()
		return
	}
	if m.editingMultiline() {
		text = m.area.Value()
	}
	saved := *f
	defer func() { *f = saved }()
	if f.raw != nil {
		if json.Valid([]byte(text)) && f.s.Kind != KindString {
			f.raw = json.RawMessage(text)
			m.revalidate()
			return
		}
		f.raw = nil
	}
	f.null = false
	f.edited = f.edited || text != f.text
	f.text = text
	f.present = strings.TrimSpace(text) != "" || f.s.Kind == KindString && (text != "" || f.present && f.required)
	m.revalidate()
}
