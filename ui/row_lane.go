package ui

import (
	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
)

// eventArrow is a frame's direction mark: → and ← on the wire to the server, ⇢ (host to
// app) and ⇠ (app to host) on an MCP App's postMessage lane.
func eventArrow(s *Styles, ev *session.Event) string {
	if ev.Lane != session.LaneApp {
		return dirArrow(s, ev.Dir)
	}
	p := s.Rows()
	if ev.Dir == protocol.ClientToServer {
		return p.Accent.Paint("⇢")
	}
	return p.Accent.Paint("⇠")
}

// laneLabel marks a row's label: "app " before a message of the app lane, and "for app"
// after a server call made for the app.
func laneLabel(s *Styles, ev *session.Event, label string) string {
	p := s.Rows()
	switch {
	case ev.Lane == session.LaneApp:
		return p.Accent.Paint("app") + " " + label
	case ev.Corr.AppSeq != 0:
		return label + " " + p.Muted.Paint("for app")
	}
	return label
}
