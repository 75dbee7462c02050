package check_test

import (
	"slices"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/check"
	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// TestCheckEvents: check lists the demo's event types, polls the ones offering poll and
// holds a stream of the ones offering push, without a finding; against the fixture that
// breaks the extension's rules on purpose it reports the broken payloads.
func TestCheckEvents(t *testing.T) {
	bin := sessiontest.BuildMCPScope(t)
	rep := runCheck(t, session.ServerSpec{Command: []string{bin, "demo"}}, check.Options{CallWait: 300 * time.Millisecond, Slow: patient})
	if codes, text := findings(rep, protocol.SevWarning); len(codes) > 0 {
		t.Errorf("the demo has %d findings:%s", len(codes), text)
	}
	ev := rep.Runs[0].Events
	if ev == nil || len(ev.Types) != 3 || !slices.Equal(ev.Polled, []string{"clock.tick", "alert.raised"}) ||
		!slices.Equal(ev.Streamed, []string{"clock.tick", "weather.changed", "alert.raised"}) {
		t.Fatalf("events step: %+v", ev)
	}
	rep = runCheck(t, session.ServerSpec{Command: []string{sessiontest.BuildEventServer(t), "-bad"}}, check.Options{Slow: patient})
	if codes, text := findings(rep, protocol.SevError); !slices.Contains(codes, protocol.FindEventsPayload) {
		t.Fatalf("the broken fixture's payloads were not found:%s", text)
	}
}
