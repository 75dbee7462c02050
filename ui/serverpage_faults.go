package ui

import (
	"strings"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/fault"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
)

// SetFaultRules shows the fault rules on the wire and their seed: the text of the rules'
// note (fault.RulesNoteKind) the session or the tap published at its start.
func (p *ServerPage) SetFaultRules(text string) {
	if text == p.faults {
		return
	}
	p.faults = text
	p.changed = true
}

// observeFaultRules gives the server page the rules' note of ev, if it is one.
func (m *Model) observeFaultRules(ev *session.Event) {
	if ev.Kind == session.EvTransport && ev.Note == fault.RulesNoteKind {
		m.server.SetFaultRules(ev.Text)
	}
}

// faultRulesLines is the server page's section about the fault rules: the seed, then each
// rule; none when no rule is on the wire.
func faultRulesLines(s *Styles, text string, w int) []string {
	if text == "" {
		return nil
	}
	const pad2 = "   "
	lines := strings.Split(text, "\n")
	out := []string{" " + s.PaneTitleFocused.Render("Fault rules")}
	out = append(out, textfmt.Hanging(s.Text, pad2+s.Muted.Render("seed        "), escapeText(lines[0]), w)...)
	for _, l := range lines[1:] {
		out = append(out, textfmt.Hanging(s.Text, pad2+s.Accent.Render("• "), escapeText(l), w)...)
	}
	return out
}
