package session_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/protocol/events"
	"github.com/mcpscope/mcpscope/session"
)

func findingCodes(fs []protocol.Finding) string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Code+": "+f.Message)
	}
	return strings.Join(out, "\n")
}

func eventType(t *testing.T, types []events.Type, name string) events.Type {
	t.Helper()
	for _, ty := range types {
		if ty.Name == name {
			return ty
		}
	}
	t.Fatalf("no event type %s in %+v", name, types)
	return events.Type{}
}

// TestDemoEvents lists the demo's event types, polls and streams them on each transport,
// resumes a stream from its cursor without losing a tick, and sees truncated: true when
// the floor passes the cursor.
func TestDemoEvents(t *testing.T) {
	for _, tr := range demoTransports(t) {
		t.Run(tr.name, func(t *testing.T) {
			s, rec := connectChecked(t, tr.make(), session.Config{Protocol: "2026-07-28", Caps: session.DefaultCaps()})
			if !s.HasEvents() {
				t.Fatal("the demo does not declare the Events extension")
			}
			types, err := s.EventTypes(testCtx(t))
			if err != nil || len(types) != 3 {
				t.Fatalf("events/list: %d types, %v", len(types), err)
			}
			for _, ty := range types {
				if len(ty.Findings) != 0 {
					t.Errorf("%s: %s", ty.Name, findingCodes(ty.Findings))
				}
			}
			tick := eventType(t, types, "clock.tick")

			// Poll: a null cursor starts from now; later polls bring ticks, all valid.
			tr := events.NewTracker(tick)
			sub := session.EventSub{Name: "clock.tick"}
			res, resp, err := s.PollEvents(testCtx(t), sub, 0, tr)
			if err != nil || res.Cursor == nil || len(res.Events) != 0 {
				t.Fatalf("first poll: %+v %v", res, err)
			}
			for len(res.Events) == 0 {
				sub.Cursor = res.Cursor
				if res, resp, err = s.PollEvents(testCtx(t), sub, 0, tr); err != nil {
					t.Fatalf("poll: %v", err)
				}
				if len(res.Events) == 0 {
					time.Sleep(200 * time.Millisecond)
				}
			}
			if fs := resp.Event.Frame.Findings; len(fs) != 0 {
				t.Fatalf("poll findings:\n%s", findingCodes(fs))
			}

			// Push: active first, then ticks paired to the stream; cancelled after two.
			ctx, cancel := context.WithCancel(testCtx(t))
			var items []session.StreamItem
			stream, _ := s.StreamEvents(ctx, session.EventSub{Name: "clock.tick"}, events.NewTracker(tick), 0, func(it session.StreamItem) {
				items = append(items, it)
				if it.Note.Kind == events.NoteEvent && len(items) >= 3 {
					cancel()
				}
			})
			if len(items) < 3 || items[0].Note.Kind != events.NoteActive {
				t.Fatalf("stream items: %+v", items)
			}
			for _, it := range items {
				if it.Event.Corr.RequestSeq != stream.Request.Seq {
					t.Errorf("%s is not paired to its stream", it.Event.Frame.Method)
				}
				if fs := it.Event.Frame.Findings; len(fs) != 0 {
					t.Errorf("%s: %s", it.Event.Frame.Method, findingCodes(fs))
				}
			}
			last := items[len(items)-1].Note.Occurrence
			// Resume from the last cursor: the next tick is the one after it, none lost.
			ctx, cancel = context.WithCancel(testCtx(t))
			var next *events.Occurrence
			_, _ = s.StreamEvents(ctx, session.EventSub{Name: "clock.tick", Cursor: last.Cursor}, nil, 0, func(it session.StreamItem) {
				if it.Note.Occurrence != nil && next == nil {
					next = it.Note.Occurrence
					cancel()
				}
			})
			var a, b struct{ N int }
			_ = json.Unmarshal(last.Data, &a)
			if next == nil || json.Unmarshal(next.Data, &b) != nil || b.N != a.N+1 {
				t.Fatalf("resumed after tick %d, got %+v", a.N, next)
			}

			// A floor (maxAgeMs) past the cursor: truncated, a finding on the poll's answer.
			zero := "alert-0"
			for {
				res, resp, err = s.PollEvents(testCtx(t), session.EventSub{Name: "alert.raised", Cursor: &zero, MaxAgeMs: 1}, 0, events.NewTracker(eventType(t, types, "alert.raised")))
				if err != nil {
					t.Fatalf("alert poll: %v", err)
				}
				if res.Truncated {
					break
				}
				time.Sleep(200 * time.Millisecond)
			}
			if !strings.Contains(findingCodes(resp.Event.Frame.Findings), protocol.FindEventsTruncated) {
				t.Fatalf("truncated without its finding: %s", findingCodes(resp.Event.Frame.Findings))
			}
			rec.Reached(t, resp.Event.Seq)
		})
	}
}
