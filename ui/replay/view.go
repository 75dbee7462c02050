package replay

import (
	"fmt"
	"path/filepath"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session/secret"
	"github.com/mcpscope/mcpscope/ui"
	"github.com/mcpscope/mcpscope/ui/internal/jsonview"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
)

// diffsShown is how many differences are listed above the responses.
const diffsShown = 3

// layout places the report's parts; a pure function of the size and the content's
// counts.
type layout struct {
	w, h     int
	listRows int  // request rows (under the list's header)
	respH    int  // response lines
	wide     bool // the responses side by side
	colW     int  // width of one response column
}

// computeLayout lays out a w×h report of results requests whose selected one lists
// diffLines lines of differences: the status bar, the list (a third of the body at most),
// the selected request's line and differences, the responses' title and lines, the help.
func computeLayout(w, h, results, diffLines int) layout {
	body := max(0, h-2)
	l := layout{w: w, h: h, wide: w >= sideBySideWidth, colW: w}
	l.listRows = min(results, max(3, (body-1)/3))
	l.respH = max(0, body-1-l.listRows-2-diffLines)
	if l.wide {
		l.colW = (w - 1) / 2
	}
	return l
}

// View renders the screen.
func (m *Model) View() tea.View {
	v := tea.NewView(m.c.Mask.Values(m.Render()))
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "mcpscope replay " + filepath.Base(m.opts.Transcript.Path)
	return v
}

// Render is the screen as a string.
func (m *Model) Render() string {
	w, h := m.c.Width, m.c.Height
	if w == 0 || h == 0 {
		return "starting mcpscope…"
	}
	var body []string
	switch {
	case m.showHelp:
		body = m.helpLines()
	case !m.done:
		body = []string{"", m.c.Styles.Muted.Render("  replaying " + filepath.Base(m.opts.Transcript.Path) + " against " + m.opts.Target + "…")}
		if p := Progress(m.at.done, m.at.total); p != "" {
			body = append(body, "", "  "+m.c.Styles.Text.Render(p))
		}
	case m.err != nil:
		body = append([]string{"", m.c.Styles.Error.Render("  The replay could not run:"), ""}, textfmt.WrapProse(m.c.Styles.Text, m.err.Error(), "  ", w)...)
	default:
		body = m.reportLines()
	}
	body = strings.Split(textfmt.FitBlock(strings.Join(body, "\n"), w, max(0, h-2)), "\n")
	return strings.Join(append(append([]string{m.statusLine()}, body...), m.footerLine()), "\n")
}

// statusLine names the recording and the server, and sums the outcome up.
func (m *Model) statusLine() string {
	s, w := m.c.Styles, m.c.Width
	left := s.StatusWarn.Render(" replay "+filepath.Base(m.opts.Transcript.Path)) + s.StatusKey.Render("  against ") + s.StatusValue.Render(m.opts.Target)
	var right string
	switch {
	case !m.done:
		right = s.StatusWarn.Render("replaying…")
	case m.err != nil:
		right = s.StatusBad.Render("failed")
	case m.rep.Same():
		right = s.StatusOK.Render(Summary(m.rep))
	default:
		right = s.StatusBad.Render(Summary(m.rep))
	}
	rw := ansi.StringWidth(right)
	if lw := w - rw - 2; lw < ansi.StringWidth(left) {
		left = textfmt.Clip(left, max(lw, min(w, 12)))
	}
	return s.StatusBar.Render(textfmt.Pad(textfmt.FitRow(left+s.StatusKey.Render("  ")+right, w), w))
}

// footerLine is the help line.
func (m *Model) footerLine() string {
	k := m.keys
	keys := []key.Binding{k.Up, k.Down, k.Focus, k.PageDown, k.Side, k.NextDiff, k.Help, k.Quit}
	m.help.Styles = m.c.Styles.Footer
	return textfmt.FitRow(m.help.ShortHelpView(keys), m.c.Width)
}

// reportLines are the list of requests and the selected one's responses.
func (m *Model) reportLines() []string {
	s, l := m.c.Styles, m.lay
	res := m.rep.Results
	mw := len("METHOD")
	for _, r := range res {
		mw = max(mw, ansi.StringWidth(shownTarget(r)))
	}
	mw = min(mw, max(8, l.w-32))
	title := s.PaneTitle
	if !m.focusResp {
		title = s.PaneTitleFocused
	}
	out := []string{title.Render(textfmt.FitRow(fmt.Sprintf("   #  %-*s  %-9s  %s", mw, "METHOD", "STATUS", "DIFFERENCES"), l.w))}
	for i := m.off; i < min(len(res), m.off+l.listRows); i++ {
		r := res[i]
		cursor := " "
		if i == m.cur {
			cursor = "▶"
		}
		row := fmt.Sprintf("%s%3d  ", cursor, r.N) + textfmt.Pad(textfmt.Clip(shownTarget(r), mw), mw) + "  " + m.statusStyle(r.Status).Render(fmt.Sprintf("%-9s", r.Status)) +
			fmt.Sprintf("  %d", len(r.Differences))
		row = textfmt.Pad(textfmt.FitRow(row, l.w), l.w)
		if i == m.cur {
			row = s.SelectRow(row)
		}
		out = append(out, row)
	}
	if len(res) == 0 {
		return append(out, s.Muted.Render("  the recording has no requests to replay"))
	}
	r := res[m.cur]
	out = append(out, s.Bold.Render(textfmt.FitRow(fmt.Sprintf("#%d %s: %s, %s", r.N, shownTarget(r), r.Status, textfmt.Plural(len(r.Differences), "difference")), l.w)))
	out = append(out, diffBlock(s, m.c.Mask, r, l.w)...)
	return append(out, m.responseLines()...)
}

// diffLineMax bounds the lines one difference (or the error) wraps to.
const diffLineMax = 6

// diffBlock is the selected request's error and first differences, each wrapped to w cells
// under a hanging indent (at most diffLineMax lines each), and how many more there are.
func diffBlock(s *ui.Styles, mask *secret.Masker, r recordings.Result, w int) []string {
	var out []string
	wrap := func(st lipgloss.Style, text string) {
		text = mask.String(text) // before the wrap, which could cut a secret in two
		avail := max(8, w-4)
		ls := strings.Split(textfmt.Wrap(text, avail), "\n")
		if len(ls) > diffLineMax {
			ls = append(ls[:diffLineMax-1], textfmt.Clip(strings.Join(ls[diffLineMax-1:], ""), avail-1)+"…")
		}
		for i, l := range ls {
			prefix := "    "
			if i == 0 {
				prefix = "  "
			}
			out = append(out, st.Render(textfmt.FitRow(prefix+l, w)))
		}
	}
	if r.Error != "" {
		wrap(s.Error, r.Error)
	}
	for i, d := range r.Differences {
		if i == diffsShown {
			out = append(out, s.Muted.Render(fmt.Sprintf("  … %d more", len(r.Differences)-i)))
			break
		}
		wrap(s.Finding, d.String())
	}
	return out
}

// statusStyle colours a request's status.
func (m *Model) statusStyle(status string) lipgloss.Style {
	s := m.c.Styles
	switch status {
	case recordings.StatusSame:
		return s.Response
	case recordings.StatusCancelled:
		return s.Muted
	case recordings.StatusDifferent, recordings.StatusError:
		return s.BadgeError
	}
	return s.BadgeFinding
}

// responseLines are the responses' title and their visible lines: side by side, or the one
// chosen with Side.
func (m *Model) responseLines() []string {
	s, l := m.c.Styles, m.lay
	title := s.PaneTitle
	if m.focusResp {
		title = s.PaneTitleFocused
	}
	rec, live := m.lines()
	var out []string
	if l.wide {
		sep := s.Subtle.Render("│")
		out = append(out, title.Render(textfmt.Pad("recorded response", l.colW))+sep+title.Render("live response"))
		for i := m.scroll; i < m.scroll+l.respH; i++ {
			out = append(out, m.responseCell(rec, i, l.colW)+sep+m.responseCell(live, i, l.w-l.colW-1))
		}
		return out
	}
	name, other, lines := "recorded response", "live", rec
	if m.live {
		name, other, lines = "live response", "recorded", live
	}
	out = append(out, title.Render(name)+s.Muted.Render(fmt.Sprintf("  (%s: %s)", m.keys.Side.Help().Key, other)))
	for i := m.scroll; i < min(len(lines), m.scroll+l.respH); i++ {
		out = append(out, m.responseCell(lines, i, l.w))
	}
	return out
}

// responseCell is line i of a response in w cells: a mark and the line, in the JSON colours,
// marked lines in the finding style.
func (m *Model) responseCell(lines []rline, i, w int) string {
	s := m.c.Styles
	if i >= len(lines) || w <= 0 {
		return strings.Repeat(" ", max(0, w))
	}
	r := lines[i]
	if r.mark {
		return s.BadgeError.Render("▌") + s.BadgeFinding.Render(textfmt.Pad(textfmt.FitRow(r.text, w-1), w-1))
	}
	return " " + textfmt.Pad(textfmt.FitRow(r.styled, w-1), w-1)
}

// helpLines are the report's keys, by topic.
func (m *Model) helpLines() []string {
	s := m.c.Styles
	out := []string{s.Bold.Render("replay report keys") + s.Muted.Render("  (? or esc closes)"), ""}
	for _, g := range m.keys.Groups() {
		out = append(out, s.PaneTitleFocused.Render(g.Title))
		for _, kb := range g.Bindings {
			if kb.Enabled() {
				out = append(out, "  "+s.HelpKey.Render(textfmt.Pad(kb.Help().Key, 12))+s.HelpDesc.Render(kb.Help().Desc))
			}
		}
		out = append(out, "")
	}
	return out
}

// shownTarget is MethodTarget as the report's screen shows it, the escapes set apart
// (jsonview.Visible).
func shownTarget(r recordings.Result) string {
	if r.Target == "" {
		return r.Method
	}
	return r.Method + " " + jsonview.Visible(r.Target)
}

// MethodTarget is a result's method and, for a call, read or prompt, what it acted on:
// "tools/call add", as the report's table and the CLI's printed table show it.
func MethodTarget(r recordings.Result) string {
	if r.Target == "" {
		return r.Method
	}
	return r.Method + " " + jsonview.EscapeText(r.Target)
}
