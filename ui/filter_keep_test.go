package ui

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestFilterKeepsSelection: the row the user selected, hidden while a query is typed
// ("tool:=ad" matches no row before "d" completes it), is selected again when the query
// matches it again; moving the selection while filtered makes the new row the user's.
func TestFilterKeepsSelection(t *testing.T) {
	m := newTimelineModel(t, Options{}, 120, 30)
	wi := newEvWire()
	feedEvents(m,
		wi.req(dirOut, 1, "tools/call", `{"name":"echo","arguments":{}}`),
		wi.req(dirOut, 2, "tools/call", `{"name":"add","arguments":{"a":1}}`),
		wi.req(dirOut, 3, "tools/call", `{"name":"echo","arguments":{"b":2}}`))
	pressKey(m, "up") // leave follow mode: the middle row, add
	want := m.timeline.Selected()
	if want == nil || want.Ev.Frame.ID.String() != "2" {
		t.Fatalf("selected %v, want the add call", want)
	}
	pressKey(m, "/")
	for _, r := range "tool:=ad" {
		m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	if m.timeline.Selected() == want {
		t.Fatalf("tool:=ad selects the add call: the test shows nothing")
	}
	m.Update(tea.KeyPressMsg{Code: 'd', Text: "d"})
	if got := m.timeline.Selected(); got != want {
		t.Fatalf("tool:=add selects %v, want the add call again", got)
	}
	// Cleared: all rows again, the add call still selected.
	for range "tool:=add" {
		m.Update(tea.KeyPressMsg{Code: tea.KeyBackspace})
	}
	if got := m.timeline.Selected(); got != want {
		t.Fatalf("with the filter cleared the selection is %v, want the add call", got)
	}
}
