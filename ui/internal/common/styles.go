package common

import (
	"image/color"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/lipgloss/v2"

	"github.com/mcpscope/mcpscope/ui/form"
	"github.com/mcpscope/mcpscope/ui/internal/jsonview"
)

// Palette is the semantic colour set; every style derives from it.
type Palette struct {
	Request, Response, Notification, Error, Finding, Muted, Accent, Text, Subtle, Selected, Stderr, Transport, Border color.Color
	// Hint is the footer's key descriptions: muted, yet readable on the terminal's background.
	Hint color.Color
}

// NewPalette picks colours that read well on a dark or a light background.
func NewPalette(dark bool) Palette {
	ld := lipgloss.LightDark(dark)
	c := lipgloss.Color
	return Palette{
		Request:      ld(c("#005FAF"), c("#5FAFFF")),
		Response:     ld(c("#007A3D"), c("#5FD787")),
		Notification: ld(c("#8700AF"), c("#D787FF")),
		Error:        ld(c("#C00000"), c("#FF5F5F")),
		Finding:      ld(c("#8A6A00"), c("#FFD75F")),
		Muted:        ld(c("#8A8A8A"), c("#767676")),
		Accent:       ld(c("#AF5F00"), c("#FFAF5F")),
		Text:         ld(c("#1C1C1C"), c("#E4E4E4")),
		Subtle:       ld(c("#5F5F5F"), c("#A8A8A8")),
		Selected:     ld(c("#D7E4F5"), c("#303A4A")),
		Stderr:       ld(c("#875F00"), c("#D7AF87")),
		Transport:    ld(c("#008787"), c("#5FD7D7")),
		Border:       ld(c("#BCBCBC"), c("#4E4E4E")),
		Hint:         ld(c("#5F5F5F"), c("#9E9E9E")),
	}
}

// Styles are every style the views use. Views never build styles of their own.
type Styles struct {
	Dark bool
	P    Palette

	Request, Response, Notification, Error, Finding, Muted, Accent, Stderr, Transport lipgloss.Style
	Bold, Subtle, Text                                                                lipgloss.Style
	Selected                                                                          lipgloss.Style

	StatusBar, StatusKey, StatusValue, StatusOK, StatusBad, StatusWarn lipgloss.Style
	PaneTitle, PaneTitleFocused, Border, BorderFocused                 lipgloss.Style
	HelpKey, HelpDesc, HelpSep                                         lipgloss.Style
	Badge, BadgeError, BadgeFinding                                    lipgloss.Style
	Match                                                              lipgloss.Style // characters a filter matched
	Dialog                                                             lipgloss.Style

	JSONKey, JSONString, JSONNumber, JSONBool, JSONNull, JSONPunct lipgloss.Style

	// Footer styles the footer's key hints (bubbles' help line).
	Footer help.Styles

	// What is computed from the styles once, here, for the views that draw many pieces:
	selOn string            // the escape sequence that turns the Selected background on
	json  *jsonview.Palette // the JSON styles as escape sequences
	rows  *RowPaints        // the timeline rows' painters
	forms *form.Styles      // the forms' styles (call forms, elicitation dialogs)
}

// JSON is the palette every JSON view draws with (the one-pass colouriser and chroma's
// highlighter alike): the escape sequences of JSONKey … JSONPunct, and Finding for what
// is escaped or not JSON.
func (s *Styles) JSON() *jsonview.Palette { return s.json }

// Rows are the painters of the row styles, for the views that draw rows from many pieces.
func (s *Styles) Rows() *RowPaints { return s.rows }

// Forms are the forms' styles (call forms, elicitation dialogs) in this palette.
func (s *Styles) Forms() *form.Styles { return s.forms }

// SelectRow highlights a whole styled row with the Selected background: the background is
// turned on again after every reset inside the row, so coloured cells keep it too.
func (s *Styles) SelectRow(row string) string {
	if s.selOn == "" {
		return s.Selected.Render(row)
	}
	for _, reset := range []string{"\x1b[m", "\x1b[0m"} {
		row = strings.ReplaceAll(row, reset, reset+s.selOn)
	}
	return s.selOn + row + "\x1b[m"
}

// NewStyles builds the styles for a dark or light terminal.
func NewStyles(dark bool) *Styles {
	p := NewPalette(dark)
	fg := func(c color.Color) lipgloss.Style { return lipgloss.NewStyle().Foreground(c) }
	s := &Styles{Dark: dark, P: p}
	s.Request, s.Response, s.Notification = fg(p.Request), fg(p.Response), fg(p.Notification)
	s.Error, s.Finding, s.Muted, s.Accent = fg(p.Error), fg(p.Finding), fg(p.Muted), fg(p.Accent)
	s.Stderr, s.Transport = fg(p.Stderr), fg(p.Transport)
	s.Bold = lipgloss.NewStyle().Bold(true)
	s.Subtle, s.Text = fg(p.Subtle), fg(p.Text)
	s.Selected = lipgloss.NewStyle().Background(p.Selected)
	s.selOn = NewPainter(s.Selected).Pre

	s.StatusBar = lipgloss.NewStyle().Background(p.Selected).Foreground(p.Text)
	s.StatusKey = lipgloss.NewStyle().Background(p.Selected).Foreground(p.Subtle)
	s.StatusValue = lipgloss.NewStyle().Background(p.Selected).Foreground(p.Text).Bold(true)
	s.StatusOK = lipgloss.NewStyle().Background(p.Selected).Foreground(p.Response).Bold(true)
	s.StatusBad = lipgloss.NewStyle().Background(p.Selected).Foreground(p.Error).Bold(true)
	s.StatusWarn = lipgloss.NewStyle().Background(p.Selected).Foreground(p.Finding).Bold(true)

	s.PaneTitle = fg(p.Subtle).Bold(true)
	s.PaneTitleFocused = fg(p.Accent).Bold(true)
	s.Border = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(p.Border)
	s.BorderFocused = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(p.Accent)

	s.HelpKey = fg(p.Text).Bold(true)
	s.HelpDesc = fg(p.Hint)
	s.HelpSep = fg(p.Muted)
	s.Footer = help.Styles{ShortKey: s.HelpKey, ShortDesc: s.HelpDesc, ShortSeparator: s.HelpSep, Ellipsis: s.HelpSep,
		FullKey: s.HelpKey, FullDesc: s.HelpDesc, FullSeparator: s.HelpSep}

	s.Badge = fg(p.Muted)
	s.BadgeError = fg(p.Error).Bold(true)
	s.BadgeFinding = fg(p.Finding).Bold(true)
	s.Match = fg(p.Accent).Bold(true).Underline(true)
	s.Dialog = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(p.Accent).Padding(0, 1)

	s.JSONKey, s.JSONString, s.JSONNumber = fg(p.Request), fg(p.Response), fg(p.Accent)
	s.JSONBool, s.JSONNull, s.JSONPunct = fg(p.Notification), fg(p.Muted), fg(p.Subtle)
	sgr := func(st lipgloss.Style) string { return NewPainter(st).Pre }
	s.json = &jsonview.Palette{Key: sgr(s.JSONKey), String: sgr(s.JSONString), Number: sgr(s.JSONNumber),
		Bool: sgr(s.JSONBool), Null: sgr(s.JSONNull), Punct: sgr(s.JSONPunct), Escape: sgr(s.Finding)}
	s.rows = newRowPaints(s)
	s.forms = newFormStyles(s)
	return s
}
