package serve

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// tickN is the number of a clock.tick occurrence.
func tickN(t *testing.T, e EventOut) int64 {
	t.Helper()
	var d struct {
		N int64 `json:"n"`
	}
	if err := json.Unmarshal(e.Data, &d); err != nil || d.N == 0 || e.EventID == "" || e.Seq == 0 {
		t.Fatalf("not a tick: %+v (%v)", e, err)
	}
	return d.N
}

// TestEventsAsTools: on the demo (stdio, 2026-07-28), events_list shows clock.tick; a poll
// from now returns a cursor, and polls with it return later ticks; a stream returns at
// most max_events and a cursor from which the next stream resumes at the next tick; a
// short wait_ms ends a read with what arrived; the notifications are in the timeline.
func TestEventsAsTools(t *testing.T) {
	bin := sessiontest.BuildMCPScope(t)
	s := New(Options{Open: eraOpener, RecordDir: t.TempDir()})
	defer s.Close()
	cs := inMemory(t, s)
	var c Connected
	callInto(t, cs, "connect", map[string]any{"command": []string{bin, "demo"}, "protocol": "2026-07-28"}, &c)

	var list EventsListOut
	callInto(t, cs, "events_list", map[string]any{"session": c.Session}, &list)
	found := false
	for _, ty := range list.Types {
		if ty.Name == "clock.tick" {
			found = strings.Contains(strings.Join(ty.Delivery, ","), "poll") && len(ty.PayloadSchema) > 0 && len(ty.Problems) == 0
		}
	}
	if !list.Declared || !found {
		t.Fatalf("events_list: %+v", list)
	}

	tick := map[string]any{"session": c.Session, "name": "clock.tick"}
	with := func(extra map[string]any) map[string]any {
		m := map[string]any{}
		for k, v := range tick {
			m[k] = v
		}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	var poll EventsPollOut
	callInto(t, cs, "events_poll", tick, &poll)
	if poll.Cursor == nil || poll.Exchange.ResponseSeq == 0 {
		t.Fatalf("first poll: %+v", poll)
	}
	// pollUntil polls from cursor until ticks come; the ticks are after after.
	pollUntil := func(cursor string, after int64) (int64, string) {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		for {
			var p EventsPollOut
			callInto(t, cs, "events_poll", with(map[string]any{"cursor": cursor}), &p)
			if len(p.Exchange.Findings) != 0 || p.Exchange.Error != nil || p.Cursor == nil {
				t.Fatalf("poll: %+v", p)
			}
			if len(p.Events) > 0 {
				n := tickN(t, p.Events[0])
				if n <= after {
					t.Fatalf("poll after tick %d returned tick %d again", after, n)
				}
				return tickN(t, p.Events[len(p.Events)-1]), *p.Cursor
			}
			if time.Now().After(deadline) {
				t.Fatal("no tick polled")
			}
			time.Sleep(300 * time.Millisecond)
		}
	}
	n1, cur := pollUntil(*poll.Cursor, 0)
	n2, _ := pollUntil(cur, n1)
	if n2 <= n1 {
		t.Errorf("the second poll's ticks (to %d) are not after the first's (%d)", n2, n1)
	}

	var st EventsStreamOut
	callInto(t, cs, "events_stream", with(map[string]any{"max_events": 2, "wait_ms": 20000}), &st)
	if len(st.Events) != 2 || st.Ended != "max_events" || st.Cursor == nil || st.RequestSeq == 0 || len(st.Findings) != 0 {
		t.Fatalf("stream: %+v", st)
	}
	last := tickN(t, st.Events[1])
	var next EventsStreamOut
	callInto(t, cs, "events_stream", with(map[string]any{"cursor": *st.Cursor, "max_events": 1, "wait_ms": 20000}), &next)
	if len(next.Events) != 1 || tickN(t, next.Events[0]) != last+1 {
		t.Errorf("stream resumed after tick %d: %+v", last, next)
	}
	var short EventsStreamOut
	callInto(t, cs, "events_stream", with(map[string]any{"max_events": 100, "wait_ms": 1}), &short)
	if short.Ended != "wait_ms" || len(short.Events) >= 100 {
		t.Errorf("stream for 1 ms: %+v", short)
	}

	var tl Timeline
	callInto(t, cs, "timeline", map[string]any{"session": c.Session, "query": "method:notifications/events/event"}, &tl)
	if len(tl.Events) < 3 || !strings.Contains(tl.Events[0].Body, "clock.tick") {
		t.Errorf("the stream's events are not in the timeline: %+v", tl)
	}

	// weather.changed offers no poll: the server's error is the exchange's, the cursor given
	// comes back to poll again from.
	var refused EventsPollOut
	callInto(t, cs, "events_poll", map[string]any{"session": c.Session, "name": "weather.changed", "cursor": "w-1"}, &refused)
	if refused.Exchange.Error == nil || refused.Cursor == nil || *refused.Cursor != "w-1" || len(refused.Events) != 0 {
		t.Errorf("poll of a push-only type: %+v", refused)
	}

	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "events_stream", Arguments: with(map[string]any{"max_events": 101})})
	if err != nil || !res.IsError {
		t.Errorf("max_events 101 accepted: %v %+v", err, res)
	}
}
