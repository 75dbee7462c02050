package session

import (
	"testing"

	"github.com/mcpscope/mcpscope/session/transport"
)

// How a server ended is said once: exec's own words for the same status are not repeated.
func TestDescribeExitSaysItOnce(t *testing.T) {
	for _, c := range []struct {
		x    transport.ExitInfo
		want string
	}{
		{transport.ExitInfo{Code: -1, Signal: "killed", Err: "signal: killed"}, "killed by signal killed"},
		{transport.ExitInfo{Code: 1, Err: "exit status 1"}, "exit status 1"},
		{transport.ExitInfo{Code: -1, Err: "HTTP+SSE event stream ended: EOF"}, "ended (HTTP+SSE event stream ended: EOF)"},
		{transport.ExitInfo{Code: 0, ByUs: true}, "exit status 0, closed by mcpscope"},
	} {
		if got := describeExit(&c.x); got != c.want {
			t.Errorf("describeExit(%+v) = %q, want %q", c.x, got, c.want)
		}
	}
}
