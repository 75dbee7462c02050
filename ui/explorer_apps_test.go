package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// appModel runs the model on testdata/appserver, declaring the MCP Apps extension, until
// its lists are in.
func appModel(t *testing.T, w, h int) (*Model, *driver) {
	t.Helper()
	opts := stdioOptions(t, "appserver", sessiontest.BuildAppServer(t), nil, func(c *session.Config) { c.Caps.Apps = true })
	m := NewModel(NewCommon(nil), opts)
	d := newDriver(t, m)
	d.handle(tea.WindowSizeMsg{Width: w, Height: h})
	d.run(m.Init())
	d.until(60*time.Second, "the explorer's lists", func() bool {
		return m.explorer.Loaded() && m.explorer.Items(session.ListTools) > 0
	})
	return m, d
}

// appRowOf is the screen line of the list row naming name.
func appRowOf(scr, name string) string {
	for _, l := range strings.Split(scr, "\n") {
		if f := strings.Fields(strings.TrimPrefix(l, "▶")); len(f) > 0 && f[0] == name {
			return l
		}
	}
	return ""
}

// TestExplorerApps: tools with an app carry the UI mark (✗UI for the deprecated flat key
// or a link that is not ui://), the app-only tool is marked and listed after the model's
// tools, U goes from a tool to its ui:// resource (added to the resources tab when
// resources/list does not name it, and read: metadata and the HTML's summary before the
// HTML) and back to the tools that use it, and the server page counts apps.
func TestExplorerApps(t *testing.T) {
	m, d := appModel(t, 160, 60)
	d.keys("2")
	x := m.explorer
	scr := plainScreen(m)
	for name, mark := range map[string]string{"show": " UI ", "http": "✗UI", "flat": "✗UI", "agent": "✗visibility", "refresh": "app-only"} {
		if row := appRowOf(scr, name); !strings.Contains(row+" ", mark) {
			t.Errorf("row of %s lacks %q: %q", name, mark, row)
		}
	}
	shown := x.Shown(session.ListTools)
	if last := shown[len(shown)-1]; last != "refresh" {
		t.Errorf("the app-only tool is not set apart at the end: last is %q", last)
	}
	d.selectItem(0, "flat")
	if scr := plainScreen(m); !strings.Contains(scr, "MCP App") || !strings.Contains(scr, "deprecated flat") {
		t.Errorf("flat's detail lacks the MCP App section and its warning:\n%s", scr)
	}

	d.selectItem(0, "show")
	d.keys("U")
	it, ok := x.SelectedItem()
	if !ok || it.Kind != session.ListResources || it.URI != "ui://appserver/clean" || it.Unlisted != "show" {
		t.Fatalf("U did not reach the unlisted resource: %+v\n%s", it, plainScreen(m))
	}
	d.until(30*time.Second, "the read of ui://appserver/clean", func() bool {
		c, ok := x.SelectedCall()
		return ok && c.Done && c.LaidOut
	})
	scr = plainScreen(m)
	iApp, iHTML, iDoc := strings.Index(scr, "MCP App"), strings.Index(scr, "│ HTML "), strings.Index(scr, "<!DOCTYPE html>")
	if iApp < 0 || iHTML < 0 || iDoc < 0 || !(iApp < iHTML && iHTML < iDoc) {
		t.Errorf("the summary does not come before the HTML (%d %d %d):\n%s", iApp, iHTML, iDoc, scr)
	}
	for _, want := range []string{"unlisted", "Clean app", "HTML5 document", "1 inline, 1 external", "https://cdn.example.com ✓ resourceDomains",
		"https://api.example.com ✓ connectDomains", "permissions clipboardWrite", "domain      apps.example.com", "border and background"} {
		if !strings.Contains(scr, want) {
			t.Errorf("the read lacks %q:\n%s", want, scr)
		}
	}
	d.keys("U")
	if it, ok := x.SelectedItem(); !ok || it.Kind != session.ListTools || it.Name != "show" {
		t.Errorf("U on the resource did not go back to its first tool: %+v", it)
	}
	d.keys("3")
	d.until(30*time.Second, "the handshake on the server page", func() bool { return strings.Contains(plainScreen(m), "MCP Apps") })
	scr = plainScreen(m)
	for _, want := range []string{"MCP Apps", "declared (io.modelcontextprotocol/ui)", "declared (mimeTypes text/html;profile=mcp-app)",
		"6 ui:// resources linked from 10 tools", "app-only    1: refresh"} {
		if !strings.Contains(scr, want) {
			t.Errorf("the server page lacks %q:\n%s", want, scr)
		}
	}
}

// TestAppJumpCycle: on the demo, U from view_dice_reroll goes to ui://demo/dice.html, from
// the resource to each tool that uses it in turn (the one the user came from first), with
// the right "tool k of n" and no tool index left on the resource; the "reading" status
// ends when the read is answered.
func TestAppJumpCycle(t *testing.T) {
	m, d := demoModel(t, 160, 48)
	d.keys("2")
	x := m.explorer
	d.selectItem(0, "view_dice_reroll")
	const uri = "ui://demo/dice.html"
	status := func() string { return m.status.Text }
	onResource := func(press int) {
		t.Helper()
		it, ok := x.SelectedItem()
		if !ok || it.Kind != session.ListResources || it.URI != uri {
			t.Fatalf("press %d: U did not reach %s: %+v", press, uri, it)
		}
		d.until(statusTimeout/2, "the status to name no tool on the resource", func() bool { return !strings.Contains(status(), "tool ") })
	}
	onTool := func(press int, name, want string) {
		t.Helper()
		it, ok := x.SelectedItem()
		if !ok || it.Kind != session.ListTools || it.Name != name {
			t.Fatalf("press %d: U went to %+v, want tool %s", press, it, name)
		}
		d.until(10*time.Second, want, func() bool { return status() == want })
	}
	d.keys("U")
	onResource(1)
	d.until(statusTimeout/2, "the read answered and its status cleared", func() bool {
		c, ok := x.SelectedCall()
		return ok && c.Done && !strings.Contains(status(), "reading")
	})
	d.keys("U")
	onTool(2, "view_dice_reroll", "tool 2 of 2 that use "+uri)
	d.keys("U")
	onResource(3)
	d.keys("U")
	onTool(4, "view_dice", "tool 1 of 2 that use "+uri)
	d.keys("U")
	onResource(5)
	d.keys("U")
	onTool(6, "view_dice_reroll", "tool 2 of 2 that use "+uri)

	// A press where there is no app says so, and the next jump takes that off the status.
	d.selectItem(0, "echo")
	d.keys("U")
	d.until(10*time.Second, "the no-app status", func() bool { return strings.Contains(status(), "no MCP App here") })
	d.selectItem(0, "view_dice")
	d.keys("U")
	onResource(7)
	d.until(statusTimeout/2, "the no-app status gone", func() bool { return !strings.Contains(status(), "no MCP App") })
}
