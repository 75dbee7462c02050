package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/protocol"
)

// TestStatusBarKeepsPaused: on a narrow screen with much to say, the status bar leaves out
// its least items (the dropped rows, the calls in flight) and cuts the server's
// description, but always says that the timeline is paused, and fits.
func TestStatusBarKeepsPaused(t *testing.T) {
	m := newTimelineModel(t, Options{}, 80, 24)
	w := newEvWire()
	call := w.req(dirOut, 1, "tools/call", `{}`)
	feedEvents(m, call, w.res(time.Millisecond, call, `{}`), w.stderr("between"))
	pressKey(m, "1")
	pressKey(m, "k")
	if m.timeline.Following() {
		t.Fatal("k did not pause the timeline")
	}
	m.info.Implementation.Name, m.info.Implementation.Version = "mcpscope", "0.1.0"
	m.info.Revision = protocol.Revision("2026-07-28")
	m.hist.Dropped, m.hist.Lost = 123456, 42
	for _, width := range []int{80, 60, 40} {
		bar := ansi.Strip(m.statusView(width))
		if !strings.Contains(bar, "paused") {
			t.Errorf("at %d columns the status bar does not say paused: %q", width, bar)
		}
		if n := ansi.StringWidth(bar); n != width {
			t.Errorf("at %d columns the bar is %d cells: %q", width, n, bar)
		}
		if !strings.HasPrefix(bar, " "+m.state.String()) {
			t.Errorf("at %d columns the state is lost: %q", width, bar)
		}
	}
	if bar := ansi.Strip(m.statusView(80)); !strings.Contains(bar, "42 events lost") || !strings.Contains(bar, "paused (G follows)") {
		t.Errorf("at 80 columns the lost events or the full paused hint are left out: %q", bar)
	}
}
