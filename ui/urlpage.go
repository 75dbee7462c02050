package ui

import (
	"net/url"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// urlPage is a page a server asks the user to open (URL-mode elicitation, in an
// elicitation/create request or in the error -32042): the server's message and the URL,
// with what the user should check before opening it.
type urlPage struct {
	message string
	raw     string
	domain  string
	https   bool
	oddHost bool // the host has characters outside ASCII (look-alike domains)
}

// newURLPage reads raw; a URL that does not parse has no domain.
func newURLPage(message, raw string) urlPage {
	p := urlPage{message: message, raw: raw}
	if u, err := url.Parse(raw); err == nil {
		p.domain, p.https = u.Hostname(), u.Scheme == "https"
	}
	p.oddHost = strings.IndexFunc(p.domain, func(r rune) bool { return r > 0x7e }) >= 0
	return p
}

// wrapMasked is text masked, escaped and wrapped to width iw, each line styled by st.
func (m *Model) wrapMasked(st func(...string) string, text string, iw int) []string {
	var out []string
	text = m.c.Mask.String(text) // before the wrap, which could cut a secret in two
	for _, l := range strings.Split(text, "\n") {
		for _, part := range strings.Split(ansi.Wrap(escapeText(l), max(1, iw), ""), "\n") {
			out = append(out, st(part))
		}
	}
	return out
}

// urlPageLines are the lines that show p at inner width iw: the message, the domain (red
// when not https), the whole URL, and the warnings.
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
	out = append(out, m.wrapMasked(s.Subtle.Render, "URL     "+p.raw, iw)...)
	if !p.https {
		out = append(out, s.Error.Render("⚠ not https: the page is not encrypted in transit"))
	}
	if p.oddHost {
		out = append(out, s.Error.Render("⚠ the domain has characters outside ASCII: it may imitate another"))
	}
	return out
}
