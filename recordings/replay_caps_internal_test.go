package recordings

import (
	"testing"

	"github.com/mcpscope/mcpscope/session"
)

// TestCapsFromRoundTrip: the capabilities a session sends read back as the same ClientCaps,
// so a replay declares what the recording declared, the MCP Apps extension included.
func TestCapsFromRoundTrip(t *testing.T) {
	for _, c := range []session.ClientCaps{
		session.DefaultCaps(),
		{Sampling: true},
		{Roots: true, ElicitForm: true, Apps: true},
		{Tasks: true, ElicitURL: true},
	} {
		got, ok := capsFrom(c.JSON())
		if !ok || got != c {
			t.Errorf("%s read back as %+v, want %+v", c.JSON(), got, c)
		}
	}
}
