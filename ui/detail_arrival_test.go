package ui

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/transport"
)

// TestArrivalText: a frame mcpscope sent says so; one a tap recorded from the host says the
// host sent it, on which stream; an incoming one names its stream.
func TestArrivalText(t *testing.T) {
	for _, c := range []struct {
		dir  protocol.Direction
		via  string
		want string
	}{
		{protocol.ClientToServer, "", "sent by mcpscope"},
		{protocol.ClientToServer, "stdin", "sent by the host, on the server's stdin"},
		{protocol.ClientToServer, "http", "sent by the host, an HTTP request body"},
		{protocol.ServerToClient, "stdout", "the server's stdout"},
	} {
		got := arrivalText(&session.Event{Dir: c.dir, Recv: transport.RecvInfo{Via: c.via, Exchange: 3}})
		if !strings.HasPrefix(got, c.want) {
			t.Errorf("%v via %q: %q, want it to start %q", c.dir, c.via, got, c.want)
		}
	}
}
