package ui

import (
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/ui/form"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
)

// View renders the whole screen.
func (m *Model) View() tea.View {
	defer m.maskPanic()
	v := tea.NewView(m.Render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = m.c.Mask.String("mcpscope " + m.opts.Target)
	return v
}

// Render is the screen as a string (View wraps it; tests and benchmarks call it directly).
// A secret the command line gave is masked wherever it would show (a server may echo it).
func (m *Model) Render() string {
	if m.c.Width == 0 || m.c.Height == 0 {
		return "starting mcpscope…"
	}
	scr := Screen{Layout: m.layout, Body: m.body(), Footer: m.footer()}
	m.drawDialogs(&scr)
	parts := []string{m.statusView(m.layout.Status.W), scr.Body, scr.Footer}
	return m.c.Mask.Values(strings.Join(parts, "\n"))
}

func (m *Model) footer() string {
	w := m.layout.Footer.W
	s := m.c.Styles
	if m.status.Text != "" {
		st := s.Muted
		if m.status.Error {
			st = s.Error
		}
		return textfmt.FitRow(st.Render(escapeText(m.status.Text)), w) // it may quote the server
	}
	prefix := ""
	if v := m.filter.Value(); v != "" {
		prefix = s.Accent.Render(textfmt.Clip("/"+v, max(24, w/2))) + "  "
		if q := m.timeline.Query(); q.Err != "" {
			prefix += s.Finding.Render(q.Err) + "  "
		}
	}
	if f := m.wrappedFooter(); f != "" {
		return f
	}
	return textfmt.FitRow(prefix+m.help.ShortHelpView(m.shortKeys()), w)
}

// shortKeys are the bindings of the help line for the focused pane.
func (m *Model) shortKeys() []key.Binding {
	if ks := m.dialogKeys(); ks != nil {
		return ks
	}
	return pages[m.page].keys(m)
}

// helpColW is the width of a column of the full help.
const helpColW = 46

// recordingHelp is the help's block naming the live recording, its path cut into pieces
// of at most w cells so that it fits a column: after a slash where one is near enough, so
// the file name stays whole, else within a name; wide characters count two cells.
func recordingHelp(s *Styles, path string, w int) []string {
	const title = "Recording  "
	if ansi.StringWidth(title+path) <= w+2 { // one line where it fits
		return []string{s.PaneTitleFocused.Render(strings.TrimSpace(title)) + "  " + s.Text.Render(path), ""}
	}
	lines := []string{s.PaneTitleFocused.Render("Recording")}
	for _, part := range cutPath(path, w) {
		lines = append(lines, "  "+s.Text.Render(part))
	}
	return append(lines, "")
}

// cutPath cuts path into pieces of at most w cells (w at least 2), each ending after a slash
// when the piece holds one, pieces joined giving path back.
func cutPath(path string, w int) []string {
	w = max(2, w)
	var out []string
	for path != "" {
		if ansi.StringWidth(path) <= w {
			return append(out, path)
		}
		n, cells := 0, 0 // bytes and cells of the longest prefix that fits
		for n < len(path) {
			_, size := utf8.DecodeRuneInString(path[n:])
			rw := ansi.StringWidth(path[n : n+size])
			if cells+rw > w {
				break
			}
			n, cells = n+size, cells+rw
		}
		if n == 0 { // a rune wider than w: alone on its line
			_, n = utf8.DecodeRuneInString(path)
		}
		if slash := strings.LastIndexByte(path[:n], '/'); slash > 0 {
			n = slash + 1
		}
		out = append(out, path[:n])
		path = path[n:]
	}
	return out
}

// fullHelp is the full help from the help dialog's offset; it records how many lines the
// help has in h.
func (m *Model) fullHelp(h *helpDialog) string {
	s := m.c.Styles
	var blocks [][]string
	for _, g := range m.c.Keys.Groups() {
		lines := []string{s.PaneTitleFocused.Render(g.Title)}
		for _, kb := range g.Bindings {
			if !kb.Enabled() {
				continue
			}
			h := kb.Help()
			lines = append(lines, "  "+s.HelpKey.Render(textfmt.Pad(h.Key, 12))+s.HelpDesc.Render(h.Desc))
		}
		if len(lines) == 1 {
			continue // every binding of the group is off here
		}
		blocks = append(blocks, append(lines, ""))
	}
	blocks = append(blocks, formHelp(s))
	blocks = append(blocks, filterHelp(s))
	// Groups flow into as many columns as the width allows.
	cols := max(1, m.layout.Body.W/helpColW)
	colW := max(helpColW, m.layout.Body.W/cols) // the room left over widens every column
	var columns [][]string
	per := 0
	for _, bl := range blocks {
		per += len(bl)
	}
	per = (per + cols - 1) / cols
	cur := []string{}
	for _, bl := range blocks {
		if len(cur) > 0 && len(cur)+len(bl) > per && len(columns) < cols-1 {
			columns = append(columns, cur)
			cur = []string{}
		}
		cur = append(cur, bl...)
	}
	columns = append(columns, cur)
	height := 0
	for _, c := range columns {
		height = max(height, len(c))
	}
	out := []string{s.Bold.Render("mcpscope keys") + s.Muted.Render("  (? or esc closes; ↑/↓ scroll)"), ""}
	if m.opts.Recorder != nil {
		// On top, at the whole width: the path is what a user comes to the help to copy,
		// and at the foot of a column the screen's last line cut it.
		out = append(out, recordingHelp(s, m.opts.Recorder.Path, m.layout.Body.W-3)...)
	}
	for r := 0; r < height; r++ {
		var line strings.Builder
		for ci, c := range columns {
			cell := ""
			if r < len(c) {
				cell = c[r]
			}
			if ci < len(columns)-1 {
				cell = textfmt.Pad(textfmt.Clip(cell, colW-1), colW)
			}
			line.WriteString(cell)
		}
		out = append(out, line.String())
	}
	h.lines = len(out)
	off := min(h.offset, max(0, len(out)-m.layout.Body.H))
	return strings.Join(out[off:], "\n")
}

// joinColumns puts two blocks side by side, line by line. The left block's lines are all
// the same width already (panes render exactly their size), so nothing is measured: this is
// lipgloss.JoinHorizontal without a width scan of every line on every frame. The right
// block is cut or padded with blank lines of rightW cells to h lines.
func joinColumns(left, right string, rightW, h int) string {
	var b strings.Builder
	b.Grow(len(left) + len(right) + h)
	blank := strings.Repeat(" ", rightW)
	for i := range h {
		var l, r string
		l, left, _ = strings.Cut(left, "\n")
		if right != "" || i == 0 {
			r, right, _ = strings.Cut(right, "\n")
		} else {
			r = blank
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l)
		b.WriteString(r)
	}
	return b.String()
}

// formHelp is the help's block of the form's own keys (package form): on a field that
// takes text every printable key is text, so its actions are ctrl keys, listed here as in
// README's key table.
func formHelp(s *Styles) []string {
	lines := []string{s.PaneTitleFocused.Render("Form")}
	for _, row := range form.DefaultKeyMap().FullHelp() {
		for _, kb := range row {
			h := kb.Help()
			lines = append(lines, "  "+s.HelpKey.Render(textfmt.Pad(h.Key, 12))+s.HelpDesc.Render(h.Desc))
		}
	}
	return append(lines, "")
}
