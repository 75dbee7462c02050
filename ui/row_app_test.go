package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
)

// TestCSPViolationRow: what a hosted view's policy blocked is a row of the app lane with
// its finding's badge, which the transport toggle does not hide and has:finding finds.
func TestCSPViolationRow(t *testing.T) {
	m := newTimelineModel(t, Options{}, 120, 30)
	wi := newEvWire()
	ev := wi.ev(time.Millisecond, &session.Event{Kind: session.EvTransport, Note: session.NoteAppCSPViolation, Lane: session.LaneApp,
		Text:     "evals: the policy's script-src blocked eval (eval, new Function or a string timer)",
		Findings: []protocol.Finding{protocol.NewFinding(protocol.FindAppCSPViolation, "blocked eval")}})
	feedEvents(m, ev)
	pressKey(m, "t")
	if !m.timeline.HideTransport || m.timeline.Visible() != 1 {
		t.Fatalf("with the transport rows hidden the violation is hidden: %d rows", m.timeline.Visible())
	}
	e := m.timeline.visible[0]
	row := ansi.Strip(rowText(m.c.Styles, e, 120, m.hist.Start, wi.now))
	if !strings.Contains(row, "csp    evals: the policy's script-src blocked eval") || !strings.Contains(row, "⚠1") {
		t.Errorf("the violation's row: %q", row)
	}
	if !e.HasFindings() {
		t.Error("the violation's row has no finding for has:finding")
	}
}
