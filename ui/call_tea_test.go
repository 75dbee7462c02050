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
	tm := teatest.NewTestModel(t, screenProbe{m},
		teatest.WithInitialTermSize(120, 40),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)),
	)
	// waitOut asks the running program for the model's rendered screen (the frame the
	// renderer would draw next) until it shows every text: the incremental output stream
	// need not hold a repainted line as one contiguous string.
	waitOut := func(what string, texts ...string) {
		t.Helper()
		deadline := time.Now().Add(60 * time.Second)
		for {
			reply := make(chan string, 1)
			tm.Send(renderRequest{reply})
			var screen string
			select {
			case screen = <-reply:
			case <-time.After(10 * time.Second):
				t.Fatalf("waiting for %s: the program did not answer a render request", what)
			}
			missing := ""
			for _, s := range texts {
				if !strings.Contains(screen, s) {
					missing = s
					break
				}
			}
			if missing == "" {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("the screen did not show %s (%q missing):\n%s", what, missing, screen)
			}
			time.Sleep(20 * time.Millisecond) // poll interval between render requests
		}
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
	waitOut("the tools list", "tools 22")
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

// renderRequest asks screenProbe for the model's rendered screen, ANSI stripped.
type renderRequest struct{ reply chan<- string }

// screenProbe runs a Model under teatest and answers renderRequest from inside the
// program's loop, so the test reads the screen without racing the model.
type screenProbe struct{ m *Model }

func (p screenProbe) Init() tea.Cmd { return p.m.Init() }

func (p screenProbe) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if r, ok := msg.(renderRequest); ok {
		r.reply <- ansi.Strip(p.m.Render())
		return p, nil
	}
	_, cmd := p.m.Update(msg)
	return p, cmd
}

func (p screenProbe) View() tea.View { return p.m.View() }
