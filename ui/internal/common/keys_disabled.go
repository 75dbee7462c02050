package common

import (
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// Disable turns the binding b (a field of k) off and records why, so that pressing it says
// so in the status line instead of doing nothing; help leaves it out as before.
func (k *KeyMap) Disable(b *key.Binding, reason string) {
	b.SetEnabled(false)
	if k.reasons == nil {
		k.reasons = map[*key.Binding]string{}
	}
	k.reasons[b] = reason
}

// Enable turns b on again and forgets why it was off.
func (k *KeyMap) Enable(b *key.Binding) {
	b.SetEnabled(true)
	delete(k.reasons, b)
}

// DisabledReason returns the status line's text for a press of msg when one of bs is
// disabled with a reason and has that key: the binding, what it does and why it is off. It
// is "" otherwise.
func (k *KeyMap) DisabledReason(msg tea.KeyPressMsg, bs ...*key.Binding) string {
	for _, b := range bs {
		r, ok := k.reasons[b]
		if !ok || b.Enabled() || !slices.Contains(b.Keys(), msg.String()) {
			continue
		}
		h := b.Help()
		return h.Key + " (" + h.Desc + ") is off: " + r
	}
	return ""
}

// DisabledKeyCmd shows why a pressed key is off, or is nil when none of bs explains it.
func (k *KeyMap) DisabledKeyCmd(msg tea.KeyPressMsg, bs ...*key.Binding) tea.Cmd {
	if why := k.DisabledReason(msg, bs...); why != "" {
		return StatusCmd(why, false)
	}
	return nil
}
