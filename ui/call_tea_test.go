package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"
)

// TestTeaCallForm runs the whole program (teatest) against the demo server: on the
// explorer it fills add's form field by field, sends it, and sees the sum.
func TestTeaCallForm(t *testing.T) {
	m := NewModel(NewCommon(nil), demoOptions(t, nil))
	tm := teatest.NewTestModel(t, m,
		teatest.WithInitialTermSize(120, 40),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)),
	)
	waitOut := func(what string, texts ...string) {
		t.Helper()
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
			plain := ansi.Strip(string(b))
			for _, s := range texts {
				if !strings.Contains(plain, s) {
					return false
				}
			}
			return true
		}, teatest.WithDuration(60*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
	}
	send := func(keys ...tea.KeyPressMsg) {
		for _, k := range keys {
			tm.Send(k)
		}
	}
	tab := tea.KeyPressMsg{Code: tea.KeyTab}
	ctrlS := tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl}

	waitOut("the server ready", "ready")
	send(keyPress("2"))
	waitOut("the tools list", "tools 19")
	send(keyPress("enter"))
	waitOut("add's form", "tools/call add", "[ Send ]")
	send(keyPress("enter"))
	tm.Type("1")
	send(tab, keyPress("enter"))
	tm.Type("2")
	send(ctrlS)
	waitOut("the sum", "1 + 2 = 3")
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
	screen := ansi.Strip(m.Render())
	checkScreenSize(t, screen, 120, 40)
	for _, want := range []string{"tools/call add", "1 + 2 = 3", "▶add"} {
		if !strings.Contains(screen, want) {
			t.Errorf("final screen lacks %q:\n%s", want, screen)
		}
	}
	if !strings.Contains(screen, "T shows it in the timeline") {
		t.Errorf("no hint of the timeline jump:\n%s", screen)
	}
}
