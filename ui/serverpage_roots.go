package ui

import (
	"fmt"
	"strings"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
)

// rootsOffer is what mcpscope offers a server as roots: whether the session declared the
// roots capability, and the roots roots/list answers with.
type rootsOffer struct {
	known    bool // a live session whose roots mcpscope answers (not a recording or a tap)
	declared bool
	roots    []session.Root
}

// rootsOfferOf is what sess declares and a answers with.
func rootsOfferOf(sess *session.Session, a *Asker) rootsOffer {
	if sess == nil || a == nil {
		return rootsOffer{}
	}
	return rootsOffer{known: true, declared: sess.Caps().Roots, roots: a.Roots()}
}

// SetRoots shows what mcpscope offers as roots.
func (p *ServerPage) SetRoots(o rootsOffer) {
	p.roots = o
	p.changed = true
}

// rootsOfferText says in words what is offered: the first line for the server page and the
// roots editor, the second what the user can do about it.
func rootsOfferText(o rootsOffer) (state, hint string) {
	switch {
	case !o.declared && len(o.roots) == 0:
		return "not declared: the server uses the directories its own command line names",
			"--root DIR, or ctrl+o to add one and R to restart, declares roots"
	case !o.declared:
		return fmt.Sprintf("not declared in this session; %d root(s) ready for the next one", len(o.roots)),
			"R restarts the server with roots declared"
	case len(o.roots) == 0:
		return "declared; roots/list answers [] (no roots)", "a server may take [] as \"no directories\""
	}
	return fmt.Sprintf("declared; roots/list answers %d root(s)", len(o.roots)), ""
}

// rootsLines is the server page's section about the roots offered; none when the roots are
// not mcpscope's to answer.
func rootsLines(s *Styles, o rootsOffer, w int) []string {
	if !o.known {
		return nil
	}
	const pad2 = "   "
	state, hint := rootsOfferText(o)
	out := []string{" " + s.PaneTitleFocused.Render("Roots offered")}
	out = append(out, textfmt.Hanging(s.Text, pad2+s.Muted.Render(fmt.Sprintf("%-12s", "roots")), state, w)...)
	for _, r := range o.roots {
		name := r.Name
		if name == "" {
			name = "(no name)"
		}
		out = append(out, textfmt.Hanging(s.Text, pad2+s.Accent.Render("• "), escapeText(name+"  "+r.URI), w)...)
	}
	if hint != "" {
		out = append(out, textfmt.Hanging(s.Muted, pad2+strings.Repeat(" ", 12), hint, w)...)
	}
	return out
}
