package ui

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/traffic"
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
	// The address is a row of the app lane, which y copies whole, and a line of the server page.
	var row *traffic.Entry
	d.until(10*time.Second, "the app's address on the app lane", func() bool {
		for _, e := range m.hist.Entries() {
			if _, _, ok := session.AppHostedURL(e.Ev); ok && e.Ev.Lane == session.LaneApp {
				row = e
			}
		}
		return row != nil
	})
	_, u, _ := session.AppHostedURL(row.Ev)
	if !regexp.MustCompile(`^http://host-[0-9a-f]+\.localhost:\d+/\?t=[0-9a-f]+$`).MatchString(u) {
		t.Fatalf("the app lane's row names no host page: %q", u)
	}
	if got := ansi.Strip(rowText(m.c.Styles, row, 80, m.hist.Start, time.Now())); !strings.Contains(got, "app    view_dice hosted at http://host-") || !strings.HasSuffix(strings.TrimSpace(got), "…") {
		t.Errorf("the row at 80 columns: %q", got)
	}
	noClipboardTool(t)
	d.keys("1")
	if !m.timeline.Select(row) {
		t.Fatal("the app's row is not in the timeline")
	}
	d.keys("t") // transport rows hidden: the address stays
	if m.timeline.Selected() != row {
		t.Fatal("hiding the transport rows hid the app's address")
	}
	d.keys("y")
	d.until(10*time.Second, "the copy's status", func() bool { return strings.Contains(m.status.Text, "(the URL)") })
	if want := fmt.Sprintf("sent %d bytes as OSC 52", len(u)); !strings.Contains(m.status.Text, want) {
		t.Errorf("y on the app's row: %q, want %q", m.status.Text, want)
	}
	if page := strings.Join(m.server.render(), "\n"); !strings.Contains(ansi.Strip(page), "view_dice  "+u) {
		t.Errorf("the server page does not give the address:\n%s", ansi.Strip(page))
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

// hostedAppURL is the address of the newest app hosted, from its row on the app lane.
func hostedAppURL(t *testing.T, m *Model, d *driver) string {
	t.Helper()
	var u string
	d.until(10*time.Second, "the app's address on the app lane", func() bool {
		for _, e := range m.hist.Entries() {
			if _, url, ok := session.AppHostedURL(e.Ev); ok {
				u = url
			}
		}
		return u != ""
	})
	return u
}
