package ui

import (
	"errors"
	"strings"
	"testing"
	"time"
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
