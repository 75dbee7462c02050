package ui

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// keyMsg turns a key name ("enter", "tab", "ctrl+s", "x") into a key press.
func keyMsg(name string) tea.KeyPressMsg {
	special := map[string]tea.KeyPressMsg{
		"enter": {Code: tea.KeyEnter}, "tab": {Code: tea.KeyTab}, "esc": {Code: tea.KeyEscape},
		"shift+tab": {Code: tea.KeyTab, Mod: tea.ModShift}, "up": {Code: tea.KeyUp},
		"down": {Code: tea.KeyDown}, "space": {Code: tea.KeySpace, Text: " "},
		"backspace": {Code: tea.KeyBackspace},
	}
	if k, ok := special[name]; ok {
		return k
	}
	if rest, ok := strings.CutPrefix(name, "ctrl+"); ok {
		return tea.KeyPressMsg{Code: rune(rest[0]), Mod: tea.ModCtrl}
	}
	r := []rune(name)[0]
	return tea.KeyPressMsg{Code: r, Text: name}
}

// rig is a model on a real session with the demo server, its Asker as the Responder,
// driven like the runtime drives it.
type rig struct {
	t     *testing.T
	m     *Model
	d     *driver
	asker *Asker
}

// newRig starts the demo server in revision protocol and waits for its tools.
func newRig(t *testing.T, protocol string, roots []session.Root) *rig {
	t.Helper()
	asker := NewAsker(roots)
	opts := demoOptions(t, func(c *session.Config) {
		c.Protocol, c.Responder, c.Caps = protocol, asker, session.DefaultCaps()
	})
	opts.Asker = asker
	t.Cleanup(asker.Close) // first (cleanups run last-in first-out): a waiting ask would hold up the session's close
	m := NewModel(NewCommon(nil), opts)
	r := &rig{t: t, m: m, d: newDriver(t, m), asker: asker}
	r.d.handle(tea.WindowSizeMsg{Width: 130, Height: 44})
	r.d.run(m.Init())
	r.until("the handshake and the tools list", func() bool {
		return m.state == session.StateReady && m.explorer.ToolSchema("ask_user") != nil
	})
	return r
}

func (r *rig) until(what string, cond func() bool) {
	r.t.Helper()
	r.d.until(60*time.Second, what, cond)
}

// keys presses each named key, running what the model returns.
func (r *rig) keys(names ...string) {
	for _, n := range names {
		r.d.handle(keyMsg(n))
	}
}

// typeText types s.
func (r *rig) typeText(s string) {
	for _, c := range s {
		r.d.handle(keyMsg(string(c)))
	}
}

// callTool calls a tool the way the explorer does (following input_required chains), in
// the background.
func (r *rig) callTool(name, args string) {
	s := r.m.sess
	go func() {
		_, _ = s.Call(context.Background(), "tools/call", json.RawMessage(`{"name":"`+name+`","arguments":`+args+`}`))
	}()
}

// frame is the newest frame in the history whose bytes contain every one of parts.
func (r *rig) frame(parts ...string) *traffic.Entry {
	es := r.m.hist.Entries()
	for i := len(es) - 1; i >= 0; i-- {
		e := es[i]
		if e.Ev == nil || e.Ev.Frame == nil {
			continue
		}
		all := true
		for _, p := range parts {
			all = all && bytes.Contains(e.Ev.Frame.Raw, []byte(p))
		}
		if all {
			return e
		}
	}
	return nil
}

func (r *rig) screen() string { return plainScreen(r.m) }

// TestAskElicitationForm answers the demo's ask_user form in both eras: a dialog over the
// page with a timer, filled with key presses, accepted; in 2026-07-28 the input_required
// retry chain shows as one call.
func TestAskElicitationForm(t *testing.T) {
	for _, rev := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(rev, func(t *testing.T) {
			r := newRig(t, rev, nil)
			r.callTool("ask_user", `{"message":"Who are you?"}`)
			r.until("the elicitation dialog", func() bool {
				return strings.Contains(r.screen(), "The server asks you to fill in a form")
			})
			scr := r.screen()
			for _, want := range []string{"Who are you?", "waiting", "Your name", "ctrl+d decline"} {
				if !strings.Contains(scr, want) {
					t.Errorf("the dialog lacks %q:\n%s", want, scr)
				}
			}
			if rev == "2026-07-28" && !strings.Contains(scr, `input request "profile"`) {
				t.Errorf("the dialog does not say it answers an input request:\n%s", scr)
			}
			r.keys("enter")
			r.typeText("Ada")
			r.keys("enter", "ctrl+s")
			r.until("the tool's answer", func() bool { return r.frame("Thanks, Ada") != nil })
			if waitingAsks(r.m) != 0 || strings.Contains(r.screen(), "fill in a form") {
				t.Errorf("the dialog stayed after the answer:\n%s", r.screen())
			}
			if rev == "2025-11-25" {
				if e := r.frame(`"action":"accept"`); e == nil || e.Ev.Dir != protocol.ClientToServer {
					t.Errorf("no elicitation result was sent")
				}
				return
			}
			final := r.frame("Thanks, Ada")
			if final.Chain == nil || final.Round != 2 || len(final.Chain.Members) != 4 {
				t.Fatalf("the final result is not round 2 of a 4-row chain: %+v", final.Chain)
			}
			first := final.Chain.Members[0]
			m := r.m
			m.timeline.Select(first)
			r.until("the chain marks on the rows", func() bool {
				scr := r.screen()
				return screenRow(scr, "↻1", "tools/call", "req") != "" && screenRow(scr, "↻2", "tools/call", "req") != ""
			})
			for _, want := range final.Chain.Members[1:] {
				r.keys("p")
				if m.timeline.Selected() != want {
					t.Fatalf("the pair key does not walk the chain in order")
				}
			}
			r.keys("p")
			if m.timeline.Selected() != first {
				t.Errorf("the pair key does not wrap to the chain's first request")
			}
			r.keys("enter")
			r.until("the chain in the detail", func() bool {
				scr := r.screen()
				return strings.Contains(scr, "one call in 2 rounds") && strings.Contains(scr, "resultType input_required") &&
					strings.Contains(scr, "asks profile (elicitation/create)") && strings.Contains(scr, "answers profile")
			})
		})
	}
}

// TestAskSampling answers the demo's summarize with the user's own reply.
func TestAskSampling(t *testing.T) {
	r := newRig(t, "2025-11-25", nil)
	r.callTool("summarize", `{"text":"MCP connects models to tools."}`)
	r.until("the sampling dialog", func() bool {
		return strings.Contains(r.screen(), "The server asks your model for a reply")
	})
	scr := r.screen()
	for _, want := range []string{"System prompt: You are a concise assistant.", "hint claude-haiku", "max tokens 200",
		"user: Summarise the following text", "MCP connects models to tools.", "Stop reason", "mcpscope-user"} {
		if !strings.Contains(scr, want) {
			t.Errorf("the sampling dialog lacks %q:\n%s", want, scr)
		}
	}
	// The dialog keeps the screen intact at any size.
	for _, size := range [][2]int{{80, 24}, {160, 48}, {130, 44}} {
		r.d.handle(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		lines := strings.Split(r.m.Render(), "\n")
		if len(lines) != size[1] {
			t.Errorf("%dx%d: %d lines", size[0], size[1], len(lines))
		}
		for i, l := range lines {
			if w := ansi.StringWidth(l); w != size[0] {
				t.Errorf("%dx%d: line %d is %d wide: %q", size[0], size[1], i, w, ansi.Strip(l))
			}
		}
	}
	r.typeText("Models meet tools.")
	r.keys("tab", "right", "ctrl+s")
	r.until("the summary", func() bool {
		return r.frame("Summary by mcpscope-user, stop reason stopSequence", "Models meet tools.") != nil
	})

	// Declining is an error response.
	r.callTool("summarize", `{}`)
	r.until("the second sampling dialog", func() bool { return waitingAsks(r.m) == 1 })
	r.keys("ctrl+d")
	r.until("the rejection on the wire", func() bool { return r.frame("User rejected sampling request") != nil })
}

// TestAskRoots answers roots/list from the roots without a dialog, edits them, and tells
// the server they changed.
func TestAskRoots(t *testing.T) {
	r := newRig(t, "2025-11-25", []session.Root{{URI: "file:///srv/project", Name: "project"}})
	r.callTool("list_roots", `{}`)
	r.until("the roots in the tool's answer", func() bool { return r.frame("project: file:///srv/project") != nil })
	if waitingAsks(r.m) != 0 {
		t.Fatalf("roots/list opened a dialog")
	}
	r.keys("ctrl+o")
	r.until("the roots editor", func() bool { return strings.Contains(r.screen(), "what roots/list answers with") })
	r.keys("a")
	r.typeText("/tmp/other")
	r.keys("tab")
	r.typeText("scratch")
	r.keys("enter")
	r.until("the list_changed notification", func() bool { return r.frame("notifications/roots/list_changed") != nil })
	// Edit starts in the Path/URI field, as Add does: the first tab moves to the Name.
	r.keys("up", "enter")
	if rt := dialogOf[*rootsEditor](r.m); rt == nil || !rt.editing || rt.field != 0 || rt.path.Value() != "file:///srv/project" {
		t.Fatalf("the Edit dialog does not start in the Path/URI field holding the root's URI")
	}
	r.keys("tab")
	if dialogOf[*rootsEditor](r.m).field != 1 {
		t.Fatalf("the first tab in the Edit dialog does not move to the Name field")
	}
	for range len("project") {
		r.keys("backspace")
	}
	r.typeText("main")
	r.keys("enter", "esc")
	if got := r.asker.Roots(); len(got) != 2 || got[0].Name != "main" || got[1] != (session.Root{URI: "file:///tmp/other", Name: "scratch"}) {
		t.Fatalf("roots after editing: %+v", got)
	}
	r.callTool("list_roots", `{}`)
	r.until("the edited roots in the tool's answer", func() bool {
		return r.frame("main: file:///srv/project", "scratch: file:///tmp/other") != nil
	})
}

// TestAskWithdrawn closes the dialog when the server cancels its request.
func TestAskWithdrawn(t *testing.T) {
	r := newRig(t, "2025-11-25", nil)
	r.callTool("ask_user", `{}`)
	r.until("the elicitation dialog and its request", func() bool {
		return waitingAsks(r.m) == 1 && r.frame("elicitation/create") != nil
	})
	s := r.m.sess
	// The request the tool waits on is cancelled from the client side: the session ends
	// the Responder's context exactly as a notifications/cancelled from the server does.
	go s.Close()
	r.until("the dialog to close", func() bool { return waitingAsks(r.m) == 0 })
}

// TestAskURL shows a URL-mode elicitation's domain prominently, warns about plain http and
// look-alike hosts, and accepts.
func TestAskURL(t *testing.T) {
	r := newRig(t, "2025-11-25", nil)
	r.callTool("ask_url", `{}`)
	r.until("the URL dialog", func() bool { return strings.Contains(r.screen(), "The server asks you to open a page") })
	scr := r.screen()
	if !strings.Contains(scr, "Domain  example.com") || strings.Contains(scr, "not https") || !strings.Contains(scr, "o open in browser") {
		t.Errorf("the URL dialog:\n%s", scr)
	}
	r.keys("enter")
	r.until("the tool's answer", func() bool { return r.frame("You agreed to open the page") != nil })

	c := NewCommon(nil)
	m := newTimelineModel(t, Options{}, 100, 30)
	q := &Ask{Req: &session.ServerRequest{Method: "elicitation/create",
		Params: json.RawMessage(`{"mode":"url","message":"Log in","url":"http://ex\u0430mple.com/login","elicitationId":"e1"}`)}}
	m.pushDialog(&askQueue{asks: []*askDialog{newAskDialog(c, q)}})
	scr = plainScreen(m)
	for _, want := range []string{"⚠ not https", "characters outside ASCII", "Domain  exаmple.com"} {
		if !strings.Contains(scr, want) {
			t.Errorf("the dialog lacks %q:\n%s", want, scr)
		}
	}
}
