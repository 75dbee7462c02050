package ui

import (
	"net/url"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/session/browser"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
)

// urlPage is a page a server asks the user to open (URL-mode elicitation, in an
// elicitation/create request or in the error -32042): the server's message and the URL,
// with what the user should check before opening it.
type urlPage struct {
	message string
	raw     string
	domain  string
	https   bool
	oddHost bool   // the host has characters outside ASCII (look-alike domains)
	refused string // why mcpscope will not open it (browser.Check); "" when it may
}

// newURLPage reads raw; a URL that does not parse has no domain.
func newURLPage(message, raw string) urlPage {
	p := urlPage{message: message, raw: raw}
	if u, err := url.Parse(raw); err == nil {
		p.domain, p.https = u.Hostname(), u.Scheme == "https"
	}
	p.oddHost = strings.IndexFunc(p.domain, func(r rune) bool { return r > 0x7e }) >= 0
	if err := browser.Check(raw); err != nil {
		p.refused = err.Error()
	}
	return p
}

// wrapMasked is text masked, escaped and wrapped to width iw, each line styled by st.
func (m *Model) wrapMasked(st func(...string) string, text string, iw int) []string {
	var out []string
	text = m.c.Mask.String(text) // before the wrap, which could cut a secret in two
	for _, l := range strings.Split(text, "\n") {
		for _, part := range strings.Split(textfmt.Wrap(escapeText(l), max(1, iw)), "\n") {
			out = append(out, st(part))
		}
	}
	return out
}

// urlPageLines are the lines that show p at inner width iw: the message, the domain (red
// when not https), the whole URL, and the warnings. The URL is drawn so that a terminal
// selection can take it: on a line of its own when it does not fit beside its label, cut at
// exactly iw cells (no indent, no break at a hyphen), and each piece a hyperlink (OSC 8)
// to the whole URL where the terminal supports them. y copies it whole, o opens it.
func (m *Model) urlPageLines(p urlPage, iw int) []string {
	s := m.c.Styles
	out := m.wrapMasked(s.Text.Render, p.message, iw)
	out = append(out, "")
	domain := p.domain
	if domain == "" {
		domain = "(no host)"
	}
	domStyle := s.Match
	if !p.https {
		domStyle = s.BadgeError
	}
	out = append(out, s.Muted.Render("Domain  ")+domStyle.Render(escapeText(domain)))
	out = append(out, m.urlLines(p.raw, iw)...)
	if !p.https {
		out = append(out, s.Error.Render("⚠ not https: the page is not encrypted in transit"))
	}
	if p.oddHost {
		out = append(out, s.Error.Render("⚠ the domain has characters outside ASCII: it may imitate another"))
	}
	if p.refused != "" {
		out = append(out, m.wrapMasked(s.Error.Render, "⚠ mcpscope will not open it: "+p.refused, iw)...)
	}
	return out
}

// urlLabel is the label before a URL that fits beside it.
const urlLabel = "URL     "

// urlLines draws raw (masked and escaped) at inner width iw: beside its label when it fits,
// else below it in pieces of exactly iw cells, each a hyperlink to raw when raw is shown as
// it is (nothing masked or escaped in it).
func (m *Model) urlLines(raw string, iw int) []string {
	s := m.c.Styles
	shown := escapeText(m.c.Mask.String(raw))
	link := func(piece string) string { return s.Subtle.Render(piece) }
	if shown == raw && safeLinkTarget(raw) {
		link = func(piece string) string {
			return ansi.SetHyperlink(raw, "id=mcpscope-url") + s.Subtle.Render(piece) + ansi.ResetHyperlink()
		}
	}
	iw = max(1, iw)
	if ansi.StringWidth(urlLabel+shown) <= iw {
		return []string{s.Muted.Render(urlLabel) + link(shown)}
	}
	out := []string{s.Muted.Render(urlLabel) + s.Subtle.Render("in full below · "+m.c.Keys.Copy.Help().Key+" copies it")}
	for _, piece := range strings.Split(ansi.Hardwrap(shown, iw, false), "\n") {
		out = append(out, link(piece))
	}
	return out
}

// safeLinkTarget reports whether raw may go into a hyperlink escape as it is: printable
// ASCII only, so nothing in it can end the escape or start another.
func safeLinkTarget(raw string) bool {
	return raw != "" && strings.IndexFunc(raw, func(r rune) bool { return r <= ' ' || r >= 0x7f }) < 0
}

// urlCopyBinding is the key that copies a page's URL in the URL dialogs.
func urlCopyBinding(k *KeyMap) key.Binding {
	b := k.Copy
	b.SetHelp(b.Help().Key, "copy URL")
	return b
}

// copyURLCmd copies raw to the clipboard, as the copy key does elsewhere.
func copyURLCmd(raw string) tea.Cmd {
	return func() tea.Msg { return clipboardMsg([]byte(raw), " (the URL)") }
}

// askURLKeys are the bindings of a URL-mode elicitation/create dialog.
func askURLKeys(k *KeyMap) []key.Binding {
	open, accept := k.Act.OpenURL, k.Act.Send
	open.SetHelp(open.Help().Key, "open in browser")
	accept.SetHelp("enter/"+accept.Help().Key, "accept")
	cancel := k.Act.Dismiss
	cancel.SetHelp(cancel.Help().Key, "cancel")
	return []key.Binding{open, urlCopyBinding(k), accept, k.Act.Decline, cancel}
}

// bindingsHelp is "key desc" of each enabled binding, for a dialog's own help line.
func bindingsHelp(bs []key.Binding) []string {
	var out []string
	for _, b := range bs {
		if b.Enabled() {
			out = append(out, b.Help().Key+" "+b.Help().Desc)
		}
	}
	return out
}
