package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/chromedp/chromedp"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// TestExplorerAppAsksInBrowser runs the app of a real MCP Apps server from npm
// (@modelcontextprotocol/server-basic-vanillajs, pinned) from the explorer, in headless
// chromium: the app's "open link" button puts ui/open-link to the user in a dialog, and
// ctrl+s opens the link in the browser ($BROWSER); its "send message" button puts
// ui/message, and ctrl+d refuses it, which the app is told; a message the app cancels
// closes its dialog.
func TestExplorerAppAsksInBrowser(t *testing.T) {
	bctx := sessiontest.Chromium(t)
	index := sessiontest.BasicApp(t)
	node := sessiontest.NodePath(t)
	dir := t.TempDir()
	opened := filepath.Join(dir, "opened")
	browser := filepath.Join(dir, "browser")
	if err := os.WriteFile(browser, []byte("#!/bin/sh\necho \"$1\" >> "+opened+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("BROWSER", browser)

	asker := NewAsker(nil)
	opts := stdioOptions(t, "basic app", node, []string{index, "--stdio"}, func(c *session.Config) {
		c.Responder, c.Caps = asker, session.DefaultCaps()
	})
	opts.Asker = asker
	t.Cleanup(asker.Close)
	m := NewModel(NewCommon(nil), opts)
	d := newDriver(t, m)
	d.handle(tea.WindowSizeMsg{Width: 120, Height: 40})
	d.run(m.Init())
	d.until(60*time.Second, "the tools", func() bool { return m.explorer.ToolSchema("get-time") != nil })
	d.keys("2")
	d.selectItem(0, "get-time")
	d.keys("A")
	if m.explorer.FormOpen() {
		d.keys("ctrl+s")
	}
	d.until(60*time.Second, "the app's status", func() bool { return strings.Contains(m.status.Text, "opened in the browser") })
	host := hostedAppURL(t, m, d)
	if err := chromedp.Do(bctx, chromedp.Navigate(host)); err != nil {
		t.Fatal(err)
	}
	asking := func() bool { return dialogOf[*appAskQueue](m) != nil }

	// ui/open-link: asked, accepted, opened in the browser.
	go clickInApp(t, bctx, "#open-link-btn")
	d.until(60*time.Second, "the open-link dialog", asking)
	scr := plainScreen(m)
	for _, want := range []string{"asks to open a link", "get-time", "ui://", "ui/open-link", "http"} {
		if !strings.Contains(scr, want) {
			t.Errorf("the dialog lacks %q:\n%s", want, scr)
		}
	}
	d.keys("ctrl+s")
	d.until(30*time.Second, "the link opened", func() bool {
		b, _ := os.ReadFile(opened)
		lines := strings.Fields(string(b))
		return len(lines) >= 2 && lines[0] == host && strings.HasPrefix(lines[1], "http") && lines[1] != host
	})
	d.until(30*time.Second, "the dialog closed", func() bool { return !asking() })

	// ui/message: asked, refused; the app gets the refusal.
	go clickInApp(t, bctx, "#send-message-btn")
	d.until(60*time.Second, "the message dialog", asking)
	if scr := plainScreen(m); !strings.Contains(scr, "sends a message to the conversation") || !strings.Contains(scr, "ui/message") {
		t.Errorf("the message dialog:\n%s", scr)
	}
	d.keys("ctrl+d")
	d.until(30*time.Second, "the refusal sent to the app", func() bool { return m.timelineHas("Message sending denied") })
	if asking() {
		t.Error("the dialog stayed open after ctrl+d")
	}

	// ui/message again, left unanswered: the app gives up on it (notifications/cancelled,
	// after 5 s), and its dialog closes by itself; the app gets no answer to it.
	go clickInApp(t, bctx, "#send-message-btn")
	d.until(60*time.Second, "the second message dialog", asking)
	d.until(60*time.Second, "the cancelled question's dialog to close", func() bool {
		return !asking() && strings.Contains(m.status.Text, "no longer waits")
	})
	if n := m.timelineCount("Message sending denied"); n != 1 {
		t.Errorf("%d refusals in the timeline; want 1 (a cancelled request gets no answer)", n)
	}
}

// timelineHas reports whether a frame in the history contains part.
func (m *Model) timelineHas(part string) bool {
	for _, e := range m.hist.Entries() {
		if e.Ev != nil && e.Ev.Frame != nil && strings.Contains(string(e.Ev.Frame.Raw), part) {
			return true
		}
	}
	return false
}

// timelineCount is how many frames in the history contain part.
func (m *Model) timelineCount(part string) int {
	n := 0
	for _, e := range m.hist.Entries() {
		if e.Ev != nil && e.Ev.Frame != nil && strings.Contains(string(e.Ev.Frame.Raw), part) {
			n++
		}
	}
	return n
}

// clickInApp clicks the first enabled element matching selector in the app (the srcdoc
// frame inside the sandbox), waiting for it to be there and enabled.
func clickInApp(t *testing.T, bctx context.Context, selector string) {
	expr := fmt.Sprintf(`(() => { const b = document.querySelector(%q); if (!b || b.disabled) return false; b.click(); return true; })()`, selector)
	deadline := time.Now().Add(30 * time.Second)
	for {
		v, err := sessiontest.EvalInFrame(bctx, "about:srcdoc", expr)
		if err == nil && v == "true" {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("could not click %s in the app: %v %s", selector, err, v)
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}
