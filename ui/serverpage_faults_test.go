package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/fault"
)

// TestFaultRulesShown: the note a session's fault transport publishes at its start puts
// the rules and the seed in the timeline (a row of its own, not hidden with the transport
// rows) and on the server page.
func TestFaultRulesShown(t *testing.T) {
	rules, err := fault.ParseRules([]string{"delay=1s tool:=echo"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sink := &wireSink{}
	fault.Wrap(&wireTransport{}, fault.NewEngine(rules, 42)).Start(context.Background(), sink)
	if len(sink.notes) != 1 || sink.notes[0].Kind != fault.RulesNoteKind {
		t.Fatalf("notes at start: %+v", sink.notes)
	}
	m := newTimelineModel(t, Options{}, 100, 30)
	wi := newEvWire()
	feedEvents(m, wi.ev(time.Millisecond, &session.Event{Kind: session.EvTransport, Note: sink.notes[0].Kind, Text: sink.notes[0].Text}))
	m.timeline.HideTransport = true
	screen := ansi.Strip(m.View().Content)
	if !strings.Contains(screen, "1 fault rule, --seed 42") {
		t.Errorf("the timeline lacks the rules' note:\n%s", screen)
	}
	page := pageText(m.server)
	for _, want := range []string{"Fault rules", "1 fault rule, --seed 42", "rule 1: delay=1s tool:=echo"} {
		if !strings.Contains(page, want) {
			t.Errorf("the server page lacks %q:\n%s", want, page)
		}
	}
}
