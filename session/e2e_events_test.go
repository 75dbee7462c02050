package session_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/protocol/events"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/session/transport"
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

// TestDemoEventsWebhook holds a webhook subscription on the demo with a local receiver:
// the challenge is answered, deliveries verify and are checked, the subscription is
// refreshed before its TTL and removed at the end; a forged POST is refused.
func TestDemoEventsWebhook(t *testing.T) {
	for _, tr := range demoTransports(t) {
		t.Run(tr.name, func(t *testing.T) {
			s, _ := connectChecked(t, tr.make(), session.Config{Protocol: "2026-07-28", Caps: session.DefaultCaps()})
			types, err := s.EventTypes(testCtx(t))
			if err != nil {
				t.Fatal(err)
			}
			got := make(chan session.Delivery, 64)
			rcv, err := s.NewWebhookReceiver("", "", events.NewTracker(eventType(t, types, "clock.tick")), func(d session.Delivery) { got <- d })
			if err != nil {
				t.Fatal(err)
			}
			defer rcv.Close()
			ctx, cancel := context.WithCancel(testCtx(t))
			results := make(chan error, 8)
			held := make(chan error, 1)
			go func() {
				held <- s.HoldWebhook(ctx, session.EventSub{Name: "clock.tick"}, rcv, 2*time.Second, func(r events.SubscribeResult, resp *session.Response, err error) {
					if err == nil && len(resp.Event.Frame.Findings) != 0 {
						err = errors.New(findingCodes(resp.Event.Frame.Findings))
					}
					results <- err
				})
			}()
			verified, ticks, refreshes := false, 0, 0
			for ticks < 2 || refreshes < 2 {
				select {
				case d := <-got:
					if !d.Verdict.OK || len(d.Findings) != 0 {
						t.Fatalf("delivery %s: %+v %s", d.Body, d.Verdict, findingCodes(d.Findings))
					}
					verified = verified || (d.Envelope != nil && d.Envelope.Type == "verification")
					if d.Occurrence != nil {
						ticks++
					}
				case err := <-results:
					if err != nil {
						t.Fatalf("subscribe: %v", err)
					}
					refreshes++
				case <-testCtx(t).Done():
					t.Fatalf("%d ticks, %d subscribes", ticks, refreshes)
				}
			}
			if !verified {
				t.Error("no verification challenge came before the deliveries")
			}
			cancel()
			if err := <-held; err != nil {
				t.Fatalf("unsubscribe: %v", err)
			}
			// A POST signed with another secret is refused.
			body := `{"eventId":"x","name":"clock.tick","timestamp":"2026-01-01T00:00:00Z","data":{"n":1,"at":"2026-01-01T00:00:00Z"}}`
			req, _ := http.NewRequest(http.MethodPost, rcv.Local, strings.NewReader(body))
			other, _ := events.SecretKey(events.NewSecret())
			ts := strconv.FormatInt(time.Now().Unix(), 10)
			req.Header.Set(events.HeaderID, "x")
			req.Header.Set(events.HeaderTimestamp, ts)
			req.Header.Set(events.HeaderSignature, events.Sign(other, "x", ts, []byte(body)))
			resp, err := http.DefaultClient.Do(req)
			if err != nil || resp.StatusCode != http.StatusUnauthorized {
				t.Fatalf("forged delivery: %v %v", resp, err)
			}
			resp.Body.Close()
			for d := range got {
				if d.Occurrence != nil && d.Verdict.OK {
					continue // a tick in flight before the unsubscribe
				}
				if !strings.Contains(findingCodes(d.Findings), protocol.FindEventsSignature) {
					t.Fatalf("forged delivery findings: %s", findingCodes(d.Findings))
				}
				break
			}
		})
	}
}

// TestDemoEventsUnsubscribeParams: events/unsubscribe names the subscription by its key,
// name, arguments and delivery.url, and carries none of events/subscribe's other members
// (cursor, maxAgeMs, delivery.mode, delivery.secret, ttlMs); like every events/* request it
// declares the extension in the per-request client capabilities.
func TestDemoEventsUnsubscribeParams(t *testing.T) {
	bin := sessiontest.BuildMCPScope(t)
	s, _ := connectChecked(t, transport.NewStdio(transport.StdioOptions{Command: bin, Args: []string{"demo"}}),
		session.Config{Protocol: "2026-07-28", Caps: session.DefaultCaps()})
	rcv, err := s.NewWebhookReceiver("", "", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rcv.Close()
	sub := session.EventSub{Name: "clock.tick", Arguments: json.RawMessage(`{}`), MaxAgeMs: 60_000}
	if _, _, err := s.SubscribeWebhook(testCtx(t), sub, rcv, time.Minute); err != nil {
		t.Fatal(err)
	}
	resp, err := s.UnsubscribeWebhook(testCtx(t), sub, rcv)
	if err != nil {
		t.Fatal(err)
	}
	var p map[string]json.RawMessage
	if err := json.Unmarshal(resp.Request.Frame.Params, &p); err != nil {
		t.Fatal(err)
	}
	// The client declares the extension (an empty settings object) in its per-request
	// capabilities.
	var meta map[string]struct {
		Extensions map[string]json.RawMessage `json:"extensions"`
	}
	_ = json.Unmarshal(p["_meta"], &meta)
	if got := string(meta[protocol.MetaClientCapabilities].Extensions[events.Extension]); got != "{}" {
		t.Errorf("events/unsubscribe declares the extension as %q in %s", got, p["_meta"])
	}
	delete(p, "_meta")
	var keys []string
	for k := range p {
		keys = append(keys, k)
	}
	if len(p) != 3 || p["name"] == nil || p["arguments"] == nil || string(p["delivery"]) != `{"url":"`+rcv.CallbackURL+`"}` {
		t.Fatalf("events/unsubscribe params: %v %s", keys, p["delivery"])
	}
}

func eventServer(t *testing.T, args ...string) (*session.Session, []events.Type) {
	t.Helper()
	bin := sessiontest.BuildEventServer(t)
	s, _ := connectChecked(t, transport.NewStdio(transport.StdioOptions{Command: bin, Args: args}),
		session.Config{Protocol: "auto", Caps: session.DefaultCaps()})
	if !s.HasEvents() {
		t.Fatal("the fixture's extension is not seen")
	}
	types, err := s.EventTypes(testCtx(t))
	if err != nil || len(types) != 2 {
		t.Fatalf("events/list: %+v %v", types, err)
	}
	return s, types
}

// streamFindings holds a push stream until n events arrived and returns their findings.
func streamFindings(t *testing.T, s *session.Session, sub session.EventSub, typ events.Type, n int) string {
	t.Helper()
	ctx, cancel := context.WithCancel(testCtx(t))
	var fs []protocol.Finding
	got := 0
	_, _ = s.StreamEvents(ctx, sub, events.NewTracker(typ), 0, func(it session.StreamItem) {
		fs = append(fs, it.Event.Frame.Findings...)
		if it.Note.Occurrence != nil {
			if got++; got == n {
				cancel()
			}
		}
	})
	if got < n {
		t.Fatalf("%d of %d events", got, n)
	}
	return findingCodes(fs)
}

// TestEventServerFixture runs every mode against testdata/eventserver, a second reading of
// the extension: as written it draws no finding; with -bad its broken payloads, repeated
// eventIds and false truncation are each found.
func TestEventServerFixture(t *testing.T) {
	s, types := eventServer(t)
	inbox, build := eventType(t, types, "inbox.message"), eventType(t, types, "build.finished")
	if fs := streamFindings(t, s, session.EventSub{Name: "inbox.message"}, inbox, 3) + streamFindings(t, s, session.EventSub{Name: "build.finished"}, build, 2); fs != "" {
		t.Fatalf("clean fixture, stream findings:\n%s", fs)
	}
	got := make(chan session.Delivery, 16)
	rcv, err := s.NewWebhookReceiver("", "", events.NewTracker(build), func(d session.Delivery) { got <- d })
	if err != nil {
		t.Fatal(err)
	}
	defer rcv.Close()
	res, resp, err := s.SubscribeWebhook(testCtx(t), session.EventSub{Name: "build.finished"}, rcv, 5*time.Second)
	if err != nil || res.ID == "" || len(resp.Event.Frame.Findings) != 0 {
		t.Fatalf("subscribe: %+v %v", res, err)
	}
	for n := 0; n < 2; {
		d := <-got
		if !d.Verdict.OK || len(d.Findings) != 0 {
			t.Fatalf("delivery: %+v %s", d.Verdict, findingCodes(d.Findings))
		}
		if d.Occurrence != nil {
			n++
		}
	}
	if _, err := s.UnsubscribeWebhook(testCtx(t), session.EventSub{Name: "build.finished"}, rcv); err != nil {
		t.Fatalf("unsubscribe: %v", err)
	}

	bad, _ := eventServer(t, "-bad")
	if fs := streamFindings(t, bad, session.EventSub{Name: "build.finished"}, build, 1); !strings.Contains(fs, protocol.FindEventsPayload) {
		t.Fatalf("-bad payload not found:\n%s", fs)
	}
	start := "aW5ib3g6MA" // the fixture's cursor for position 0
	tr := events.NewTracker(inbox)
	var all []protocol.Finding
	sub := session.EventSub{Name: "inbox.message", Cursor: &start}
	for n := 0; n < 4; {
		res, resp, err := bad.PollEvents(testCtx(t), sub, 0, tr)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, resp.Event.Frame.Findings...)
		n += len(res.Events)
		sub.Cursor = res.Cursor
		time.Sleep(300 * time.Millisecond)
	}
	fs := findingCodes(all)
	if !strings.Contains(fs, protocol.FindEventsTruncated) || !strings.Contains(fs, protocol.FindEventsDuplicate) {
		t.Fatalf("-bad poll findings:\n%s", fs)
	}
	// A null cursor starts from now: the clean fixture returns no events, the broken one
	// replays history, which is found.
	for _, c := range []struct {
		s    *session.Session
		want string
	}{{s, ""}, {bad, protocol.FindEventsCursor}} {
		var res events.PollResult
		var resp *session.Response
		for polled := false; !polled || c.want != "" && len(res.Events) == 0; polled = true {
			if res, resp, err = c.s.PollEvents(testCtx(t), session.EventSub{Name: "inbox.message"}, 0, events.NewTracker(inbox)); err != nil {
				t.Fatal(err)
			}
		}
		if got := findingCodes(resp.Event.Frame.Findings); c.want == "" && got != "" || !strings.Contains(got, c.want) {
			t.Fatalf("poll from now, %d events: %s", len(res.Events), got)
		}
	}
}
