package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestPaneContract sizes each pane of a model with traffic and checks what it draws: exactly
// the lines and cells it was given, and a help line of its own.
func TestPaneContract(t *testing.T) {
	m := newTimelineModel(t, Options{}, 100, 30)
	feedEvents(m, mixedTraffic(newEvWire(), 40)...)
	pressKey(m, "enter")
	panes := []struct {
		name string
		p    Pane
	}{{"timeline", m.timeline}, {"detail", m.detail}, {"explorer", m.explorer}, {"server", m.server}, {"tasks", m.tasks},
		{"servers", m.servers}, {"stats", m.stats}, {"auth", m.auth}}
	for _, pn := range panes {
		for _, size := range [][2]int{{60, 10}, {100, 28}, {41, 7}} {
			w, h := size[0], size[1]
			pn.p.SetSize(w, h)
			lines := strings.Split(pn.p.View(), "\n")
			if len(lines) != h {
				t.Errorf("%s at %dx%d draws %d lines", pn.name, w, h, len(lines))
			}
			for i, l := range lines {
				if got := ansi.StringWidth(l); got != w {
					t.Errorf("%s at %dx%d: line %d is %d cells: %q", pn.name, w, h, i, got, ansi.Strip(l))
				}
			}
		}
		if len(pn.p.Keys()) == 0 {
			t.Errorf("%s has no keys for the help line", pn.name)
		}
	}
}
