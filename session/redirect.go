package session

import (
	"strings"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session/transport"
)

// redirectFindings are the findings of an exchange's redirect: credentials withheld from
// or forwarded to another origin, or a redirect not followed.
func redirectFindings(r *transport.Redirect) []protocol.Finding {
	if r == nil {
		return nil
	}
	var out []protocol.Finding
	if len(r.Withheld) > 0 {
		out = append(out, protocol.NewFinding(protocol.FindRedirectWithheld,
			"redirected to another origin (%s): not sent there: %s; --follow-redirects-with-credentials sends them",
			r.Location, strings.Join(r.Withheld, ", ")))
	}
	if len(r.Forwarded) > 0 {
		out = append(out, protocol.NewFinding(protocol.FindRedirectForwarded,
			"redirected to another origin (%s): sent there as --follow-redirects-with-credentials asks: %s",
			r.Location, strings.Join(r.Forwarded, ", ")))
	}
	if r.NotFollowed != "" {
		to := r.Location
		if to == "" {
			to = "nowhere"
		}
		out = append(out, protocol.NewFinding(protocol.FindRedirectNotFollowed, "redirect to %s not followed: %s", to, r.NotFollowed))
	}
	return out
}
