package session_test

import (
	"context"
	"encoding/json"
	"errors"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/session/transport"
)

const badBanner = "badserver 0.1 starting up (this line is not JSON)"

// connectBad spawns testdata/badserver with flags and connects to it.
func connectBad(t *testing.T, flags ...string) (*session.Session, *sessiontest.Checked, *transport.Stdio) {
	t.Helper()
	tr := transport.NewStdio(transport.StdioOptions{Command: sessiontest.BuildBadServer(t), Args: flags})
	s, rec := connectChecked(t, tr, session.Config{Protocol: "auto", Caps: session.DefaultCaps()})
	return s, rec, tr
}

// TestBadServer checks how the session copes with a server that breaks the protocol and the
// transport in one way per tool, on one session that must survive all of them.
func TestBadServer(t *testing.T) {
	s, rec, _ := connectBad(t, "-banner")
	ctx := testCtx(t)

	t.Run("banner", func(t *testing.T) {
		banner := rec.WaitFor(t, 5*time.Second, "the banner frame", func(e *session.Event) bool {
			return sessiontest.Received("")(e) && string(e.Frame.Raw) == badBanner
		})
		if !sessiontest.HasFinding(protocol.FindNotJSON)(banner) || banner.Frame.Kind != protocol.KindInvalid {
			t.Errorf("banner: kind %s findings %v, want invalid with %s", banner.Frame.Kind, banner.Frame.Findings, protocol.FindNotJSON)
		}
		if st, _ := s.State(); st != session.StateReady || s.Info().Implementation.Name != "badserver" {
			t.Errorf("after the banner: state %s, server %q", st, s.Info().Implementation.Name)
		}
	})

	t.Run("split", func(t *testing.T) {
		resp, text := callTool(t, s, "split", map[string]any{"k": "v"})
		if text != `split {"k":"v"}` || len(resp.Event.Frame.Findings) != 0 {
			t.Errorf("split frame: text %q findings %v", text, resp.Event.Frame.Findings)
		}
	})

	t.Run("huge", func(t *testing.T) {
		resp, text := callTool(t, s, "huge", nil)
		if len(text) != 20<<20 {
			t.Errorf("huge: %d bytes of text, want %d", len(text), 20<<20)
		}
		if resp.Event.Frame.Kind != protocol.KindResult || resp.Event.Recv.Truncated || resp.Event.Recv.Size < 20<<20 {
			t.Errorf("huge frame: kind %s truncated %v size %d", resp.Event.Frame.Kind, resp.Event.Recv.Truncated, resp.Event.Recv.Size)
		}
	})

	t.Run("badutf8", func(t *testing.T) {
		resp, err := s.Call(ctx, "tools/call", map[string]any{"name": "badutf8", "arguments": map[string]any{}})
		if resp == nil || resp.Event == nil {
			t.Fatalf("no response: %v", err)
		}
		if !sessiontest.HasFinding(protocol.FindInvalidUTF8)(resp.Event) {
			t.Errorf("invalid UTF-8 not flagged: %v", resp.Event.Frame.Findings)
		}
	})

	t.Run("unknownid", func(t *testing.T) {
		resp, text := callTool(t, s, "unknownid", nil)
		if !strings.HasPrefix(text, "unknownid") {
			t.Errorf("the real answer was not delivered: %q", text)
		}
		stray := rec.WaitFor(t, 5*time.Second, "the response to an unknown id", func(e *session.Event) bool {
			return sessiontest.Received("")(e) && e.Frame.ID.String() == `"nobody-asked-for-this"`
		})
		if !sessiontest.HasFinding(protocol.FindUnknownID)(stray) || stray.Seq > resp.Event.Seq {
			t.Errorf("stray response: %s", stray.Summary())
		}
	})

	t.Run("duplicate", func(t *testing.T) {
		resp, _ := callTool(t, s, "duplicate", nil)
		second := rec.WaitFor(t, 5*time.Second, "the duplicate response", func(e *session.Event) bool {
			return sessiontest.Received("")(e) && e.Frame.ID.Key() == resp.Request.Frame.ID.Key() && e.Seq != resp.Event.Seq
		})
		if !sessiontest.HasFinding(protocol.FindDuplicateResponse)(second) || sessiontest.HasFinding(protocol.FindDuplicateResponse)(resp.Event) {
			t.Errorf("duplicate: first %v, second %v", resp.Event.Frame.Findings, second.Frame.Findings)
		}
		if second.Corr.RequestSeq != resp.Request.Seq {
			t.Errorf("the duplicate is not tied to its request: %+v", second.Corr)
		}
	})

	t.Run("resulterror", func(t *testing.T) {
		resp, _ := s.Call(ctx, "tools/call", map[string]any{"name": "resulterror", "arguments": map[string]any{}})
		if resp == nil || resp.Event == nil {
			t.Fatalf("no response event")
		}
		if !sessiontest.HasFinding(protocol.FindResultAndError)(resp.Event) {
			t.Errorf("result+error not flagged: %v", resp.Event.Frame.Findings)
		}
	})

	t.Run("notjson", func(t *testing.T) {
		resp, text := callTool(t, s, "notjson", nil)
		if !strings.HasPrefix(text, "notjson") {
			t.Errorf("notjson: %q", text)
		}
		rec.Reached(t, resp.Event.Seq)
		if rec.Find(func(e *session.Event) bool {
			return sessiontest.HasFinding(protocol.FindNotJSON)(e) && string(e.Frame.Raw) == "}{ this is not json"
		}) == nil {
			t.Errorf("the garbage line was not flagged")
		}
	})

	t.Run("stall", func(t *testing.T) {
		start := time.Now()
		resp, err := s.Call(ctx, "tools/call", map[string]any{"name": "stall", "arguments": map[string]any{}}, session.WithTimeout(300*time.Millisecond))
		if !errors.Is(err, session.ErrTimeout) {
			t.Fatalf("stall: %v, want ErrTimeout", err)
		}
		if d := time.Since(start); d < 300*time.Millisecond || d > 10*time.Second {
			t.Errorf("the timeout took %s", d)
		}
		cancelled := rec.WaitFor(t, 5*time.Second, "notifications/cancelled", sessiontest.Sent("notifications/cancelled"))
		var p struct {
			RequestID json.RawMessage `json:"requestId"`
		}
		if json.Unmarshal(cancelled.Frame.Params, &p) != nil || string(p.RequestID) != resp.Request.Frame.ID.String() {
			t.Errorf("notifications/cancelled names %s, want %s", p.RequestID, resp.Request.Frame.ID)
		}
		rec.WaitFor(t, 5*time.Second, "a timeout error event", func(e *session.Event) bool {
			return e.Kind == session.EvError && e.Corr.RequestSeq == resp.Request.Seq
		})
		if _, text := callTool(t, s, "echo", map[string]any{"after": "stall"}); !strings.Contains(text, "stall") {
			t.Errorf("the session does not work after a timeout: %q", text)
		}
	})

	t.Run("raw", func(t *testing.T) {
		raw := []byte(`{"jsonrpc":"2.0","id":"raw-1","method":"no/such/method"}`)
		rec.Exempt(raw) // not a method of any revision: sent on purpose
		resp, err := s.SendRaw(ctx, raw)
		var rpc *session.RPCError
		if !errors.As(err, &rpc) || rpc.Code != protocol.MethodNotFound || resp.Event.Corr.RequestSeq != resp.Request.Seq {
			t.Errorf("SendRaw of an unknown method: %v", err)
		}
	})
}

// TestBadServerCrash checks a server that dies mid-request: the call fails with
// ErrServerExited, and the exit event has the code and the last stderr lines.
func TestBadServerCrash(t *testing.T) {
	s, rec, _ := connectBad(t)
	_, err := s.Call(testCtx(t), "tools/call", map[string]any{"name": "crash", "arguments": map[string]any{}})
	if !errors.Is(err, session.ErrServerExited) {
		t.Fatalf("crash: %v, want ErrServerExited", err)
	}
	exit := rec.WaitFor(t, 10*time.Second, "the exit event", func(e *session.Event) bool { return e.Kind == session.EvExit })
	if exit.Exit.Code != 3 || exit.Exit.ByUs {
		t.Errorf("exit: %+v, want code 3 not by us", exit.Exit)
	}
	if !slices.Contains(exit.Exit.LastStderr, "badserver: crashing with code 3") {
		t.Errorf("exit stderr: %q", exit.Exit.LastStderr)
	}
	// An exit closes stdout too; that is the exit, not a server that lives on without it.
	if e := rec.Find(func(e *session.Event) bool { return e.Note == transport.NoteStdoutClosed }); e != nil {
		t.Errorf("an exiting server was noted as closing its stdout: %s", e.Summary())
	}
	select {
	case <-s.Done():
	case <-time.After(10 * time.Second):
		t.Fatalf("the session did not close after the server exited")
	}
	if _, err := s.Call(testCtx(t), "ping", nil); !errors.Is(err, session.ErrClosed) {
		t.Errorf("a call after the exit: %v, want ErrClosed", err)
	}
}

// TestBadServerCloseLeaks closes a session and checks that its goroutines end and the
// server process is gone.
func TestBadServerCloseLeaks(t *testing.T) {
	bin := sessiontest.BuildBadServer(t) // build first: the build is not part of the baseline
	baseline := runtime.NumGoroutine()
	tr := transport.NewStdio(transport.StdioOptions{Command: bin})
	s := session.New(session.Config{Transport: tr, Protocol: "2025-11-25", Caps: session.DefaultCaps()})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := s.Connect(ctx); err != nil {
		t.Fatalf("connect: %v", err)
	}
	pid := tr.Pid()
	if !sessiontest.ProcessAlive(pid) {
		t.Fatalf("the server (pid %d) is not running", pid)
	}
	if _, err := s.Call(ctx, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{}}); err != nil {
		t.Fatalf("echo: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	if sessiontest.ProcessAlive(pid) {
		t.Errorf("the server (pid %d) is still there after Close", pid)
	}
	deadline := time.After(5 * time.Second)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for runtime.NumGoroutine() > baseline+1 {
		select {
		case <-deadline:
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines 5s after Close, %d before the session:\n%s", runtime.NumGoroutine(), baseline, buf[:runtime.Stack(buf, true)])
		case <-tick.C:
		}
	}
}
