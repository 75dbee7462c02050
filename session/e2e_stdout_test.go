package session_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/transport"
)

// TestStdoutClosedWhileRunning: a server that closes its stdout and keeps running is a
// timeline event; the request still pending fails at once, and so does every later call,
// instead of each waiting for its timeout.
func TestStdoutClosedWhileRunning(t *testing.T) {
	s, rec, tr := connectBad(t)
	ctx := testCtx(t)
	stalled := make(chan error, 1)
	go func() {
		_, err := s.Call(ctx, "tools/call", map[string]any{"name": "stall", "arguments": map[string]any{}})
		stalled <- err
	}()
	rec.WaitFor(t, 5*time.Second, "the stall request", func(e *session.Event) bool {
		return e.Kind == session.EvFrame && e.Frame.Method == "tools/call" && strings.Contains(string(e.Frame.Params), "stall")
	})
	if _, text := callTool(t, s, "stdoutclose", nil); text != "closing stdout now" {
		t.Fatalf("stdoutclose answered %q", text)
	}
	want := fmt.Sprintf("the server closed its stdout but is still running (pid %d)", tr.Pid())
	note := rec.WaitFor(t, 5*time.Second, "the stdout-closed note", func(e *session.Event) bool {
		return e.Kind == session.EvTransport && e.Note == transport.NoteStdoutClosed
	})
	if note.Text != want {
		t.Errorf("note %q, want %q", note.Text, want)
	}
	select {
	case err := <-stalled:
		if !errors.Is(err, session.ErrStdoutClosed) || !strings.Contains(err.Error(), want) {
			t.Errorf("pending request: %v, want %q", err, want)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the pending request did not fail when stdout closed")
	}
	_, err := s.Call(ctx, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{}})
	if !errors.Is(err, session.ErrStdoutClosed) || !strings.Contains(err.Error(), want) {
		t.Errorf("later call: %v, want %q", err, want)
	}
	if s.Exit() != nil {
		t.Errorf("the server should still run: %+v", s.Exit())
	}
}
