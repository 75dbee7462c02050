package ui

import (
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/mcpscope/mcpscope/ui/form"
)

// painter colours text with one style's escape sequences, rendered once: rows are built
// from many short coloured pieces, and a lipgloss render per piece would dominate the cost
// of a row. Text given to paint must be one line without control characters (cleanText).
// newPainter is the one place an escape sequence is pulled out of a style.
type painter struct{ pre, post string }

// newPainter renders st once around a marker and keeps what comes before and after it
// (both "" when the style draws nothing).
func newPainter(st lipgloss.Style) painter {
	r := st.Render("X")
	i := strings.IndexByte(r, 'X')
	if i < 0 {
		return painter{}
	}
	return painter{r[:i], r[i+1:]}
}

func (p painter) paint(s string) string {
	if s == "" {
		return s
	}
	return p.pre + s + p.post
}

// rowPaints are the painters of the row styles of one Styles.
type rowPaints struct {
	muted, request, response, notification, err, accent, finding, stderr, transport, badge painter
}

// newRowPaints makes the row painters of s (NewStyles, once per Styles).
func newRowPaints(s *Styles) *rowPaints {
	return &rowPaints{
		muted: newPainter(s.Muted), request: newPainter(s.Request), response: newPainter(s.Response),
		notification: newPainter(s.Notification), err: newPainter(s.Error), accent: newPainter(s.Accent),
		finding: newPainter(s.Finding), stderr: newPainter(s.Stderr), transport: newPainter(s.Transport),
		badge: newPainter(s.BadgeFinding),
	}
}

// newFormStyles are the form's styles in mcpscope's palette (NewStyles, once per Styles).
func newFormStyles(s *Styles) *form.Styles {
	return &form.Styles{
		Label: s.Bold, Required: s.Error, Value: s.Text, Placeholder: s.Muted, Hint: s.Muted,
		Help: s.Subtle.Italic(true), Error: s.Error, OK: s.Response, Marked: s.Finding,
		Cursor: s.Accent.Bold(true), Choice: s.Text, ChoiceActive: s.Accent.Bold(true),
		Button: s.Subtle, ButtonFocused: s.Accent.Bold(true).Reverse(true), Title: s.Bold,
		Dialog: s.Finding.Bold(true),
	}
}
