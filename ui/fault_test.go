package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/fault"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// TestFaultRows: a call a fault rule answered shows a fault mark on its row, a fault row
// of its own after it (what, which rule), the answer marked as made by mcpscope, and the
// status line counts the faults.
func TestFaultRows(t *testing.T) {
	m := newTimelineModel(t, Options{}, 160, 30)
	wi := newEvWire()
	rules, err := fault.ParseRules([]string{"error=-32603 tool:=search"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	call := wi.req(dirOut, 1, "tools/call", `{"name":"search","arguments":{}}`)
	v := fault.NewEngine(rules, 1).Judge(dirOut, call.Frame.Raw, time.Now())
	note := wi.ev(0, &session.Event{Kind: session.EvTransport, Note: fault.NoteKind, Text: fault.Describe(v.Applied)})
	answer := wi.answer(0, call, string(v.Answer))
	answer.Recv.Via = fault.ViaMcpscope
	feedEvents(m, call, note, answer)

	rows := map[string]string{}
	for _, e := range m.hist.Entries() {
		row := ansi.Strip(rowText(m.c.Styles, e, 160, m.hist.Start, wi.now))
		switch {
		case e.Ev == call:
			rows["call"] = row
		case e.Ev == note:
			rows["note"] = row
		case traffic.MadeByMcpscope(e):
			rows["answer"] = row
		}
	}
	if !strings.Contains(rows["call"], "⚡ error: answered by mcpscope (rule 1") {
		t.Errorf("call row: %q", rows["call"])
	}
	if !strings.Contains(rows["note"], "fault  ⚡ error: answered by mcpscope (rule 1: error=-32603 tool:=search)") || strings.Contains(rows["note"], "original") {
		t.Errorf("fault row: %q", rows["note"])
	}
	if !strings.Contains(rows["answer"], "⚡ made by mcpscope") {
		t.Errorf("answer row: %q", rows["answer"])
	}
	if status := ansi.Strip(m.statusView(160)); !strings.Contains(status, "1 fault") {
		t.Errorf("status line: %q", status)
	}
	pressKey(m, "t") // hide the transport rows: the fault's row stays
	var shown bool
	for _, e := range m.timeline.visible {
		shown = shown || e.Ev == note
	}
	if !m.timeline.HideTransport || !shown {
		t.Errorf("with the transport rows hidden (%v) the fault's row is shown: %v", m.timeline.HideTransport, shown)
	}
}

// TestDelayRowSaysWhere: a delay rule on a method says on each row which message it held
// back, and the answer's row says when both the request and the answer were delayed.
func TestDelayRowSaysWhere(t *testing.T) {
	m := newTimelineModel(t, Options{}, 200, 30)
	wi := newEvWire()
	rules, err := fault.ParseRules([]string{"delay=20ms tool:=echo"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	eng := fault.NewEngine(rules, 1)
	call := wi.req(dirOut, 1, "tools/call", `{"name":"echo","arguments":{}}`)
	v := eng.Judge(dirOut, call.Frame.Raw, time.Now())
	feedEvents(m, call, wi.ev(0, &session.Event{Kind: session.EvTransport, Note: fault.NoteKind, Text: fault.Describe(v.Applied)}))
	answer := wi.res(time.Millisecond, call, `{"content":[]}`)
	v = eng.Judge(dirIn, answer.Frame.Raw, time.Now())
	if v.Applied == nil {
		t.Fatal("the rule did not delay the answer")
	}
	feedEvents(m, answer, wi.ev(0, &session.Event{Kind: session.EvTransport, Note: fault.NoteKind, Text: fault.Describe(v.Applied)}))
	rows := map[*session.Event]string{}
	for _, e := range m.hist.Entries() {
		rows[e.Ev] = ansi.Strip(rowText(m.c.Styles, e, 200, m.hist.Start, wi.now))
	}
	if !strings.Contains(rows[call], "⚡ delay 20ms on the request (rule 1") {
		t.Errorf("request row: %q", rows[call])
	}
	if !strings.Contains(rows[answer], "⚡ delay 20ms on the answer + 20ms on the request (both) (rule 1") {
		t.Errorf("answer row: %q", rows[answer])
	}
}
