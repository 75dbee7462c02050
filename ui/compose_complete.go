package ui

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
)

// composeMethods are the methods a client sends in rev, for the composer to complete:
// requests first, then notifications, each in catalog order. An unknown revision (no
// handshake yet) offers the methods of every revision.
func composeMethods(rev protocol.Revision) []string {
	revs := []protocol.Revision{rev}
	if !rev.Known() {
		revs = slices.Clone(protocol.Revisions)
	}
	var reqs, notes []string
	for _, r := range revs {
		for _, ms := range protocol.Methods(r) {
			if ms.From != protocol.ClientToServer {
				continue
			}
			dst := &reqs
			if ms.Notification {
				dst = &notes
			}
			if !slices.Contains(*dst, ms.Name) {
				*dst = append(*dst, ms.Name)
			}
		}
	}
	return append(reqs, notes...)
}

// setMethodCompletion offers the methods of rev in the composer's method field.
func (c *composer) setMethodCompletion(rev protocol.Revision) {
	c.methods = composeMethods(rev)
	c.rev = rev
	c.method.ShowSuggestions = true
	c.method.SetSuggestions(c.methods)
}

// completing reports whether tab should complete the method rather than move on: the
// method field has focus and a method that starts with what is typed is longer than it.
func (c *composer) completing() bool {
	if c.raw || c.form != nil || c.field != 0 {
		return false
	}
	s := c.method.CurrentSuggestion()
	return s != "" && s != c.method.Value()
}

// completionLine is the line under the method field: the methods that start with what is
// typed (every method while nothing is), the one tab completes to marked, fitted to w.
func (c *composer) completionLine(m *Model, w int) string {
	if c.raw || c.form != nil || c.field != 0 || len(c.methods) == 0 {
		return ""
	}
	s := m.c.Styles
	typed := c.method.Value()
	matches := c.method.MatchedSuggestions()
	cur := c.method.CurrentSuggestion()
	if typed == "" {
		matches, cur = c.methods, ""
	}
	if odd := c.oddMethod(strings.TrimSpace(typed)); odd != "" {
		return textfmt.Clip(s.Error.Render(odd), w)
	}
	if len(matches) == 0 {
		rev := "this revision"
		if c.rev.Known() {
			rev = string(c.rev)
		}
		return textfmt.Clip(s.Muted.Render("not a method of "+rev+" (it is sent all the same)"), w)
	}
	if len(matches) == 1 && matches[0] == typed {
		return ""
	}
	parts := make([]string, len(matches))
	for i, name := range matches {
		if name == cur {
			parts[i] = s.Accent.Render(name)
		} else {
			parts[i] = s.Muted.Render(name)
		}
	}
	hint := "tab completes · ↑↓ choose  "
	if typed == "" {
		hint = "type to complete  "
	}
	return textfmt.Clip(s.HelpDesc.Render(hint)+strings.Join(parts, " "), w)
}

// oddMethod says what is wrong with a method holding characters no method has (a brace,
// a quote, a space…), most often params typed into the method field; "" when there is
// nothing odd.
func (c *composer) oddMethod(method string) string {
	i := strings.IndexFunc(method, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/_-.$", r))
	})
	if i < 0 {
		return ""
	}
	r, _ := utf8.DecodeRuneInString(method[i:])
	return fmt.Sprintf("the method holds %q, which no method has: params go in the field below (tab) · ctrl+s again sends it as it is", r)
}

// paramsPlaceholder is the params field's placeholder for method: the members it needs.
func paramsPlaceholder(method string) string {
	switch strings.TrimSpace(method) {
	case "resources/read":
		return `{"uri": "…"}`
	case "tools/call":
		return `{"name": "…", "arguments": {}}`
	case "prompts/get":
		return `{"name": "…"}`
	}
	return `{}  (empty: no params)`
}

// fitPlaceholder makes the params placeholder fit the method typed.
func (c *composer) fitPlaceholder() {
	c.params.Placeholder = paramsPlaceholder(c.method.Value())
}
