package ui

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// TestExplorerEventsTab: against the demo, the explorer has an events tab after the core
// lists with each type's modes and schemas; enter opens the form of the type's
// inputSchema, ctrl+s polls, and the next poll resumes from the cursor of the first; a
// push-only type holds a stream whose notifications are paired to it.
func TestExplorerEventsTab(t *testing.T) {
	url, _ := sessiontest.StartDemoHTTP(t)
	m, d := modernModel(t, url)
	x := m.explorer
	lists := x.Lists()
	at := slices.Index(lists, session.ListEvents)
	if at != len(session.ListKinds) || x.Items(session.ListEvents) != 3 {
		t.Fatalf("events tab: lists %v, %d types", lists, x.Items(session.ListEvents))
	}
	d.selectItem(at, "clock.tick")
	explorerHas(t, explorerScreen(t, x), "Delivery", "✓ poll", "✓ push", "✓ webhook", "Input schema", "Payload schema", "every")
	poll := func() *session.Response {
		prev := 0
		if r := selectedCall(m); r != nil {
			prev = r.ID
		}
		d.keys("enter")
		if !x.FormOpen() || !strings.Contains(x.FormTitle(), "events/poll clock.tick") {
			t.Fatalf("form %q (open: %v)", x.FormTitle(), x.FormOpen())
		}
		d.keys("ctrl+s")
		d.until(30*time.Second, "the poll", func() bool {
			r := selectedCall(m)
			return r != nil && r.ID != prev && r.Done && r.Method == "events/poll"
		})
		r := selectedCall(m)
		if r.Err != nil || len(r.Resp.Event.Frame.Findings) != 0 {
			t.Fatalf("poll: %v %v", r.Err, r.Resp.Event.Frame.Findings)
		}
		return r.Resp
	}
	first := poll()
	if strings.Contains(string(first.Request.Frame.Params), `"cursor":"tick-`) {
		t.Fatalf("the first poll has a cursor: %s", first.Request.Frame.Params)
	}
	second := poll()
	explorerHas(t, explorerScreen(t, x), `"events": [`, `"cursor": "tick-`) // the result pane shows the poll's answer
	if !strings.Contains(string(second.Request.Frame.Params), `"cursor":"tick-`) {
		t.Fatalf("the second poll does not resume from the first's cursor: %s", second.Request.Frame.Params)
	}

	d.selectItem(at, "weather.changed")
	d.keys("enter", "ctrl+s")
	d.until(30*time.Second, "the stream", func() bool { r := selectedCall(m); return r != nil && r.Done && r.Method == "events/stream" })
	r := selectedCall(m)
	paired := 0
	for _, e := range m.hist.Entries() {
		if e.Ev != nil && e.Ev.Frame != nil && strings.HasPrefix(e.Ev.Frame.Method, "notifications/events/") {
			if e.Ev.Corr.RequestSeq != r.Resp.Request.Seq {
				t.Fatalf("%s not paired to its stream", e.Ev.Frame.Method)
			}
			if len(e.Ev.Frame.Findings) != 0 {
				t.Fatalf("%s: %v", e.Ev.Frame.Method, e.Ev.Frame.Findings)
			}
			paired++
		}
	}
	if paired < 2 {
		t.Fatalf("%d stream notifications in the history", paired)
	}
}
