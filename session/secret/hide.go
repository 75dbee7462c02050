package secret

import (
	"fmt"
	"strings"
)

// Hidden is a text masked for editing: the text with its secrets as the mask, and what
// each mask stands for, so that the edited text can have them back (Reveal). A person edits
// a held message without its secrets ever being drawn, wrapped or not.
type Hidden struct {
	text    string
	secrets []string // per mask in text, in order: what it stands for ("" for a mask that was in the text)
	hidden  int      // masks that stand for a secret
}

// Hide masks s as String does, remembering what each mask stands for. When the masks
// cannot be told apart from asterisks the text already had, s is masked all the same and
// Reveal refuses every edit that keeps a mask.
func (m *Masker) Hide(s string) Hidden {
	if m.Off() || s == "" {
		return Hidden{text: s, secrets: make([]string, strings.Count(s, Mask))}
	}
	spans := merge(m.newScan(s).spans(s, 0, nil))
	h := Hidden{text: apply(s, spans)}
	at := 0
	for _, sp := range spans {
		h.secrets = append(h.secrets, make([]string, strings.Count(s[at:sp.lo], Mask))...)
		h.secrets = append(h.secrets, s[sp.lo:sp.hi])
		h.hidden++
		at = sp.hi
	}
	h.secrets = append(h.secrets, make([]string, strings.Count(s[at:], Mask))...)
	if strings.Count(h.text, Mask) != len(h.secrets) {
		h.secrets = nil // asterisks next to a mask: the masks cannot be counted
	}
	return h
}

// Text is the masked text.
func (h Hidden) Text() string { return h.text }

// Secrets is how many masks of the text stand for a secret.
func (h Hidden) Secrets() int { return h.hidden }

// Reveal is edited with each mask that stood for a secret replaced by it again. The masks
// are matched in order, so an edit must keep them all: one removed, added or made
// ambiguous is an error (the text can still be sent as typed, with the mask).
func (h Hidden) Reveal(edited string) (string, error) {
	if h.hidden == 0 {
		return edited, nil
	}
	n := strings.Count(edited, Mask)
	if h.secrets == nil || n != len(h.secrets) {
		return edited, fmt.Errorf("the text had %d masked secrets (%s), it now has %d masks: they cannot be put back", h.hidden, Mask, n)
	}
	var b strings.Builder
	at := 0
	for _, sec := range h.secrets {
		i := at + strings.Index(edited[at:], Mask)
		b.WriteString(edited[at:i])
		if sec == "" {
			b.WriteString(Mask)
		} else {
			b.WriteString(sec)
		}
		at = i + len(Mask)
	}
	b.WriteString(edited[at:])
	return b.String(), nil
}
