package ui

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/internal/common"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// compose opens the composer and sends method with params.
func (r *rig) compose(method, params string) {
	r.keys(":")
	r.typeText(method)
	r.keys("tab")
	r.typeText(params)
	r.keys("ctrl+s")
}

// TestComposeRequest sends a method with params, then raw text: valid JSON-RPC paired with
// its response, and invalid text sent byte for byte.
func TestComposeRequest(t *testing.T) {
	r := newRig(t, "2025-11-25", nil)
	r.compose("tools/call", `{"name":"echo","arguments":{"text":"composed"}}`)
	r.until("the composed call's answer", func() bool {
		e := r.frame(`"text":"composed"`)
		return e != nil && e.Ev.Dir == protocol.ServerToClient
	})
	req := r.frame(`"method":"tools/call"`, `"composed"`)
	if string(req.Ev.Frame.Params) != `{"name":"echo","arguments":{"text":"composed"}}` {
		t.Errorf("the params were not sent as written: %s", req.Ev.Frame.Params)
	}

	// Params that are not JSON are refused, with the way to send them anyway.
	r.compose("ping", `{oops`)
	if c := dialogOf[*composer](r.m); c == nil || !strings.Contains(c.problem, "ctrl+t sends raw text") {
		t.Fatalf("invalid params were not refused")
	}
	r.keys("esc")

	// Raw mode starts from the method typed; sent as it is, its response is paired.
	r.keys(":")
	r.typeText("ping")
	r.keys("ctrl+t")
	if got := dialogOf[*composer](r.m).rawText.Value(); got != `{"jsonrpc":"2.0","id":"mcpscope-raw-1","method":"ping"}` {
		t.Fatalf("raw mode starts from %q", got)
	}
	r.keys("ctrl+s")
	r.until("the raw ping's response", func() bool {
		e := r.frame(`"id":"mcpscope-raw-1"`, `"result"`)
		return e != nil && e.Pair != nil && e.Pair.Ev.Dir == protocol.ClientToServer
	})

	bad := `{"jsonrpc":"2.0","id":77,"method":`
	r.keys(":", "ctrl+t")
	for range len(dialogOf[*composer](r.m).rawText.Value()) {
		r.keys("backspace")
	}
	r.typeText(bad)
	r.keys("ctrl+s")
	r.until("the invalid frame on the wire", func() bool {
		e := r.frame(bad)
		return e != nil && string(e.Ev.Frame.Raw) == bad && e.Ev.Frame.Kind == protocol.KindInvalid
	})
	r.until("the invalid frame's row", func() bool { return screenRow(r.screen(), "→", "bad", `"id":77`) != "" })
}

// TestResendAndEdit re-sends a recorded tools/call as it was (a new id), and edits one in
// the tool's form first.
func TestResendAndEdit(t *testing.T) {
	r := newRig(t, "2025-11-25", nil)
	r.compose("tools/call", `{"name":"echo","arguments":{"text":"again"}}`)
	r.until("the call's response", func() bool {
		e := r.frame(`"method":"tools/call"`, `"again"`)
		return e != nil && e.Answered
	})
	first := r.frame(`"method":"tools/call"`, `"again"`)
	r.m.timeline.Select(first)
	r.keys("r")
	r.until("the re-sent call answered", func() bool {
		e := r.frame(`"method":"tools/call"`, `"again"`)
		return e != first && e.Answered
	})
	again := r.frame(`"method":"tools/call"`, `"again"`)
	if again.Ev.Frame.ID.String() == first.Ev.Frame.ID.String() || string(again.Ev.Frame.Params) != string(first.Ev.Frame.Params) {
		t.Errorf("re-sent %s %s, first was %s %s", again.Ev.Frame.ID, again.Ev.Frame.Params, first.Ev.Frame.ID, first.Ev.Frame.Params)
	}

	r.m.timeline.Select(first)
	r.keys("E")
	c := dialogOf[*composer](r.m)
	if c == nil || c.form == nil {
		t.Fatalf("E on a tools/call does not open the tool's form")
	}
	if v, _ := c.form.Value(); !strings.Contains(string(v), `"again"`) {
		t.Fatalf("the form is not filled with the recorded arguments: %s", v)
	}
	r.keys("down", "space", "ctrl+s") // uppercase: true
	r.until("the edited call's answer", func() bool { return r.frame("AGAIN") != nil })
	edited := r.frame(`"method":"tools/call"`, `"uppercase":true`)
	var p struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if edited == nil || json.Unmarshal(edited.Ev.Frame.Params, &p) != nil || p.Name != "echo" {
		t.Fatalf("the edited call was not sent as tools/call echo")
	}

	// Anything else opens in the composer, filled.
	list := r.frame(`"method":"tools/list"`)
	r.m.timeline.Select(list)
	r.keys("E")
	if c := dialogOf[*composer](r.m); c == nil || c.form != nil || c.method.Value() != "tools/list" {
		t.Fatalf("E on tools/list does not open the composer with its method")
	}
}

// TestCancelRequest cancels an in-flight call with c: the row says so, and the server is
// told with notifications/cancelled.
func TestCancelRequest(t *testing.T) {
	r := newRig(t, "2025-11-25", nil)
	r.compose("tools/call", `{"name":"slow","arguments":{"seconds":60,"steps":60},"_meta":{"progressToken":"slow-1"}}`)
	var call *traffic.Entry
	r.until("the slow call in flight with progress", func() bool {
		call = r.frame(`"method":"tools/call"`, `"slow"`)
		return call != nil && call.Waiting() && call.Progress != nil
	})
	if !strings.Contains(r.screen(), "/60") {
		t.Errorf("the progress does not show on the call's row:\n%s", r.screen())
	}
	r.m.timeline.Select(call)
	r.keys("c")
	r.until("the cancellation", func() bool {
		return strings.HasPrefix(call.Failed, "cancelled") && r.frame("notifications/cancelled", "cancelled by the user") != nil
	})
	r.until("the cancelled row", func() bool { return strings.Contains(screenRow(r.screen(), "→ req", "tools/call"), "✗ cancel") })
	r.keys("c")
	if r.m.status.Text == "" {
		r.until("the status", func() bool { return strings.Contains(r.m.status.Text, "not in flight") })
	}
}

// TestLateResponseRow marks a response that came after its request was cancelled.
func TestLateResponseRow(t *testing.T) {
	m := newTimelineModel(t, Options{}, 120, 20)
	w := newEvWire()
	call := w.req(dirOut, 4, "tools/call", `{}`)
	cancel := w.note(dirOut, "notifications/cancelled", `{"requestId":4,"reason":"cancelled by the user"}`, session.Correlation{RequestSeq: call.Seq})
	late := w.res(time.Second, call, `{"content":[]}`)
	late.Frame.Findings = append(late.Frame.Findings, protocol.NewFinding(protocol.FindLateResponse, "a response to request 4 after mcpscope gave up on it"))
	feedEvents(m, call, cancel, late)
	scr := plainScreen(m)
	if !strings.Contains(screenRow(scr, "→ req", "#4"), "✗ cancel") {
		t.Errorf("the cancelled request's row:\n%s", scr)
	}
	if row := screenRow(scr, "← res", "#4"); !strings.Contains(row, "late: after mcpscope gave up") || !strings.Contains(row, "⚠1") {
		t.Errorf("the late response's row: %q", row)
	}
}

// TestLogLevel sets the server's log level from the picker; log messages show their level,
// logger and data, coloured by level.
func TestLogLevel(t *testing.T) {
	r := newRig(t, "2025-11-25", nil)
	r.keys("L", "down", "down", "enter") // info → warning
	r.until("logging/setLevel warning answered", func() bool {
		e := r.frame(`"method":"logging/setLevel"`, `"warning"`)
		return e != nil && e.Answered
	})
	r.compose("tools/call", `{"name":"log","arguments":{"message":"hello","logger":"demo"}}`)
	r.until("the log rows", func() bool { return r.frame(`"level":"emergency"`) != nil })
	r.until("the rows on screen", func() bool { return screenRow(r.screen(), "notifications/message emergency [demo]") != "" })
	scr := r.screen()
	if screenRow(scr, "notifications/message warning [demo]") == "" || screenRow(scr, "notifications/message info") != "" {
		t.Errorf("the log rows after setting warning:\n%s", scr)
	}
	s := r.m.c.Styles
	for level, p := range map[string]common.Painter{"warning": s.Rows().Finding, "error": s.Rows().Err} {
		e := r.frame(`"level":"` + level + `"`)
		row := rowText(s, e, 120, r.m.hist.Start, r.m.timeline.Now)
		if !strings.Contains(row, p.Pre+"notifications/message "+level) {
			t.Errorf("the %s row is not in its colour: %q", level, row)
		}
	}
}

// TestLogLevelStateless sets the level for the per-request _meta in 2026-07-28: no
// logging/setLevel is sent, and the next request carries it.
func TestLogLevelStateless(t *testing.T) {
	r := newRig(t, "2026-07-28", nil)
	r.keys("L", "up", "enter") // info → debug
	r.until("the status", func() bool { return strings.Contains(r.m.status.Text, "_meta") })
	if r.frame(`"method":"logging/setLevel"`) != nil {
		t.Errorf("logging/setLevel was sent in 2026-07-28")
	}
	r.callTool("echo", `{"text":"x"}`)
	r.until("a request with the level in its _meta", func() bool { return r.frame(`"method":"tools/call"`, `"debug"`) != nil })
}
