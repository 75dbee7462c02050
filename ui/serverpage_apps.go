package ui

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpscope/mcpscope/protocol/apps"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/explorer"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
)

// SetApps shows what the lists say of MCP Apps and whether the session declares the
// extension (sess nil: a recording or a tap, whose client mcpscope is not).
func (p *ServerPage) SetApps(a explorer.AppsTally, sess *session.Session) {
	if sess != nil {
		a.Client = "declared (mimeTypes " + apps.MIMEType + ")"
		if !sess.Caps().Apps {
			a.Client = "not declared (--no-apps): the server may list other tools"
		}
	}
	p.apps = a
	p.changed = true
}

// maxHosted bounds the hosted apps the server page lists (the newest).
const maxHosted = 8

// AddHosted lists the address of an app hosted in this session (session.NoteAppHosted).
func (p *ServerPage) AddHosted(name, url string) {
	p.hosted = append(p.hosted, name+"  "+url)
	if len(p.hosted) > maxHosted {
		p.hosted = p.hosted[len(p.hosted)-maxHosted:]
	}
	p.changed = true
}

// ClearHosted forgets the hosted apps (a new session: their hosts closed with the old one).
func (p *ServerPage) ClearHosted() {
	p.hosted, p.changed = nil, true
}

// hostedLines list the apps hosted in this session with their whole addresses, wrapped
// rather than cut (a cut token is refused), under the MCP Apps section.
func hostedLines(s *Styles, hosted []string, w int) []string {
	if len(hosted) == 0 {
		return nil
	}
	out := []string{}
	for _, h := range hosted {
		out = append(out, textfmt.Hanging(s.Text, "   "+s.Muted.Render(fmt.Sprintf("%-12s", "hosted")), escapeText(h), w)...)
	}
	return out
}

// serverDeclaresApps reports whether capabilities declare the MCP Apps extension.
func serverDeclaresApps(caps json.RawMessage) bool {
	var c struct {
		Extensions map[string]json.RawMessage `json:"extensions"`
	}
	_ = json.Unmarshal(caps, &c)
	_, ok := c.Extensions[apps.ExtensionID]
	return ok
}

// appsSection is the server page's MCP Apps section: whether the server declared the
// extension, whether mcpscope did, how many apps and app-only tools the tools list has.
// None until the handshake completed.
func appsSection(s *Styles, a explorer.AppsTally, info session.ServerInfo, w int) []string {
	if info.Revision == "" {
		return nil
	}
	const pad2 = "   "
	out := []string{"", " " + s.PaneTitleFocused.Render("MCP Apps")}
	field := func(k, v string) {
		out = append(out, textfmt.Hanging(s.Text, pad2+s.Muted.Render(fmt.Sprintf("%-12s", k)), v, w)...)
	}
	server := "not declared"
	if serverDeclaresApps(info.Capabilities) {
		server = "declared (" + apps.ExtensionID + ")"
	}
	field("server", server)
	if a.Client != "" {
		field("mcpscope", a.Client)
	}
	if !a.Listed {
		field("apps", "the tools list is not in")
		return out
	}
	field("apps", fmt.Sprintf("%s linked from %s", textfmt.Plural(a.Apps, "ui:// resource"), textfmt.Plural(a.UITools, "tool")))
	only := "none"
	if len(a.AppOnly) > 0 {
		only = fmt.Sprintf("%d: %s", len(a.AppOnly), escapeText(strings.Join(a.AppOnly, ", ")))
	}
	field("app-only", only)
	if a.Flat > 0 {
		field("deprecated", textfmt.Plural(a.Flat, "tool")+" linked with the flat _meta[\"ui/resourceUri\"]")
	}
	return out
}
