package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/ui/form"
)

// The hold editor edits text as the form's fields do, with the form's own bindings (one
// keymap, package form): ctrl+a selects all (typing, pasting or backspace replace it),
// ctrl+x clears, ctrl+z goes back to the message as it was held. The dialog lists them
// under the editor and in its help.

// formEditKeys is the form's keymap, whose editing bindings the hold editor shares.
var formEditKeys = form.DefaultKeyMap()

// holdEditKeys are the form's bindings the hold editor takes, described for it.
func holdEditKeys() []key.Binding {
	k := formEditKeys
	undo := k.Undo
	undo.SetHelp(undo.Help().Key, "undo: the message as held")
	return []key.Binding{k.SelectAll, k.Clear, undo}
}

// holdEditHint lists them in a line: "ctrl+a select all · ctrl+x clear field · …".
func holdEditHint() string {
	var parts []string
	for _, b := range holdEditKeys() {
		parts = append(parts, b.Help().Key+" "+b.Help().Desc)
	}
	return strings.Join(parts, " · ")
}

// formKey acts on one of the form's editing keys; false when kp is none of them (the
// editor takes it).
func (d *holdDialog) formKey(kp tea.KeyPressMsg) bool {
	k := formEditKeys
	switch {
	case key.Matches(kp, k.SelectAll):
		d.editor.SelectAll()
	case key.Matches(kp, k.Clear):
		d.editor.SetValue("")
	case key.Matches(kp, k.Undo):
		d.editor.SetValue(d.opened)
	default:
		return false
	}
	return true
}
