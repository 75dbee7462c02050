package session_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/session/transport"
)

// markedKinds is how many grandchildren the badserver's children tool leaves: plain,
// devnull, setsid and the orphan of the double fork (the daemon in between exits).
const markedKinds = 4

// orphanLimit bounds each wait for processes to appear or to be gone.
const orphanLimit = 20 * time.Second

// startChildren connects to the badserver with a short grace period and has it start its
// grandchildren, marked with marker; extra arguments go to the tool. It returns the pids of
// the grandchildren the server started itself, by kind. Unless the server exits after
// answering, it waits until all of them run.
func startChildren(t *testing.T, marker string, extra map[string]any) (*session.Session, *sessiontest.Checked, map[string]int) {
	t.Helper()
	tr := transport.NewStdio(transport.StdioOptions{Command: sessiontest.BuildBadServer(t), Grace: 300 * time.Millisecond})
	s, rec := connectChecked(t, tr, session.Config{Protocol: "auto", Caps: session.DefaultCaps()})
	args := map[string]any{"marker": marker}
	for k, v := range extra {
		args[k] = v
	}
	_, text := callTool(t, s, "children", args)
	var pids map[string]int
	if err := json.Unmarshal([]byte(text), &pids); err != nil || pids["setsid"] == 0 || pids["devnull"] == 0 {
		t.Fatalf("children tool answered %q", text)
	}
	if extra["exit"] == nil {
		sessiontest.WaitMarked(t, marker, markedKinds, orphanLimit)
	}
	return s, rec, pids
}

// TestNoOrphansAfterClose closes a session whose server started grandchildren of every
// kind: when Close returns, none of them is left, not even the one in a session of its
// own or the one whose parent exited.
func TestNoOrphansAfterClose(t *testing.T) {
	marker := sessiontest.Marker(t)
	s, _, _ := startChildren(t, marker, nil)
	if err := s.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
	if left := sessiontest.Marked(marker); len(left) > 0 {
		t.Errorf("processes left when Close returned: %v", left)
	}
}

// TestNoOrphansWhenServerExits lets the server exit by itself after starting grandchildren:
// its exit is reported as it happened (code 0, not by us), and by then nothing it started
// is left.
func TestNoOrphansWhenServerExits(t *testing.T) {
	marker := sessiontest.Marker(t)
	s, rec, pids := startChildren(t, marker, map[string]any{"exit": true})
	select {
	case <-s.Done():
	case <-time.After(orphanLimit):
		t.Fatalf("the session did not end after the server exited\n%s", rec.Timeline())
	}
	exit := rec.WaitFor(t, orphanLimit, "the exit event", func(e *session.Event) bool { return e.Kind == session.EvExit })
	if x := exit.Exit; x.Code != 0 || x.Signal != "" || x.ByUs || len(x.LastStderr) == 0 ||
		x.LastStderr[len(x.LastStderr)-1] != "badserver: exiting, children left behind" {
		t.Errorf("exit %+v", x)
	}
	if left := sessiontest.Marked(marker); len(left) > 0 {
		t.Errorf("processes left when the exit was reported: %v", left)
	}
	for kind, pid := range pids {
		if sessiontest.ProcessAlive(pid) {
			t.Errorf("the %s grandchild (pid %d) is still there", kind, pid)
		}
	}
}

// TestNoOrphansCloseDuringHandshake closes a session while the server, which started its
// grandchildren first thing, has not answered initialize.
func TestNoOrphansCloseDuringHandshake(t *testing.T) {
	marker := sessiontest.Marker(t)
	tr := transport.NewStdio(transport.StdioOptions{
		Command: sessiontest.BuildBadServer(t),
		Env:     []string{"BADSERVER_CHILDREN=" + marker},
		Grace:   300 * time.Millisecond,
	})
	s := session.New(session.Config{Transport: tr, Protocol: "auto", Caps: session.DefaultCaps()})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	connected := make(chan error, 1)
	go func() { connected <- s.Connect(ctx) }()
	sessiontest.WaitMarked(t, marker, markedKinds, orphanLimit)
	if st, _ := s.State(); st == session.StateReady {
		t.Fatalf("state %s: the server answered initialize", st)
	}
	if err := s.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	select {
	case err := <-connected:
		if err == nil {
			t.Errorf("connect succeeded after Close")
		}
	case <-time.After(orphanLimit):
		t.Fatalf("connect did not return after Close")
	}
	if left := sessiontest.Marked(marker); len(left) > 0 {
		t.Errorf("processes left when Close returned: %v", left)
	}
}
