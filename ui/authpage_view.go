package ui

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/session/auth"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
)

// View renders the page: exactly h lines of w cells.
func (p *AuthPage) View() string {
	if p.w <= 0 || p.h <= 0 {
		return ""
	}
	lines := p.lines(time.Now())
	p.off = min(max(0, p.off), max(0, len(lines)-p.h))
	return textfmt.FitBlock(strings.Join(lines[p.off:], "\n"), p.w, p.h)
}

// lines lays out the page for its width at time now.
func (p *AuthPage) lines(now time.Time) []string {
	s := p.c.Styles
	const pad2 = "   "
	var out []string
	section := func(title string) {
		if len(out) > 0 {
			out = append(out, "")
		}
		out = append(out, " "+s.PaneTitleFocused.Render(title))
	}
	field := func(k, v string) {
		if v != "" {
			out = append(out, textfmt.Hanging(s.Text, pad2+s.Muted.Render(fmt.Sprintf("%-15s", k)), escapeText(v), p.w)...)
		}
	}
	// urlField breaks a URL at the width, adding nothing, so a selection gives it whole.
	urlField := func(k, v string) {
		if v == "" {
			return
		}
		head := pad2 + s.Muted.Render(fmt.Sprintf("%-15s", k))
		hang := strings.Repeat(" ", ansi.StringWidth(head))
		for i, l := range urlLines(s.Text.Render, v, hang, p.w) {
			if i == 0 {
				l = head + strings.TrimPrefix(l, hang)
			}
			out = append(out, l)
		}
	}
	section("Authorization")
	if p.ctrl == nil {
		out = append(out, textfmt.WrapProse(s.Muted, "No authorization: "+p.noneReason()+".", pad2, p.w-1)...)
		out = append(out, textfmt.WrapProse(s.Muted, "OAuth 2.1 authorization applies to HTTP servers (--url) that answer 401 or that are opened with --auth; "+
			"mcpscope auth status lists what is stored.", pad2, p.w-1)...)
		return out
	}
	st := p.st
	state := string(st.State)
	if st.State == "" {
		state = string(auth.StateNone)
	}
	if st.Step != "" && (st.State == auth.StateDiscovering || st.State == auth.StateWaiting) {
		state += " (" + string(st.Step) + ")"
	}
	if p.busy != "" {
		state += " · " + p.busy + "…"
	}
	stateStyle := s.Text
	switch st.State {
	case auth.StateAuthorized:
		stateStyle = s.Response
	case auth.StateFailed:
		stateStyle = s.Error
	case auth.StateWaiting, auth.StateDiscovering:
		stateStyle = s.Finding
	}
	out = append(out, pad2+s.Muted.Render(fmt.Sprintf("%-15s", "state"))+stateStyle.Render(state))
	if st.State == auth.StateNone || st.State == "" {
		why := "the server has not asked for authorization yet; l logs in now"
		if st.Resource != "" {
			why = "no token (logged out): l logs in now, or the next request the server refuses does"
		}
		out = append(out, textfmt.WrapProse(s.Muted, why, pad2, p.w-1)...)
	}
	urlField("resource", st.Resource)
	urlField("metadata", st.ResourceMetadataURL)
	urlField("issuer", st.Issuer)
	client := st.ClientID
	if client != "" && st.ClientSource != "" {
		client += " (" + st.ClientSource + ")"
	}
	field("client", client)

	section("Token")
	field("scopes asked", strings.Join(st.ScopesRequested, " "))
	field("scopes granted", strings.Join(st.ScopesGranted, " "))
	if missing := notGranted(st.ScopesRequested, st.ScopesGranted); len(missing) > 0 && len(st.ScopesGranted) > 0 {
		out = append(out, textfmt.Hanging(s.Finding, pad2+s.Muted.Render(fmt.Sprintf("%-15s", "not granted")), strings.Join(missing, " "), p.w)...)
	}
	if st.TokenMasked == "" {
		out = append(out, pad2+s.Muted.Render("no token"))
	} else {
		tok := st.TokenMasked
		if st.TokenType != "" {
			tok = st.TokenType + " " + tok
		}
		field("token", tok)
		expStyle := s.Text
		if !st.Expiry.IsZero() && !st.Expiry.After(now) {
			expStyle = s.Error
		}
		exp := auth.ExpiryText(st.Expiry, now)
		if !st.Expiry.IsZero() {
			exp += " (" + st.Expiry.Local().Format("2006-01-02 15:04:05 MST") + ")"
		} else {
			exp = "the authorization server gave no expiry"
		}
		out = append(out, textfmt.Hanging(expStyle, pad2+s.Muted.Render(fmt.Sprintf("%-15s", "expires")), exp, p.w)...)
		refresh := "none"
		if st.HasRefresh {
			refresh = "stored (r refreshes now)"
		}
		field("refresh token", refresh)
	}
	field("store", st.Store)

	section("Last failure")
	if st.LastError == "" {
		out = append(out, pad2+s.Muted.Render("none"))
	} else {
		out = append(out, textfmt.WrapProse(s.Error, escapeText(st.LastError), pad2, p.w-1)...)
	}
	if st.State == auth.StateWaiting && st.AuthorizeURL != "" {
		section("Waiting for the browser")
		hint := "open the authorization URL (y copies it):"
		if p.waitOff {
			hint = "open the authorization URL (y copies it; l shows the dialog again):"
		}
		out = append(out, textfmt.WrapProse(s.Muted, hint, pad2, p.w-1)...)
		out = append(out, urlLines(s.Text.Render, st.AuthorizeURL, pad2, p.w)...)
	}
	return out
}

// notGranted lists the scopes asked for that were not granted.
func notGranted(asked, granted []string) []string {
	var out []string
	for _, a := range asked {
		if !slices.Contains(granted, a) {
			out = append(out, a)
		}
	}
	return out
}

// urlLines breaks a URL into lines of at most w cells after prefix, character by
// character with nothing added, so that selecting the lines gives the URL back whole.
func urlLines(render func(...string) string, u, prefix string, w int) []string {
	avail := max(8, w-ansi.StringWidth(prefix))
	var out []string
	for _, part := range strings.Split(ansi.Hardwrap(escapeText(u), avail, false), "\n") {
		out = append(out, prefix+render(part))
	}
	return out
}

// waitView is the dialog while the flow waits for the browser, at inner width iw.
func (p *AuthPage) waitView(iw int) []string {
	s := p.c.Styles
	st := p.st
	out := []string{s.Bold.Render("Waiting for the browser to authorize mcpscope"), ""}
	if st.Issuer != "" {
		out = append(out, s.Muted.Render("authorization server  ")+s.Text.Render(escapeText(st.Issuer)))
	}
	if st.Resource != "" {
		out = append(out, s.Muted.Render("for the resource      ")+s.Text.Render(escapeText(st.Resource)))
	}
	out = append(out, "", s.Muted.Render("Open this URL in a browser (o opens it, y copies it):"))
	out = append(out, urlLines(s.Text.Render, st.AuthorizeURL, "", iw)...)
	return append(out, "", s.HelpDesc.Render("o open in browser · y copy the URL · esc stop waiting"))
}
