package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/protocol/apps"
	"github.com/mcpscope/mcpscope/session/apphost"
	"github.com/mcpscope/mcpscope/session/secret"
)

// appSecret is a known secret inside what an app asks: the dialog masks it.
const appSecret = "SECRET-app-4c1e99"

// TestAppAskDialog drives an app's questions through the program at 80x24, as the apps
// the explorer runs put them: a ui/open-link accepted, a ui/message refused, and a
// question whose context ends (the app's host closed) closes its dialog. The dialog says
// which app asks and what, escaped, masked and wrapped to the screen.
func TestAppAskDialog(t *testing.T) {
	r := newRig(t, "2025-11-25", nil)
	r.m.c.Mask = secret.New([]string{appSecret}, false)
	r.d.handle(tea.WindowSizeMsg{Width: 80, Height: 24})
	const app = "view_dice (ui://demo/dice.html)"
	ask := func(ctx context.Context, method, text string) <-chan bool {
		got := make(chan bool, 1)
		go func() { got <- r.asker.AskApp(ctx, app, apphost.Question{Method: method, Text: text}) }()
		return got
	}
	open := func() bool { return dialogOf[*appAskQueue](r.m) != nil }
	decided := func(got <-chan bool, what string) bool {
		t.Helper()
		select {
		case yes := <-got:
			return yes
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: the app was not answered", what)
			return false
		}
	}
	checkScreen := func(want ...string) {
		t.Helper()
		scr := r.screen()
		for _, w := range want {
			if !strings.Contains(scr, w) {
				t.Errorf("the dialog lacks %q:\n%s", w, scr)
			}
		}
		if strings.Contains(scr, appSecret) {
			t.Errorf("the dialog shows the secret:\n%s", scr)
		}
		for _, l := range strings.Split(scr, "\n") {
			if w := ansi.StringWidth(l); w > 80 {
				t.Errorf("a line of %d cells at 80 columns: %q", w, l)
			}
		}
	}

	// ui/open-link, accepted with Send: the app is told yes.
	url := "https://example.com/docs/" + strings.Repeat("long-path-segment/", 6) + "?key=" + appSecret + "&x=\x1b[31m"
	got := ask(context.Background(), apps.MethodOpenLink, url)
	r.until("the open-link dialog", open)
	checkScreen("asks to open a link", "view_dice", "ui/open-link", "https://example.com/docs/", `\x1b`, "ctrl+s open it in the browser")
	r.keys("ctrl+s")
	if !decided(got, "accept") {
		t.Error("ctrl+s did not accept the link")
	}
	r.until("the dialog to close and the status", func() bool {
		return !open() && strings.Contains(r.m.status.Text, "opening the app's link")
	})

	// ui/message, refused with Decline: the app is told no.
	got = ask(context.Background(), apps.MethodMessage, "Please summarise the dice rolls so far.")
	r.until("the message dialog", open)
	checkScreen("sends a message to the conversation", "ui/message", "Please summarise the dice rolls")
	if !strings.Contains(r.m.c.Keys.Act.Decline.Help().Key, "ctrl+d") {
		t.Fatalf("the test assumes ctrl+d declines")
	}
	r.keys("ctrl+d")
	if decided(got, "refuse") {
		t.Error("ctrl+d accepted the message")
	}
	r.until("the dialog to close", func() bool { return !open() })

	// A question whose context ends: the dialog closes, the app gets no yes.
	ctx, cancel := context.WithCancel(context.Background())
	got = ask(ctx, apps.MethodOpenLink, "https://example.com/later")
	r.until("the third dialog", open)
	cancel()
	if decided(got, "withdrawn") {
		t.Error("a withdrawn question was accepted")
	}
	r.until("the withdrawn dialog to close", func() bool { return !open() })
	if strings.Contains(r.screen(), "example.com/later") {
		t.Errorf("the withdrawn question is still on screen:\n%s", r.screen())
	}
}
