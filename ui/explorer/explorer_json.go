package explorer

import (
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/ui/internal/jsonview"
)

// StyledJSONLines renders raw as indented, coloured JSON lines no wider than w cells, each with
// prefix in front. Lines too long to fit continue on the next line, two cells further in.
// Text that is not JSON is shown as it is, escaped.
func StyledJSONLines(s *Styles, raw []byte, prefix string, w int) []string {
	avail := max(8, w-ansi.StringWidth(prefix))
	var out []string
	for _, line := range jsonview.Pretty(s.JSON(), raw, jsonview.Options{}).Lines {
		for _, l := range jsonview.WrapIndented(line, avail) {
			out = append(out, prefix+l)
		}
	}
	return out
}

// jsonHeadLines renders the head of a JSON value, cut anywhere, as StyledJSONLines does a
// whole one: the one-pass colorizer re-indents what it has, up to twice its size (deep
// nesting would otherwise make the indentation grow with the square of the depth).
func jsonHeadLines(s *Styles, head []byte, prefix string, w int) []string {
	avail := max(8, w-ansi.StringWidth(prefix))
	var out []string
	lim := jsonview.Limit{Bytes: 2*len(head) + 1024}
	for _, line := range jsonview.Colorize(s.JSON(), head, jsonview.Options{Indent: true, Limit: lim}).Lines {
		for _, l := range jsonview.WrapIndented(line, avail) {
			out = append(out, prefix+l)
		}
	}
	return out
}
