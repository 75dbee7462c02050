package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// runToStatus hands cmd's messages to m until one is a status message, and returns it.
func runToStatus(t *testing.T, m *Model, cmd tea.Cmd) StatusMsg {
	t.Helper()
	for i := 0; cmd != nil && i < 10; i++ {
		msg := cmd()
		if s, ok := msg.(StatusMsg); ok {
			return s
		}
		_, cmd = m.Update(msg)
	}
	t.Fatalf("no status message; screen:\n%s", plainScreen(m))
	return StatusMsg{}
}

// TestDetailSaveAsksForName checks that ctrl+s in the detail offers a file name in the
// footer instead of saving silently: enter saves the frame's exact bytes under the name
// typed, esc saves nothing.
func TestDetailSaveAsksForName(t *testing.T) {
	dir := t.TempDir()
	m := newTimelineModel(t, Options{}, 100, 30)
	feedEvents(m, mixedTraffic(newEvWire(), 6)...)
	pressKey(m, "enter")
	if m.focus != focusDetail {
		t.Fatalf("enter did not focus the detail:\n%s", plainScreen(m))
	}
	want := string(m.timeline.Selected().Ev.Frame.Raw)
	ctrlS := tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl}

	_, cmd := m.Update(ctrlS)
	if cmd == nil {
		t.Fatal("ctrl+s did nothing")
	}
	m.Update(cmd())
	if scr := plainScreen(m); dialogOf[*saveDialog](m) == nil || !strings.Contains(scr, "save frame to: mcpscope-") {
		t.Fatalf("ctrl+s does not ask for a file name:\n%s", scr)
	}
	path := filepath.Join(dir, "mine.json")
	dialogOf[*saveDialog](m).input.SetValue(path)
	_, cmd = m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if st := runToStatus(t, m, cmd); st.Error || !strings.Contains(st.Text, "to "+path) {
		t.Fatalf("status after saving: %+v", st)
	}
	if got, err := os.ReadFile(path); err != nil || string(got) != want {
		t.Fatalf("saved %q (%v), want the frame %q", got, err, want)
	}

	_, cmd = m.Update(ctrlS)
	m.Update(cmd())
	_, cmd = m.Update(tea.KeyPressMsg{Code: tea.KeyEscape})
	if st := runToStatus(t, m, cmd); dialogOf[*saveDialog](m) != nil || st.Text != "not saved" {
		t.Fatalf("esc: saving %v, status %+v", dialogOf[*saveDialog](m) != nil, st)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("esc wrote a file: %v", ents)
	}
}
