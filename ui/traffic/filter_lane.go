package traffic

import (
	"fmt"
	"strings"

	"github.com/mcpscope/mcpscope/session"
)

// laneMatcher parses lane:LANE: "app" is an MCP App's postMessage conversation with the
// host, "server" the wire to the server, "from-app" the server calls made for an app.
func laneMatcher(value string) (func(*Entry) bool, error) {
	switch strings.ToLower(value) {
	case "app":
		return func(e *Entry) bool { return e.Ev != nil && e.Ev.Lane == session.LaneApp }, nil
	case "server", "wire":
		return func(e *Entry) bool { return e.Ev != nil && e.Ev.Frame != nil && e.Ev.Lane == "" }, nil
	case "from-app":
		return func(e *Entry) bool { return e.Ev != nil && e.Ev.Lane == "" && e.Ev.Corr.AppSeq != 0 }, nil
	}
	return nil, fmt.Errorf("lane:%s (%s)", value, wantValues("lane"))
}
