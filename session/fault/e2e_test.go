package fault_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/fault"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/session/transport"
)

// everythingRules are one rule per action, each on its own tool of the reference server.
var everythingRules = []string{
	`delay=400ms tool:=echo dir:in`,
	`error=-32603:"sum is down" tool:=get-sum`,
	`drop method:=notifications/progress`,
	`throttle=4000/s tool:=get-tiny-image dir:in`,
	`corrupt=truncate tool:=get-structured-content dir:in`,
	`disconnect tool:=get-env`,
}

// TestFaultsEverything runs each action against @modelcontextprotocol/server-everything,
// over stdio and Streamable HTTP, through the session: the client sees exactly the fault
// (the delay measured, the error's code and message answered by mcpscope, no progress, the
// slow image, the truncated frame, the closed connection) and each fault is a note.
func TestFaultsEverything(t *testing.T) {
	node, index := sessiontest.NodePath(t), sessiontest.Everything(t)
	transports := []struct {
		name string
		make func() transport.Transport
	}{
		{"stdio", func() transport.Transport {
			return transport.NewStdio(transport.StdioOptions{Command: node, Args: []string{index, "stdio"}})
		}},
		{"http", func() transport.Transport {
			return transport.NewStreamableHTTP(transport.HTTPOptions{URL: sessiontest.StartEverythingHTTP(t, "streamableHttp") + "/mcp"})
		}},
	}
	rules, err := fault.ParseRules(everythingRules, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range transports {
		t.Run(tt.name, func(t *testing.T) {
			s := session.New(session.Config{Protocol: "auto", Caps: session.DefaultCaps(), Responder: &session.Headless{},
				Transport: fault.Wrap(tt.make(), fault.NewEngine(rules, 1))})
			rec := sessiontest.Record(t, s)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			if err := s.Connect(ctx); err != nil {
				t.Fatalf("connect: %v\n%s", err, rec.Timeline())
			}
			defer s.Close()
			call := func(tool string, args map[string]any, opts ...session.CallOption) (*session.Response, time.Duration, error) {
				if args == nil {
					args = map[string]any{}
				}
				start := time.Now()
				resp, err := s.Call(ctx, "tools/call", map[string]any{"name": tool, "arguments": args}, opts...)
				return resp, time.Since(start), err
			}

			if resp, took, err := call("echo", map[string]any{"message": "hi"}); err != nil || took < 400*time.Millisecond || !strings.Contains(string(resp.Result), "hi") {
				t.Errorf("delay: %v after %s", err, took)
			}

			resp, _, err := call("get-sum", map[string]any{"a": 1, "b": 2})
			var rpc *session.RPCError
			if !errors.As(err, &rpc) || rpc.Code != -32603 || rpc.Message != "sum is down" {
				t.Errorf("error: %v", err)
			} else if resp == nil || resp.Event.Recv.Via != fault.ViaMcpscope {
				t.Errorf("error: the answer did not come via mcpscope: %+v", resp)
			}

			resp, _, err = call("trigger-long-running-operation", map[string]any{"duration": 0.3, "steps": 3}, session.WithProgress())
			if err != nil {
				t.Errorf("long running operation: %v", err)
			} else if n := len(rec.FindAll(func(e *session.Event) bool {
				return sessiontest.Received("notifications/progress")(e) && e.Seq < resp.Event.Seq
			})); n != 0 {
				t.Errorf("drop: %d progress notifications reached the session", n)
			}

			resp, took, err := call("get-tiny-image", nil)
			if err != nil {
				t.Errorf("throttle: %v", err)
			} else if want := time.Duration(float64(len(resp.Event.Frame.Raw)) / 4000 * float64(time.Second)); took < want {
				t.Errorf("throttle: %d bytes in %s, want at least %s at 4000/s", len(resp.Event.Frame.Raw), took, want)
			}

			_, _, err = call("get-structured-content", map[string]any{"location": "New York"}, session.WithTimeout(2*time.Second))
			if err == nil {
				t.Error("corrupt: the call with a truncated answer succeeded")
			}
			if rec.Find(func(e *session.Event) bool {
				return e.Kind == session.EvFrame && e.Dir == protocol.ServerToClient && e.Frame.Kind == protocol.KindInvalid
			}) == nil {
				t.Errorf("corrupt: no invalid frame received\n%s", rec.Timeline())
			}

			if _, _, err = call("get-env", nil, session.WithTimeout(5*time.Second)); err == nil {
				t.Error("disconnect: the call succeeded")
			}
			if _, _, err = call("echo", map[string]any{"message": "again"}, session.WithTimeout(5*time.Second)); err == nil {
				t.Error("disconnect: a call after it succeeded")
			}

			rec.WaitFor(t, 10*time.Second, "the disconnect's note", func(e *session.Event) bool {
				return e.Kind == session.EvTransport && e.Note == fault.NoteKind && strings.Contains(e.Text, "rule 6")
			})
			notes := rec.FindAll(func(e *session.Event) bool { return e.Kind == session.EvTransport && e.Note == fault.NoteKind })
			var got []string
			for _, n := range notes {
				got = append(got, n.Text[:strings.IndexByte(n.Text+"\n", '\n')])
			}
			// Each fault is a note. A note follows the frame it concerns, so notes of
			// different calls may interleave (an answer's delay note is written by the
			// reader after the session has the answer, while the next call's error note is
			// written by the sender): the notes are compared as a multiset.
			want := []string{"delay 400ms (rule 1", "error: answered by mcpscope (rule 2", "dropped (rule 3",
				"dropped (rule 3", "dropped (rule 3", "throttle 4000/s (rule 4", "corrupt truncate (rule 5", "disconnected (rule 6"}
			if missing, extra := noteDiff(got, want); len(missing)+len(extra) > 0 {
				t.Errorf("fault notes:\n%s\nmissing: %q\nunexpected: %q", strings.Join(got, "\n"), missing, extra)
			}
			if t.Failed() {
				fmt.Println(rec.Timeline())
			}
		})
	}
}

// TestBreakpointEverything holds a tools/call to server-everything over stdio, edits its
// argument and forwards it: the server answers the edited call; the held message and the
// decision are notes.
func TestBreakpointEverything(t *testing.T) {
	node, index := sessiontest.NodePath(t), sessiontest.Everything(t)
	bps := fault.NewBreakpoints()
	if _, err := bps.Add("tool:=echo dir:out"); err != nil {
		t.Fatal(err)
	}
	tr := transport.NewStdio(transport.StdioOptions{Command: node, Args: []string{index, "stdio"}})
	s := session.New(session.Config{Protocol: "auto", Caps: session.DefaultCaps(), Responder: &session.Headless{},
		Transport: fault.WrapBreaking(tr, nil, bps)})
	rec := sessiontest.Record(t, s)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := s.Connect(ctx); err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer s.Close()
	type result struct {
		resp *session.Response
		err  error
	}
	done := make(chan result, 1)
	go func() {
		resp, err := s.Call(ctx, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"message": "as typed"}})
		done <- result{resp, err}
	}()
	rec.WaitFor(t, 10*time.Second, "the held call's note", func(e *session.Event) bool {
		return e.Kind == session.EvTransport && e.Note == fault.HoldNoteKind
	})
	held := bps.Held()
	if len(held) != 1 {
		t.Fatalf("%d held", len(held))
	}
	edited := strings.Replace(string(held[0].Raw), "as typed", "as edited", 1)
	if err := bps.Decide(held[0].ID, fault.Decision{Verb: fault.Forward, Raw: []byte(edited)}); err != nil {
		t.Fatal(err)
	}
	r := <-done
	if r.err != nil || !strings.Contains(string(r.resp.Result), "as edited") {
		t.Errorf("the edited call: %v %s", r.err, r.resp.Result)
	}
	rec.WaitFor(t, 10*time.Second, "the decision's note", func(e *session.Event) bool {
		return e.Kind == session.EvTransport && e.Note == fault.HoldNoteKind && strings.Contains(e.Text, "forwarded after") && strings.Contains(e.Text, "edited")
	})
}

// noteDiff compares notes with wanted prefixes as multisets: each wanted prefix takes one
// note that starts with it. It returns the prefixes no note matched and the notes no
// prefix took.
func noteDiff(notes, prefixes []string) (missing, extra []string) {
	taken := make([]bool, len(notes))
	for _, p := range prefixes {
		found := false
		for i, n := range notes {
			if !taken[i] && strings.HasPrefix(n, p) {
				taken[i], found = true, true
				break
			}
		}
		if !found {
			missing = append(missing, p)
		}
	}
	for i, n := range notes {
		if !taken[i] {
			extra = append(extra, n)
		}
	}
	return missing, extra
}
