package fault

import (
	"strings"
	"unicode/utf8"

	"github.com/mcpscope/mcpscope/protocol"
)

// shownBytes bounds each message quoted in a fault's description.
const shownBytes = 4096

// The lines of a fault's note after its summary.
const (
	lineOriginalIn  = "original (in): "
	lineOriginalOut = "original (out): "
	lineDelivered   = "delivered: "
	lineAnswer      = "answered by mcpscope: "
)

// Describe is a fault's note: its summary on the first line, then the message as it came
// and what was passed on instead (each cut to its first 4 KiB, on one line), and the answer
// mcpscope made, if any. ParseNote reads it back.
func Describe(a *Applied) string {
	var b strings.Builder
	b.WriteString(a.Summary())
	if a.Dir == protocol.ServerToClient {
		b.WriteString("\n" + lineOriginalIn)
	} else {
		b.WriteString("\n" + lineOriginalOut)
	}
	b.WriteString(shown(a.Original))
	switch {
	case a.Held:
		b.WriteString("\n" + lineDelivered + "later, after the next matching message")
	case len(a.Delivered) == 0:
		b.WriteString("\n" + lineDelivered + "nothing")
	}
	for _, d := range a.Delivered {
		b.WriteString("\n" + lineDelivered)
		b.WriteString(shown(d))
	}
	if a.Answer != nil {
		b.WriteString("\n" + lineAnswer)
		b.WriteString(shown(a.Answer))
	}
	return b.String()
}

// Note is a fault's note read back: what the timeline needs to mark the message it
// concerns.
type Note struct {
	Summary   string
	Dir       protocol.Direction
	Original  string
	Delivered []string
}

// maxNote bounds the text ParseNote reads: a note Describe wrote is shorter (a summary
// and at most a few messages of shownBytes, each a line).
const maxNote = 16 * shownBytes

// ParseNote reads a note Describe wrote; false when text is not one. Bounded: it reads at
// most maxNote bytes of text.
func ParseNote(text string) (Note, bool) {
	if len(text) > maxNote {
		text = text[:maxNote]
	}
	lines := strings.Split(text, "\n")
	if len(lines) < 2 {
		return Note{}, false
	}
	n := Note{Summary: lines[0]}
	for _, l := range lines[1:] {
		switch {
		case strings.HasPrefix(l, lineOriginalIn):
			n.Dir, n.Original = protocol.ServerToClient, l[len(lineOriginalIn):]
		case strings.HasPrefix(l, lineOriginalOut):
			n.Dir, n.Original = protocol.ClientToServer, l[len(lineOriginalOut):]
		case strings.HasPrefix(l, lineDelivered):
			n.Delivered = append(n.Delivered, l[len(lineDelivered):])
		}
	}
	return n, n.Dir != 0
}

// Concerns reports whether raw is the message the note is about: the one that came, or
// one passed on in its place. Bounded: it compares at most 4 KiB.
func (n Note) Concerns(raw []byte) bool {
	s := shown(raw[:min(len(raw), shownBytes+utf8.UTFMax)])
	if s == n.Original {
		return true
	}
	for _, d := range n.Delivered {
		if s == d {
			return true
		}
	}
	return false
}

// shown is b as one line of text, cut to shownBytes on a character boundary: line breaks
// (white space between JSON tokens) become spaces.
func shown(b []byte) string {
	cut := len(b)
	if cut > shownBytes {
		cut = shownBytes
		for cut > 0 && !utf8.RuneStart(b[cut]) {
			cut--
		}
	}
	s := strings.NewReplacer("\r", " ", "\n", " ").Replace(string(b[:cut]))
	if cut < len(b) {
		s += "…"
	}
	return s
}
