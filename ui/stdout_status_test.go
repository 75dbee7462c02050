package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/transport"
)

// TestStatusStdoutClosed: a server that closed its stdout while running is not shown as
// ready, since every request now fails at once; a restart's new session clears it.
func TestStatusStdoutClosed(t *testing.T) {
	m := newTimelineModel(t, Options{}, 110, 30)
	w := newEvWire()
	ready := w.ev(time.Millisecond, &session.Event{Kind: session.EvState, State: session.StateReady})
	feedEvents(m, ready)
	if status := strings.Split(plainScreen(m), "\n")[0]; !strings.Contains(status, "ready") {
		t.Fatalf("status before: %q", status)
	}
	closed := w.ev(time.Millisecond, &session.Event{Kind: session.EvTransport, Note: transport.NoteStdoutClosed,
		Text: "the server closed its stdout but is still running (pid 42)"})
	feedEvents(m, closed)
	status := strings.Split(plainScreen(m), "\n")[0]
	if !strings.Contains(status, "stdout closed") || strings.Contains(status, "ready") {
		t.Errorf("status after stdout closed: %q", status)
	}
	feedEvents(m, w.ev(time.Millisecond, &session.Event{Kind: session.EvState, State: session.StateConnecting}),
		w.ev(time.Millisecond, &session.Event{Kind: session.EvState, State: session.StateReady}))
	if status := strings.Split(plainScreen(m), "\n")[0]; !strings.Contains(status, "ready") {
		t.Errorf("status after a new session: %q", status)
	}
}

// TestStatusLink: a session whose HTTP transport lost the server is not shown as ready:
// the status says reconnecting N/M, then unreachable, and ready again once an answer came.
func TestStatusLink(t *testing.T) {
	m := newTimelineModel(t, Options{}, 110, 30)
	w := newEvWire()
	feedEvents(m, w.ev(time.Millisecond, &session.Event{Kind: session.EvState, State: session.StateReady}))
	for _, tc := range []struct{ link, want string }{
		{"reconnecting 2/5", "reconnecting 2/5"},
		{transport.LinkUnreachable, "unreachable"},
		{transport.LinkReachable, "ready"},
	} {
		feedEvents(m, w.ev(time.Millisecond, &session.Event{Kind: session.EvState, State: session.StateReady, Note: session.NoteLink, Text: tc.link}))
		status := strings.Split(plainScreen(m), "\n")[0]
		if !strings.Contains(status, tc.want) || (tc.want != "ready" && strings.Contains(status, "ready")) {
			t.Errorf("link %q: status %q, want %q", tc.link, status, tc.want)
		}
	}
	feedEvents(m, w.ev(time.Millisecond, &session.Event{Kind: session.EvState, State: session.StateReady, Note: session.NoteLink, Text: transport.LinkUnreachable}),
		w.ev(time.Millisecond, &session.Event{Kind: session.EvState, State: session.StateConnecting}),
		w.ev(time.Millisecond, &session.Event{Kind: session.EvState, State: session.StateReady}))
	if status := strings.Split(plainScreen(m), "\n")[0]; !strings.Contains(status, "ready") {
		t.Errorf("status after a new session: %q", status)
	}
}
