package ui

import (
	"context"
	"net"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestExplorerRunApp: A on a tool with an app opens its form, and sending it hosts the app
// (the browser is told its URL, which serves the host page); A on a tool without an app,
// or on an app-only tool, says why it does nothing.
func TestExplorerRunApp(t *testing.T) {
	t.Setenv("BROWSER", "true") // the browser: a command that takes the URL and exits
	m, d := demoModel(t, 160, 48)
	d.keys("2")
	for _, c := range []struct{ tool, why string }{
		{"echo", "echo has no app"},
		{"view_dice_reroll", "view_dice_reroll is app-only"},
	} {
		d.selectItem(0, c.tool)
		d.keys("A")
		d.until(10*time.Second, "the status for "+c.tool, func() bool { return strings.Contains(m.status.Text, c.why) })
		if m.explorer.FormOpen() {
			t.Fatalf("A on %s opened a form", c.tool)
		}
	}
	d.selectItem(0, "view_dice")
	offered := false
	for _, b := range m.explorer.Keys() {
		offered = offered || (b.Enabled() && b.Help().Desc == "run app")
	}
	if !offered {
		t.Error("the explorer's keys do not offer the app on view_dice")
	}
	d.keys("A")
	if !m.explorer.FormOpen() || !strings.Contains(plainScreen(m), "app view_dice") {
		t.Fatalf("A did not open the form of the app:\n%s", plainScreen(m))
	}
	d.keys("ctrl+s")
	d.until(30*time.Second, "the app's status", func() bool { return strings.Contains(m.status.Text, "opened in the browser") })
	u := regexp.MustCompile(`http://host-[0-9a-f]+\.localhost:\d+/\?t=[0-9a-f]+`).FindString(m.status.Text)
	if u == "" {
		t.Fatalf("the status names no host page: %q", m.status.Text)
	}
	// The name is under .localhost: a browser reaches it on loopback (RFC 6761).
	var dialer net.Dialer
	c := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		_, port, _ := net.SplitHostPort(addr)
		return dialer.DialContext(ctx, network, "127.0.0.1:"+port)
	}}}
	resp, err := c.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !regexp.MustCompile(`frame-src http://sandbox-[0-9a-f]+\.localhost:\d+;`).MatchString(resp.Header.Get("Content-Security-Policy")) {
		t.Errorf("the host page: %d, CSP %q", resp.StatusCode, resp.Header.Get("Content-Security-Policy"))
	}
}
