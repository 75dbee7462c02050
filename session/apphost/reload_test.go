package apphost_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/session/apphost"
)

// stream opens the page's event stream as the page does and returns what closes it, as a
// page that goes away does. The host has counted the stream when its answer arrives.
func (p *page) stream() (closeIt func()) {
	p.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.base+"/events", nil)
	if err != nil {
		p.t.Fatal(err)
	}
	resp, err := p.c.Do(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		cancel()
		p.t.Fatalf("GET /events: %v %v", resp, err)
	}
	return func() { cancel(); _ = resp.Body.Close() }
}

// left is the page's pagehide beacon.
func (p *page) left() {
	p.t.Helper()
	if code := status(p.t, p.c, http.MethodPost, p.base+"/closed", "", strings.NewReader("")); code != http.StatusNoContent {
		p.t.Fatalf("POST /closed: %d", code)
	}
}

// TestQuickReloadsKeepTheHost: reloads less than 2 s apart keep the host, each page back
// within the grace of the last going; only a page that stays away closes it. The first
// reload's grace ends while the second reload's page is not yet back: a connected page
// voids every earlier sign of the page going, so that grace's end closes nothing.
func TestQuickReloadsKeepTheHost(t *testing.T) {
	h, _ := hostileApp{name: "reloads", uri: "ui://reloads/app"}.start(t, apphost.Config{})
	p := openPage(t, h)
	open := func() bool {
		select {
		case <-h.Closed():
			return false
		default:
			return true
		}
	}
	t0 := time.Now()
	at := func(d time.Duration) { time.Sleep(time.Until(t0.Add(d))) }

	closeIt := p.stream()
	p.left() // reload 1: the beacon and the stream closing, both at about t0
	closeIt()
	at(100 * time.Millisecond)
	closeIt = p.stream() // the reloaded page is back
	at(1800 * time.Millisecond)
	p.left() // reload 2, 1.8 s after the first
	closeIt()
	at(2400 * time.Millisecond) // past the first reload's grace; the second's runs to 3.8 s
	if !open() {
		t.Fatalf("the host closed %v after two reloads 1.8 s apart (%q): an earlier reload's timer fired", time.Since(t0), h.Why())
	}
	closeIt = p.stream()
	at(4200 * time.Millisecond)
	if !open() {
		t.Fatalf("the host closed with a page connected (%q)", h.Why())
	}
	// The page is left for good: the host closes, saying why.
	p.left()
	closeIt()
	select {
	case <-h.Closed():
	case <-time.After(20 * time.Second):
		t.Fatal("the page was left and the host did not close")
	}
	if h.Why() != apphost.WhyPageLeft && h.Why() != apphost.WhyBrowserGone {
		t.Errorf("Why = %q", h.Why())
	}
}
