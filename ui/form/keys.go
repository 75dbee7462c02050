package form

import (
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// KeyMap is every binding of the form. The Model enables and disables bindings as its
// state changes (Delete only inside an array, Null only on a nullable field …), so help
// generated from it never offers a key that does nothing.
//
// A field that takes text owns every printable key: the actions on fields (add, delete and
// move items, null, clear, undo, multi-line) are ctrl combinations (moves also alt+arrows),
// which cannot be typed text. Letters act only where no text is typed: space toggles a
// boolean, y/n answer the send-anyway question.
type KeyMap struct {
	Next, Prev, Up, Down                    key.Binding
	Edit, Toggle, Add, Delete, Rename       key.Binding
	MoveUp, MoveDown                        key.Binding
	Null, Clear, Undo, Multiline            key.Binding
	Commit, JSON, SelectAll, Editor, Submit key.Binding
	Cancel                                  key.Binding
	Accept                                  key.Binding
	Yes, No                                 key.Binding
}

// DefaultKeyMap is the form's keymap.
func DefaultKeyMap() *KeyMap {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return &KeyMap{
		Next:      b("tab", "next field", "tab"),
		Prev:      b("shift+tab", "previous field", "shift+tab"),
		Up:        b("↑", "up", "up"),
		Down:      b("↓", "down", "down"),
		Edit:      b("enter", "edit / choose", "enter"),
		Toggle:    b("space", "toggle", "space"),
		Add:       b("ctrl+n", "new item / member", "ctrl+n"),
		Delete:    b("ctrl+k", "delete item / member", "ctrl+k"),
		Rename:    b("f2", "rename key", "f2"),
		MoveUp:    b("ctrl+↑", "move item up", "ctrl+up", "alt+up"),
		MoveDown:  b("ctrl+↓", "move item down", "ctrl+down", "alt+down"),
		Null:      b("ctrl+g", "null", "ctrl+g"),
		Clear:     b("ctrl+x", "clear field", "ctrl+x"),
		Undo:      b("ctrl+z", "undo", "ctrl+z"),
		Multiline: b("ctrl+l", "multi-line", "ctrl+l"),
		Commit:    b("esc", "done editing", "esc"),
		Accept:    b("tab", "take suggestion", "tab"),
		JSON:      b("ctrl+j", "JSON view", "ctrl+j"),
		SelectAll: b("ctrl+a", "select all", "ctrl+a"),
		Editor:    b("ctrl+e", "edit in $EDITOR", "ctrl+e"),
		Submit:    b("ctrl+s", "send", "ctrl+s"),
		Cancel:    b("esc", "cancel", "esc"),
		Yes:       b("y", "send anyway", "y", "Y"),
		No:        b("n", "back to the form", "n", "N", "esc"),
	}
}

// ShortHelp is the bindings that apply now, for a one-line help (help.KeyMap).
func (k *KeyMap) ShortHelp() []key.Binding {
	all := []key.Binding{k.Yes, k.No, k.Accept, k.Edit, k.Toggle, k.Add, k.Delete, k.Rename, k.MoveUp, k.MoveDown, k.Null, k.Clear, k.Undo, k.Multiline, k.Commit, k.JSON, k.SelectAll, k.Submit, k.Cancel}
	var out []key.Binding
	for _, b := range all {
		if b.Enabled() {
			out = append(out, b)
		}
	}
	return out
}

// FullHelp is every binding by topic (help.KeyMap); disabled ones are left out by help.
func (k *KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Next, k.Prev, k.Up, k.Down, k.Edit, k.Commit, k.Accept},
		{k.Toggle, k.Null, k.Clear, k.Undo, k.Multiline},
		{k.Add, k.Delete, k.Rename, k.MoveUp, k.MoveDown},
		{k.JSON, k.SelectAll, k.Editor, k.Submit, k.Cancel, k.Yes, k.No},
	}
}

// all lists every binding, for enabling them in bulk.
func (k *KeyMap) all() []*key.Binding {
	return []*key.Binding{&k.Next, &k.Prev, &k.Up, &k.Down, &k.Edit, &k.Toggle, &k.Add, &k.Delete, &k.Rename,
		&k.MoveUp, &k.MoveDown, &k.Null, &k.Clear, &k.Undo, &k.Multiline, &k.Commit, &k.JSON, &k.SelectAll, &k.Editor,
		&k.Submit, &k.Cancel, &k.Yes, &k.No, &k.Accept}
}

// syncInput draws the text being edited as selected while typing replaces it (an untouched
// default), plain otherwise.
func (m *Model) syncInput() {
	sel := 0
	if m.mode == modeEdit && m.replace {
		sel = 1
	}
	m.input.SetStyles(m.inputSt[sel])
	if m.mode == modeEdit && m.editKey { // the key input is as wide as the key, so ": value" follows it
		m.input.SetWidth(max(min(ansi.StringWidth(m.input.Value()), m.width/2), 3))
	}
}

// structuralKeys enables the keys that add, delete and move items and members where the
// focused field has them, in navigation and while the field is edited.
func (m *Model) structuralKeys() {
	k, f := m.keys, m.focused()
	k.Add.SetHelp(k.Add.Help().Key, "new item")
	k.Delete.SetHelp(k.Delete.Help().Key, "delete item")
	if m.addsMember() {
		k.Add.SetEnabled(true)
		k.Add.SetHelp(k.Add.Help().Key, "new member")
	}
	if f == nil {
		return
	}
	if f.s.Kind == KindArray && f.raw == nil || m.enclosingItem() != nil {
		k.Add.SetEnabled(true)
	}
	if m.enclosingItem() != nil {
		k.MoveUp.SetEnabled(true)
		k.MoveDown.SetEnabled(true)
	}
	if e := m.entryAt(); e != nil {
		k.Delete.SetEnabled(true)
		if e.member {
			k.Delete.SetHelp(k.Delete.Help().Key, "delete member")
		}
	}
}

// structural reports whether msg is one of the bindings' keys, enabled or not.
func structural(msg tea.KeyPressMsg, bs ...key.Binding) bool {
	for _, b := range bs {
		if slices.Contains(b.Keys(), msg.String()) {
			return true
		}
	}
	return false
}

// syncKeys enables the bindings that apply in the current state.
func (m *Model) syncKeys() {
	k := m.keys
	for _, b := range k.all() {
		b.SetEnabled(false)
	}
	on := func(bs ...*key.Binding) {
		for _, b := range bs {
			b.SetEnabled(true)
		}
	}
	switch m.mode {
	case modeConfirm:
		on(&k.Yes, &k.No)
		back := "back to the form"
		if m.asked == modeJSON {
			back = "back to the JSON view"
		}
		k.No.SetHelp(k.No.Help().Key, back)
	case modeJSON:
		on(&k.JSON, &k.Commit, &k.Submit, &k.Editor, &k.SelectAll)
	case modeEdit:
		on(&k.Commit, &k.Next, &k.Prev, &k.Up, &k.Down, &k.Submit)
		if !m.editingMultiline() {
			on(&k.Edit)
		}
		if t := m.editText(); t != "" {
			on(&k.Clear)
		}
		if m.editText() != m.editFrom {
			on(&k.Undo)
		}
		if m.suggesting() {
			on(&k.Accept)
		}
		m.structuralKeys() // they act on the field as committed
	case modeChoose:
		on(&k.Up, &k.Down, &k.Next, &k.Prev, &k.Edit, &k.Toggle, &k.Commit)
	default:
		on(&k.Next, &k.Prev, &k.Up, &k.Down, &k.JSON, &k.Editor, &k.Submit, &k.Cancel)
		f := m.focused()
		if m.focusedRow().kind == rowSubmit || f != nil && f.s.Kind != KindConst {
			on(&k.Edit)
		}
		if len(m.undo) > 0 {
			on(&k.Undo)
		}
		m.structuralKeys()
		if f == nil {
			return
		}
		if f.s.Kind == KindBoolean && f.raw == nil {
			on(&k.Toggle)
		}
		if f.s.Nullable {
			on(&k.Null)
		}
		if f.hasValue() && f.s.Kind != KindConst && !(f.s.Kind == KindBoolean && f.required) {
			on(&k.Clear)
		}
		if f.s.Kind == KindString {
			on(&k.Multiline)
		}
		if f.member {
			on(&k.Rename)
		}
	}
}
