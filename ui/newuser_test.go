package ui

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/session"
)

// TestFailurePanelGivesWayToPickedRow opens a row's detail after a failed connect: the
// failure panel shows first, then enter on a row shows that row.
func TestFailurePanelGivesWayToPickedRow(t *testing.T) {
	m := newTimelineModel(t, Options{}, 100, 30)
	w := newEvWire()
	init := w.req(dirOut, 1, "initialize", `{}`)
	feedEvents(m, init, w.res(time.Millisecond, init, `{"marker":"row-body"}`))
	m.Update(ConnectedMsg{Gen: 1, Err: errors.New("HTTP 401 Unauthorized")})
	if scr := plainScreen(m); !strings.Contains(scr, "Connection failed") {
		t.Fatalf("the failure is not shown first:\n%s", scr)
	}
	pressKey(m, "esc")
	pressKey(m, "up")
	pressKey(m, "enter")
	scr := plainScreen(m)
	if strings.Contains(scr, "Connection failed") || !strings.Contains(scr, "initialize") {
		t.Errorf("enter on a row after a failed connect does not show the row:\n%s", scr)
	}
}

// TestDialogCoversTimelineMarker: a dialog over the timeline leaves no row marker (▶)
// showing beside its border.
func TestDialogCoversTimelineMarker(t *testing.T) {
	m := newTimelineModel(t, Options{}, 100, 30)
	w := newEvWire()
	var evs []*session.Event
	for i := 1; i <= 20; i++ {
		evs = append(evs, w.req(dirOut, i, "tools/list", `{}`))
	}
	feedEvents(m, evs...)
	for range 8 {
		pressKey(m, "up")
	}
	if !strings.Contains(plainScreen(m), "▶") {
		t.Fatalf("no row marker on the timeline:\n%s", plainScreen(m))
	}
	pressKey(m, ":")
	if dialogOf[*composer](m) == nil {
		t.Fatal("the composer did not open")
	}
	for _, row := range strings.Split(plainScreen(m), "\n") {
		if strings.Contains(row, "▶") {
			t.Errorf("the row marker shows beside the dialog: %q", row)
		}
	}
}
