package session_test

import (
	"testing"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
)

// TestAppLaneFindings: the lane pairs by id and direction and flags what the extension
// forbids: a request before ui/initialize, a host message before initialized, a method the
// sender may not send, a response to nothing.
func TestAppLaneFindings(t *testing.T) {
	s := session.New(session.Config{})
	lane := s.AppLane()
	in, out := protocol.ServerToClient, protocol.ClientToServer
	cases := []struct {
		dir  protocol.Direction
		raw  string
		want string // the finding code, or ""
	}{
		{in, `{"jsonrpc":"2.0","method":"ui/notifications/sandbox-proxy-ready","params":{}}`, ""},
		{out, `{"jsonrpc":"2.0","method":"ui/notifications/sandbox-resource-ready","params":{"html":""}}`, ""},
		{in, `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"x"}}`, protocol.FindAppBeforeInitialize},
		{out, `{"jsonrpc":"2.0","method":"ui/notifications/tool-input","params":{}}`, protocol.FindAppBeforeInitialize},
		{in, `{"jsonrpc":"2.0","id":2,"method":"ui/initialize","params":{}}`, ""},
		{out, `{"jsonrpc":"2.0","id":2,"result":{}}`, ""},
		{in, `{"jsonrpc":"2.0","method":"ui/notifications/initialized"}`, ""},
		{out, `{"jsonrpc":"2.0","method":"ui/notifications/tool-result","params":{"content":[]}}`, ""},
		{in, `{"jsonrpc":"2.0","id":3,"method":"ui/notifications/tool-result","params":{}}`, protocol.FindAppUnknownMethod},
		{in, `{"jsonrpc":"2.0","id":4,"method":"sampling/createMessage","params":{}}`, protocol.FindAppUnknownMethod},
		{out, `{"jsonrpc":"2.0","id":99,"result":{}}`, protocol.FindAppUnknownID},
		{out, `{"jsonrpc":"2.0","id":2,"result":{}}`, protocol.FindAppUnknownID}, // already answered
		{in, `{"jsonrpc":"2.0","id":2,"result":{}}`, protocol.FindAppUnknownID},  // id 2 was the view's, not the host's
		{out, `{"jsonrpc":"2.0","id":1,"method":"ui/resource-teardown","params":{"reason":"x"}}`, ""},
		{in, `{"jsonrpc":"2.0","id":1,"result":{}}`, ""},
	}
	var init, teardown *session.Event
	for _, c := range cases {
		e := lane.Record(c.dir, []byte(c.raw))
		var codes []string
		for _, f := range e.Frame.Findings {
			codes = append(codes, f.Code)
		}
		if (c.want == "" && len(codes) > 0) || (c.want != "" && (len(codes) != 1 || codes[0] != c.want)) {
			t.Errorf("%s %s: findings %v, want %q", session.AppDirection(c.dir), c.raw, codes, c.want)
		}
		if e.Lane != session.LaneApp {
			t.Errorf("lane %q", e.Lane)
		}
		switch {
		case e.Frame.Method == "ui/initialize":
			init = e
		case e.Frame.Method == "ui/resource-teardown":
			teardown = e
		case c.raw == `{"jsonrpc":"2.0","id":2,"result":{}}` && c.dir == out && init != nil && e.Corr.RequestSeq != 0:
			if e.Corr.RequestSeq != init.Seq || e.Corr.Method != "ui/initialize" {
				t.Errorf("initialize answer paired as %+v", e.Corr)
			}
		case c.raw == `{"jsonrpc":"2.0","id":1,"result":{}}` && teardown != nil:
			if e.Corr.RequestSeq != teardown.Seq {
				t.Errorf("teardown answer paired as %+v", e.Corr)
			}
		}
	}
	if got := (&session.Event{Kind: session.EvFrame, Lane: session.LaneApp, Dir: in, Frame: protocol.Decode([]byte(`{"jsonrpc":"2.0","method":"x"}`))}).Summary(); got != "app→host notification x" {
		t.Errorf("summary %q", got)
	}
}
