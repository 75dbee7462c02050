package cli

import (
	"fmt"
	"strings"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/check"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
)

// appsContrastSession makes check's second session on an apps server: the same flags, the
// revision of the first run, and the MCP Apps extension declared the other way round.
func (r *runner) appsContrastSession(proto string) (*session.Session, func(), error) {
	return r.newSession(func(cfg *session.Config) {
		cfg.Protocol, cfg.EraCache = proto, nil
		cfg.Caps.Apps = !cfg.Caps.Apps
	})
}

// appsLine sums up what check saw of the MCP Apps extension:
// "MCP Apps: extension declared · 2 apps · 3 tools with an app (1 app-only)".
func appsLine(a *check.AppsInfo, declared bool) string {
	parts := []string{"MCP Apps: the server does not declare the extension"}
	if a.Declared {
		parts[0] = "MCP Apps: extension declared"
	}
	parts = append(parts, textfmt.Plural(a.Apps, "app"), textfmt.Plural(len(a.UITools), "tool")+" with an app")
	if len(a.AppOnly) > 0 {
		parts[len(parts)-1] += fmt.Sprintf(" (%d app-only: %s)", len(a.AppOnly), strings.Join(a.AppOnly, ", "))
	}
	if !declared {
		parts = append(parts, "mcpscope did not declare it (--no-apps)")
	}
	return strings.Join(parts, " · ")
}
