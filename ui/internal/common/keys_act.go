package common

import "charm.land/bubbles/v2/key"

// ActKeys are the bindings that act on the server: cancelling, re-sending and composing
// requests, the log level and the roots, and answering what the server asks. They are part
// of the KeyMap (KeyMap.Act), so help and README's key table list them.
type ActKeys struct {
	// On a timeline row (Cancel also in the detail and the explorer, cancel.go).
	Cancel, Resend, EditResend, CopyCommand key.Binding
	// Anywhere on a live session.
	Compose, LogLevel, Roots key.Binding
	// In the dialogs.
	Send, Decline, Dismiss, OpenURL, NextField, PrevField, RawMode key.Binding
	// In the roots editor.
	AddRoot, DeleteRoot, EditRoot key.Binding
}

// DefaultActKeys are mcpscope's bindings for acting on the server.
func DefaultActKeys() ActKeys {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return ActKeys{
		Cancel:     b("c", "cancel request", "c"),
		Resend:     b("r", "re-send request", "r"),
		EditResend: b("E", "edit & re-send", "E"),

		CopyCommand: b("C", "copy as command (mcpscope, curl)…", "C"),

		Compose:  b(":", "new request…", ":"),
		LogLevel: b("L", "server log level…", "L"),
		Roots:    b("ctrl+o", "roots…", "ctrl+o"),

		Send:      b("ctrl+s", "send / accept", "ctrl+s"),
		Decline:   b("ctrl+d", "decline", "ctrl+d"),
		Dismiss:   b("esc", "cancel / close", "esc"),
		OpenURL:   b("o", "open URL in browser", "o"),
		NextField: b("tab", "next field", "tab"),
		PrevField: b("shift+tab", "previous field", "shift+tab"),
		RawMode:   b("ctrl+t", "raw text ⇄ method+params", "ctrl+t"),

		AddRoot:    b("a", "add root", "a"),
		DeleteRoot: b("d", "remove root", "d"),
		EditRoot:   b("enter", "edit root", "enter"),
	}
}

// groups are the act bindings by topic, for the full help and README.
func (k *ActKeys) groups() []Group {
	return []Group{
		{"Requests", []key.Binding{k.Cancel, k.Resend, k.EditResend, k.CopyCommand, k.Compose, k.LogLevel, k.Roots}},
		{"Dialogs", []key.Binding{k.Send, k.Decline, k.Dismiss, k.OpenURL, k.NextField, k.PrevField, k.RawMode}},
		{"Roots editor", []key.Binding{k.AddRoot, k.DeleteRoot, k.EditRoot}},
	}
}

// SessionKeys are the bindings that need a live session of mcpscope's own.
func (k *ActKeys) SessionKeys() []*key.Binding {
	return []*key.Binding{&k.Cancel, &k.Resend, &k.EditResend, &k.Compose, &k.LogLevel, &k.Roots}
}

// SetActLive enables the bindings that need a live session, or, when offline says why there
// is none (a recording is browsed, a tap only watches), disables them with that reason.
func (k *KeyMap) SetActLive(offline string) {
	for _, b := range k.Act.SessionKeys() {
		if offline == "" {
			k.Enable(b)
		} else {
			k.Disable(b, offline)
		}
	}
}
