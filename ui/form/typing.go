package form

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// Typing on a field: in navigation, a printable key that is not one of the form's keys,
// or backspace, starts editing the focused text field with that key (replacing an
// untouched default), as if enter had been pressed first. The field's hint line says so, and names the
// letters that act on the field instead.

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

// typingHint is the line under a focused text field in navigation: how to edit it, and
// the letters that act on it instead of being typed.
func (m *Model) typingHint(f *field) string {
	if m.mode != modeNavigate || !typable(f) {
		return ""
	}
	k := m.keys
	var acts []string
	for _, b := range []key.Binding{k.Add, k.Delete, k.MoveUp, k.MoveDown, k.Null, k.Clear, k.Undo, k.Multiline} {
		if !b.Enabled() {
			continue
		}
		for _, s := range b.Keys() {
			if len([]rune(s)) == 1 {
				acts = append(acts, s+" "+b.Help().Desc)
			}
		}
	}
	h := "type or backspace to edit"
	if len(acts) > 0 {
		h += "; these letters act instead: " + strings.Join(acts, ", ") + " (" + k.Edit.Help().Key + " first to type them)"
	}
	return h
}
