package ui

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpscope/mcpscope/protocol/apps"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
)

// SetApps shows what the lists say of MCP Apps and whether the session declares the
// extension (sess nil: a recording or a tap, whose client mcpscope is not).
func (p *ServerPage) SetApps(a appsTally, sess *session.Session) {
	if sess != nil {
		a.client = "declared (mimeTypes " + apps.MIMEType + ")"
		if !sess.Caps().Apps {
			a.client = "not declared (--no-apps): the server may list other tools"
		}
	}
	p.apps = a
	p.changed = true
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
func appsSection(s *Styles, a appsTally, info session.ServerInfo, w int) []string {
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
	if a.client != "" {
		field("mcpscope", a.client)
	}
	if !a.listed {
		field("apps", "the tools list is not in")
		return out
	}
	field("apps", fmt.Sprintf("%s linked from %s", textfmt.Plural(a.apps, "ui:// resource"), textfmt.Plural(a.uiTools, "tool")))
	only := "none"
	if len(a.appOnly) > 0 {
		only = fmt.Sprintf("%d: %s", len(a.appOnly), escapeText(strings.Join(a.appOnly, ", ")))
	}
	field("app-only", only)
	if a.flat > 0 {
		field("deprecated", textfmt.Plural(a.flat, "tool")+" linked with the flat _meta[\"ui/resourceUri\"]")
	}
	return out
}
