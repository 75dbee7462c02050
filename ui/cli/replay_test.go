package cli_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/ui/cli"
)

// recordSession runs a real session on command with protocol proto, lets body drive it,
// closes it and writes every event of it to w as session gen.
func recordSession(t *testing.T, w *recordings.Writer, gen int, command []string, proto string,
	body func(ctx context.Context, s *session.Session, rec *sessiontest.Recorder)) {
	t.Helper()
	tr, err := session.ServerSpec{Command: command}.NewTransport()
	if err != nil {
		t.Fatal(err)
	}
	s := session.New(session.Config{Transport: tr, Protocol: proto, Caps: session.DefaultCaps()})
	rec := sessiontest.Record(t, s)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := s.Connect(ctx); err != nil {
		t.Fatalf("connect: %v\n%s", err, rec.Timeline())
	}
	body(ctx, s, rec)
	_ = s.Close()
	if !rec.Wait(30 * time.Second) {
		t.Fatal("the session's events did not end")
	}
	for _, e := range rec.Events() {
		if err := w.WriteGen(e, gen); err != nil {
			t.Fatal(err)
		}
	}
}

func replayJSON(t *testing.T, args ...string) (recordings.Report, int) {
	t.Helper()
	stdout, stderr, code := run(t, append([]string{"replay", "--json"}, args...)...)
	var rep recordings.Report
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("replay --json %v: %v\n%s\n%s", args, err, stdout, stderr)
	}
	return rep, code
}

func rows(rep recordings.Report) string {
	var out []string
	for _, r := range rep.Results {
		out = append(out, r.Method+" "+r.Status)
	}
	return strings.Join(out, ", ")
}

// TestReplayCancelled: a recorded call of the demo's 30-second slow tool that the client
// cancelled after the first progress notification is replayed with its cancel after the
// recorded delay, not after the whole operation, and reported as cancelled; the request
// after it is replayed as usual.
func TestReplayCancelled(t *testing.T) {
	t.Parallel()
	bin := sessiontest.BuildMCPScope(t)
	file := filepath.Join(t.TempDir(), "cancel.jsonl")
	w, err := recordings.Create(file, recordings.Header{Server: bin + " demo", Transport: "stdio", Protocol: "2025-11-25"}, recordings.Options{})
	if err != nil {
		t.Fatal(err)
	}
	recordSession(t, w, 0, []string{bin, "demo"}, "2025-11-25", func(ctx context.Context, s *session.Session, rec *sessiontest.Recorder) {
		cctx, cancel := context.WithCancel(ctx)
		defer cancel()
		errc := make(chan error, 1)
		go func() {
			_, err := s.Call(cctx, "tools/call", map[string]any{"name": "slow", "arguments": map[string]any{"seconds": 30, "steps": 30}}, session.WithProgress())
			errc <- err
		}()
		rec.WaitFor(t, 20*time.Second, "a progress notification", func(e *session.Event) bool {
			return e.Kind == session.EvFrame && e.Frame.Method == "notifications/progress"
		})
		cancel()
		if err := <-errc; !errors.Is(err, context.Canceled) {
			t.Fatalf("the cancelled call returned %v", err)
		}
		if _, err := s.Call(ctx, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"text": "after"}}); err != nil {
			t.Fatal(err)
		}
	})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	tr, err := recordings.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	cancels := 0
	for e := range tr.Frames() {
		if e.Event.Kind == session.EvFrame && e.Event.Dir == protocol.ClientToServer && e.Event.Frame.Method == "notifications/cancelled" {
			cancels++
		}
	}
	if cancels != 1 {
		t.Fatalf("the recording holds %d cancels, want 1", cancels)
	}

	began := time.Now()
	rep, code := replayJSON(t, file)
	took := time.Since(began)
	if code != cli.ExitOK || rows(rep) != "initialize same, tools/call cancelled, tools/call same" {
		t.Errorf("replay: exit %d, rows %s", code, rows(rep))
	}
	if took > 15*time.Second {
		t.Errorf("the replay took %s: it waited for the cancelled call", took)
	}
	stdout := runOK(t, "replay", file)
	if !strings.Contains(stdout, "2 same, 1 cancelled") || strings.Contains(stdout, "different") {
		t.Errorf("replay:\n%s", stdout)
	}
}

// TestReplayTapRecording: a host talking to the reference server through tap asked for
// 2025-06-18 and declared no capabilities; the replay does the same, so the tool list (which
// depends on the client's capabilities) and everything else match. --protocol given on the
// command line still wins.
func TestReplayTapRecording(t *testing.T) {
	t.Parallel()
	node, index := sessiontest.NodePath(t), sessiontest.Everything(t)
	bin := sessiontest.BuildMCPScope(t)
	file := filepath.Join(t.TempDir(), "tap.jsonl")
	p := start(t, tapEnv(t), bin, "tap", "--quiet", "--record", file, "--", node, index, "stdio")
	if code := drive(p); code != 0 {
		t.Fatalf("tap: exit %d\n%s", code, p.stderrText())
	}
	server := []string{"--", node, index, "stdio"}
	rep, code := replayJSON(t, append([]string{file}, server...)...)
	if code != cli.ExitOK || rows(rep) != "initialize same, tools/list same, tools/call same" {
		t.Errorf("replay of the tap recording: exit %d, rows %s\n%+v", code, rows(rep), rep.Results)
	}
	stdout, _, code := run(t, append([]string{"replay", "--protocol", "2025-11-25", file}, server...)...)
	if code != cli.ExitRPCError || !strings.Contains(stdout, `/result/protocolVersion: "2025-06-18" → "2025-11-25"`) {
		t.Errorf("replay --protocol 2025-11-25: exit %d\n%s", code, stdout)
	}
}

// TestReplayRestartedRecording: a recording of two sessions (a restart in between) replays
// the first and reports the second as skipped, instead of sending its requests into the
// first live session.
func TestReplayRestartedRecording(t *testing.T) {
	bin := sessiontest.BuildMCPScope(t)
	file := filepath.Join(t.TempDir(), "restart.jsonl")
	w, err := recordings.Create(file, recordings.Header{Server: bin + " demo", Transport: "stdio", Protocol: "auto"}, recordings.Options{})
	if err != nil {
		t.Fatal(err)
	}
	demo := []string{bin, "demo"}
	recordSession(t, w, 1, demo, "2025-11-25", func(ctx context.Context, s *session.Session, _ *sessiontest.Recorder) {
		for _, m := range []string{"tools/list", "resources/list"} {
			if _, err := s.Call(ctx, m, nil); err != nil {
				t.Fatal(err)
			}
		}
	})
	recordSession(t, w, 2, demo, "2025-11-25", func(ctx context.Context, s *session.Session, _ *sessiontest.Recorder) {
		if _, err := s.Call(ctx, "prompts/list", nil); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Call(ctx, "prompts/get", map[string]any{"name": "greet", "arguments": map[string]any{"name": "Ada"}}); err != nil {
			t.Fatal(err)
		}
	})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	rep, code := replayJSON(t, file)
	if code != cli.ExitOK || rows(rep) != "initialize same, tools/list same, resources/list same" {
		t.Errorf("replay: exit %d, rows %s", code, rows(rep))
	}
	if len(rep.Skipped) != 1 || rep.Skipped[0] != (recordings.SkippedSession{Session: 2, Requests: 2}) {
		t.Errorf("skipped sessions %+v", rep.Skipped)
	}
	stdout := runOK(t, "replay", file)
	if !strings.Contains(stdout, "session 2 of the recording (after a restart) is not replayed: 2 requests skipped") || strings.Contains(stdout, "prompts/") {
		t.Errorf("replay:\n%s", stdout)
	}
}
