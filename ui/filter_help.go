package ui

import (
	"github.com/mcpscope/mcpscope/protocol/query"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
)

// filterHelp is the filter's block on the help screen, made from the filter's table
// (query.Fields) like README's filter section, so help cannot drift from the parser.
func filterHelp(s *Styles) []string {
	lines := []string{s.PaneTitleFocused.Render("Filter")}
	for _, l := range query.HelpLines(helpColW - 14) {
		lines = append(lines, "  "+s.HelpKey.Render(textfmt.Pad(l.Term, 12))+s.HelpDesc.Render(l.Desc))
	}
	return append(lines, "")
}
