package ui

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/ui/internal/jsonview"
)

// styledJSONLines renders raw as indented, coloured JSON lines no wider than w cells, each with
// prefix in front. Lines too long to fit continue on the next line, two cells further in.
// Text that is not JSON is shown as it is, escaped.
func styledJSONLines(s *Styles, raw []byte, prefix string, w int) []string {
	avail := max(8, w-ansi.StringWidth(prefix))
	var out []string
	for _, line := range jsonview.Pretty(s.JSON(), raw, jsonview.Options{}).Lines {
		for _, l := range jsonview.WrapIndented(line, avail) {
			out = append(out, prefix+l)
		}
	}
	return out
}

// wrapProse word-wraps plain prose to w cells, keeping its own line breaks, and styles each
// line with st.
func wrapProse(st lipgloss.Style, text, prefix string, w int) []string {
	avail := max(8, w-ansi.StringWidth(prefix))
	var out []string
	for para := range strings.SplitSeq(strings.TrimRight(text, "\n"), "\n") {
		para = strings.TrimRight(para, " \t\r")
		if para == "" {
			out = append(out, "")
			continue
		}
		for l := range strings.SplitSeq(ansi.Wrap(para, avail, ""), "\n") {
			out = append(out, prefix+st.Render(l))
		}
	}
	return out
}
