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
