package replay

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"

	"github.com/mcpscope/mcpscope/ui"
)

// KeyMap is the keymap of the replay report. The moves, help and quit are the main
// keymap's own bindings (so the two never disagree); the rest belong to this screen. Its
// help, help line and README's table of the report's keys are generated from it.
type KeyMap struct {
	Up, Down, PageUp, PageDown, Top, Bottom, Focus key.Binding
	Side, NextDiff, PrevDiff                       key.Binding
	Help, Quit                                     key.Binding
}

// NewKeyMap builds the replay report's keymap on k.
func NewKeyMap(k *ui.KeyMap) *KeyMap {
	b := func(help string, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	focus := k.NextPane
	focus.SetHelp(focus.Help().Key, "requests ⇄ responses")
	return &KeyMap{
		Up: k.Up, Down: k.Down, PageUp: k.PageUp, PageDown: k.PageDown, Top: k.Top, Bottom: k.Bottom,
		Focus:    focus,
		Side:     b("v", "recorded ⇄ live (narrow terminal)", "v"),
		NextDiff: b("n", "next difference", "n"),
		PrevDiff: b("N", "previous difference", "N"),
		Help:     k.Help,
		Quit:     k.Quit,
	}
}

// Groups lists the report's bindings by topic.
func (k *KeyMap) Groups() []ui.Group {
	return []ui.Group{
		{Title: "Move", Bindings: []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom, k.Focus}},
		{Title: "Responses", Bindings: []key.Binding{k.Side, k.NextDiff, k.PrevDiff}},
		{Title: "Global", Bindings: []key.Binding{k.Help, k.Quit}},
	}
}

// MarkdownTable renders the keymap as README's table of the report's keys.
func (k *KeyMap) MarkdownTable() string {
	var b strings.Builder
	b.WriteString("| key | action |\n|---|---|\n")
	for _, g := range k.Groups() {
		for _, kb := range g.Bindings {
			keys := make([]string, len(kb.Keys()))
			for i, s := range kb.Keys() {
				keys[i] = "`" + s + "`"
			}
			fmt.Fprintf(&b, "| %s | %s |\n", strings.Join(keys, " "), kb.Help().Desc)
		}
	}
	return b.String()
}
