package common

import (
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/mcpscope/mcpscope/ui/form"
)

// Painter colours text with one style's escape sequences, rendered once: rows are built
// from many short coloured pieces, and a lipgloss render per piece would dominate the cost
// of a row. Text given to Paint must be one line without control characters.
// NewPainter is the one place an escape sequence is pulled out of a style.
type Painter struct{ Pre, Post string }

// NewPainter renders st once around a marker and keeps what comes before and after it
// (both "" when the style draws nothing).
func NewPainter(st lipgloss.Style) Painter {
	r := st.Render("X")
	i := strings.IndexByte(r, 'X')
	if i < 0 {
		return Painter{}
	}
	return Painter{r[:i], r[i+1:]}
}

// Paint colours s; "" stays "".
func (p Painter) Paint(s string) string {
	if s == "" {
		return s
	}
	return p.Pre + s + p.Post
}

// RowPaints are the painters of the row styles of one Styles.
type RowPaints struct {
	Muted, Request, Response, Notification, Err, Accent, Finding, Stderr, Transport, Badge Painter
}

// newRowPaints makes the row painters of s (NewStyles, once per Styles).
func newRowPaints(s *Styles) *RowPaints {
	return &RowPaints{
		Muted: NewPainter(s.Muted), Request: NewPainter(s.Request), Response: NewPainter(s.Response),
		Notification: NewPainter(s.Notification), Err: NewPainter(s.Error), Accent: NewPainter(s.Accent),
		Finding: NewPainter(s.Finding), Stderr: NewPainter(s.Stderr), Transport: NewPainter(s.Transport),
		Badge: NewPainter(s.BadgeFinding),
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
