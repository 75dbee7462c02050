package apphost_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/apphost"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/session/transport"
)

// TestBrowserKilledEndsTheApp: a browser that dies without a word (killed, crashed) closes
// its connection to the host; with no page back within the grace the host ends, saying
// why on the app lane.
func TestBrowserKilledEndsTheApp(t *testing.T) {
	bctx := sessiontest.Chromium(t)
	streamable, _ := sessiontest.StartDemoHTTP(t)
	s := connect(t, transport.NewStreamableHTTP(transport.HTTPOptions{URL: streamable}))
	tl := watch(t, s)
	tools := toolsOf(t, s)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	h, err := apphost.Start(ctx, apphost.Config{Session: s, Tool: toolNamed(t, tools, "view_dice"), Tools: tools})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close(0)
	if err := chromedp.Do(bctx, chromedp.Navigate(h.URL())); err != nil {
		t.Fatal(err)
	}
	tl.waitSteps(t, 0, handshake...)
	if h.Why() != "" {
		t.Fatalf("Why = %q while the page is open", h.Why())
	}
	if err := chromedp.FromContext(bctx).Browser.Process().Kill(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-h.Closed():
	case <-time.After(20 * time.Second):
		t.Fatal("the browser was killed and the host still serves a page that is gone")
	}
	if h.Why() != apphost.WhyBrowserGone {
		t.Errorf("Why = %q, want %q", h.Why(), apphost.WhyBrowserGone)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		tl.mu.Lock()
		var row *session.Event
		for _, e := range tl.evs {
			if e.Kind == session.EvTransport && e.Note == session.NoteAppEnded {
				row = e
			}
		}
		tl.mu.Unlock()
		if row != nil {
			if row.Lane != session.LaneApp || !strings.Contains(row.Text, "view_dice: "+apphost.WhyBrowserGone) {
				t.Errorf("the end's row: lane %q, text %q", row.Lane, row.Text)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("no row on the app lane says the app ended")
		}
		time.Sleep(20 * time.Millisecond)
	}
}
