package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestRootsProblemGoesWithTheChange: the roots editor's problem is about what its fields
// held; typing or pasting into a field takes it away, and saving shows it again while it
// still holds.
func TestRootsProblemGoesWithTheChange(t *testing.T) {
	const empty = "the path or URI is empty"
	r := newRootsRig(t, true, nil)
	r.keys("ctrl+o")
	r.until("the roots editor", func() bool { return strings.Contains(r.screen(), "what roots/list answers with") })
	r.keys("a", "enter")
	if !strings.Contains(r.screen(), empty) {
		t.Fatalf("an empty path saved shows no problem:\n%s", r.screen())
	}
	r.typeText("/tmp/ä b")
	if scr := r.screen(); strings.Contains(scr, empty) || !strings.Contains(scr, "/tmp/ä b") {
		t.Fatalf("the problem stayed after the path changed:\n%s", scr)
	}
	r.keys("ctrl+u") // the input's own key: the path emptied again
	r.keys("enter")
	if !strings.Contains(r.screen(), empty) {
		t.Fatalf("an emptied path saved shows no problem:\n%s", r.screen())
	}
	r.d.handle(tea.PasteMsg{Content: "/srv/project"})
	if scr := r.screen(); strings.Contains(scr, empty) {
		t.Fatalf("the problem stayed after a paste:\n%s", scr)
	}
	r.keys("enter")
	r.until("the pasted root saved", func() bool { return strings.Contains(r.screen(), "file:///srv/project") })
}
