package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
)

// maxFooterLines bounds how many lines a wrapped help line takes from the body.
const maxFooterLines = 3

// wrapsFooter reports whether the help line wraps instead of being cut: while a form has
// the keys (the explorer's call form, the composer's tool form), whose keys all matter
// (add and delete an item, move it) and do not fit one line at 80 columns.
func (m *Model) wrapsFooter() bool {
	if m.status.Text != "" {
		return false // a status message has the footer's one line
	}
	if c, ok := m.topDialog().(*composer); ok {
		return c.form != nil
	}
	return m.topDialog() == nil && m.page == pageExplorer && m.explorer.FormOpen()
}

// footerLines is the help line's bindings packed into lines of w cells, at most
// maxFooterLines (the last one cut), or nil when the footer does not wrap.
func (m *Model) footerLines(w int) []string {
	if !m.wrapsFooter() {
		return nil
	}
	sep := m.help.Styles.ShortSeparator.Render(m.help.ShortSeparator)
	var out []string
	cur := ""
	for _, b := range m.shortKeys() {
		if !b.Enabled() {
			continue
		}
		item := m.help.ShortHelpView([]key.Binding{b})
		switch {
		case cur == "":
			cur = item
		case ansi.StringWidth(cur+sep+item) <= w:
			cur += sep + item
		default:
			out = append(out, cur)
			cur = item
		}
	}
	if cur != "" {
		out = append(out, cur)
	}
	if len(out) > maxFooterLines {
		out = out[:maxFooterLines]
	}
	for i, l := range out {
		out[i] = textfmt.FitRow(l, w)
	}
	return out
}

// fitFooter gives the footer the lines its help needs, taking them from the body.
func (m *Model) fitFooter(l Layout) Layout {
	n := len(m.footerLines(l.Footer.W))
	if n <= 1 || l.Body.H-(n-1) < 3 {
		return l
	}
	d := n - 1
	l.Body.H -= d
	l.Footer.Y -= d
	l.Footer.H = n
	if l.Timeline.H > 0 {
		l.Timeline.H -= d
	}
	if l.Detail.H > 0 {
		l.Detail.H -= d
	}
	return l
}

// refitFooter lays the screen out again when the footer's height changed (the keys of a
// form change with its focus).
func (m *Model) refitFooter() {
	if m.c.Width == 0 {
		return
	}
	want := max(1, len(m.footerLines(m.layout.Footer.W)))
	if want == m.layout.Footer.H || want > 1 && m.layout.Body.H+m.layout.Footer.H-want < 3 {
		return
	}
	m.relayout()
}

// wrappedFooter is the footer's lines while it wraps, or "" when it does not.
func (m *Model) wrappedFooter() string {
	if m.layout.Footer.H <= 1 {
		return ""
	}
	ls := m.footerLines(m.layout.Footer.W)
	for len(ls) < m.layout.Footer.H {
		ls = append(ls, strings.Repeat(" ", m.layout.Footer.W))
	}
	return strings.Join(ls[:m.layout.Footer.H], "\n")
}
