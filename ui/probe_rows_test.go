package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/transport"
)

// TestProbeRowsMuted: the era probe and its expected failure (a -32601 error, an HTTP 404, a
// send error, a timeout) are muted handshake rows, not red errors, and are not counted as
// errors; the raw frame and its findings stay on the row. A new HTTP session is a marker row.
func TestProbeRowsMuted(t *testing.T) {
	m := newTimelineModel(t, Options{}, 110, 30)
	s := m.c.Styles
	w := newEvWire()
	probe := w.frame(time.Millisecond, dirOut, `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}}`, session.Correlation{Probe: true})
	refused := w.frame(time.Millisecond, dirIn, `{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}`,
		session.Correlation{Method: "server/discover", RequestSeq: probe.Seq, Probe: true})
	http404 := w.ev(time.Millisecond, &session.Event{Kind: session.EvHTTP, HTTP: &transport.HTTPExchange{
		Purpose: "probe", Method: "POST", URL: "http://127.0.0.1:1/sse", Status: 404, Started: w.now, Duration: time.Millisecond}})
	sendErr := w.ev(time.Millisecond, &session.Event{Kind: session.EvError, Text: "send server/discover: HTTP 404 Not Found",
		Corr: session.Correlation{RequestSeq: probe.Seq, Probe: true}})
	marker := w.ev(time.Millisecond, &session.Event{Kind: session.EvState, State: session.StateReady, Note: session.NoteNewSession,
		Text: "new session: the server ended session s1 (404 Not Found); initialize again (protocol 2025-11-25)"})
	feedEvents(m, probe, refused, http404, sendErr, marker)

	screen := m.Render()
	red := fgSeq(s.P.Error)
	for _, row := range []string{screenRow(screen, "Method not found"), screenRow(screen, "http", "404"), screenRow(screen, "send server/discover")} {
		if row == "" || strings.Contains(row, red) || !strings.Contains(row, fgSeq(s.P.Muted)) {
			t.Errorf("probe row is not muted: %q", row)
		}
	}
	if r := ansi.Strip(screenRow(screen, "send server/discover")); !strings.Contains(r, "probe") {
		t.Errorf("the probe's send error is not labelled as the probe: %q", r)
	}
	if m.hist.Errors != 0 {
		t.Errorf("the probe's failure counted as %d errors", m.hist.Errors)
	}
	if r := ansi.Strip(screenRow(screen, "new session:")); !strings.Contains(r, "────") {
		t.Errorf("the new session is not a marker row: %q", r)
	}
}

// TestProbeFailedRequestMuted: over HTTP+SSE the probe's POST gets a 404 and no JSON-RPC
// answer, so the probe request ends failed; its row reads as the fallback, not in red.
func TestProbeFailedRequestMuted(t *testing.T) {
	m := newTimelineModel(t, Options{}, 110, 30)
	w := newEvWire()
	probe := w.frame(time.Millisecond, dirOut, `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}}`, session.Correlation{Probe: true})
	sendErr := w.ev(time.Millisecond, &session.Event{Kind: session.EvError, Text: "send server/discover: HTTP 404 Not Found",
		Corr: session.Correlation{RequestSeq: probe.Seq, Probe: true}})
	feedEvents(m, probe, sendErr)
	screen := m.Render()
	row := screenRow(screen, "req", "server/discover")
	if row == "" || strings.Contains(row, fgSeq(m.c.Styles.P.Error)) || !strings.Contains(ansi.Strip(row), "fallback") {
		t.Errorf("the failed probe request is not a muted fallback: %q", row)
	}
}
