package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// newRootsRig is newRig with the roots capability declared or not.
func newRootsRig(t *testing.T, declare bool, roots []session.Root) *rig {
	t.Helper()
	asker := NewAsker(roots)
	opts := demoOptions(t, func(c *session.Config) {
		c.Protocol, c.Responder, c.Caps = "2025-11-25", asker, session.DefaultCaps()
		c.Caps.Roots, c.Caps.RootsListChanged = declare, declare
	})
	opts.Asker = asker
	t.Cleanup(asker.Close)
	m := NewModel(NewCommon(nil), opts)
	r := &rig{t: t, m: m, d: newDriver(t, m), asker: asker}
	r.d.handle(tea.WindowSizeMsg{Width: 130, Height: 44})
	r.d.run(m.Init())
	r.until("the handshake and the tools list", func() bool {
		return m.state == session.StateReady && m.explorer.ToolSchema("list_roots") != nil
	})
	return r
}

// rowOf is the plain timeline row of e.
func rowOf(m *Model, e *traffic.Entry) string {
	return ansi.Strip(rowText(m.c.Styles, e, 200, time.Time{}, time.Now()))
}

// TestRootsNotDeclaredShown: without roots declared the server page and the roots editor say
// so, and a root added in the editor waits for a restart instead of a list_changed the
// session may not send.
func TestRootsNotDeclaredShown(t *testing.T) {
	r := newRootsRig(t, false, nil)
	r.keys("3")
	r.until("the server page's roots section", func() bool { return strings.Contains(r.screen(), "Roots offered") })
	if scr := r.screen(); !strings.Contains(scr, "not declared: the server uses the directories its own command line names") {
		t.Errorf("the server page:\n%s", scr)
	}
	r.keys("1", "ctrl+o")
	r.until("the roots editor", func() bool { return strings.Contains(r.screen(), "what roots/list answers with") })
	if scr := r.screen(); !strings.Contains(scr, "not declared: the server uses") {
		t.Errorf("the roots editor does not say roots are not declared:\n%s", scr)
	}
	r.keys("a")
	r.typeText("/tmp/other")
	r.keys("enter")
	r.until("the editor's note", func() bool { return strings.Contains(r.screen(), "1 root(s) ready for the next one") })
	r.until("the status's word about the restart", func() bool {
		return strings.Contains(r.m.status.Text, "R restarts the server with them declared")
	})
	if r.frame("notifications/roots/list_changed") != nil {
		t.Errorf("list_changed was sent for roots the session did not declare")
	}
	r.keys("esc", "3")
	if scr := r.screen(); !strings.Contains(scr, "file:///tmp/other") || !strings.Contains(scr, "R restarts the server with roots declared") {
		t.Errorf("the server page after adding a root:\n%s", scr)
	}
}

// TestRootsAnswerNoted: the row of each roots/list answer says what was answered.
func TestRootsAnswerNoted(t *testing.T) {
	for _, tc := range []struct {
		roots []session.Root
		want  string
	}{
		{nil, "answered [] (no roots offered)"},
		{[]session.Root{{URI: "file:///srv/project", Name: "project"}}, "answered 1 root: project file:///srv/project"},
	} {
		r := newRootsRig(t, true, tc.roots)
		r.callTool("list_roots", `{}`)
		r.until("the tool's answer", func() bool { return r.frame("The client has") != nil || r.frame("no roots") != nil })
		var e *traffic.Entry
		for _, x := range r.m.hist.Entries() {
			if x.Ev != nil && x.Ev.Frame != nil && x.Ev.Frame.Result != nil && traffic.EntryMethod(x) == methodRoots {
				e = x
			}
		}
		if e == nil {
			t.Fatalf("no answer to roots/list in the history")
		}
		if got := rowOf(r.m, e); !strings.Contains(got, "roots/list "+tc.want) {
			t.Errorf("the answer's row: %q, want %q", got, tc.want)
		}
		r.keys("3")
		if scr := r.screen(); !strings.Contains(scr, "declared; roots/list answers") {
			t.Errorf("the server page:\n%s", scr)
		}
	}
}
