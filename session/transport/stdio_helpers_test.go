//go:build unix

package transport

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestMain removes the fixture binaries built for this test binary.
func TestMain(m *testing.M) {
	code := m.Run()
	if fixtureDir != "" {
		os.RemoveAll(fixtureDir)
	}
	os.Exit(code)
}

var (
	fixtureOnce sync.Once
	fixtureDir  string
	fixturePath string
	fixtureErr  error
)

// badserver builds testdata/badserver once per test binary and returns its path.
func badserver(t *testing.T) string {
	t.Helper()
	fixtureOnce.Do(func() {
		root, err := moduleRoot()
		if err != nil {
			fixtureErr = err
			return
		}
		fixtureDir, err = os.MkdirTemp("", "badserver")
		if err != nil {
			fixtureErr = err
			return
		}
		fixturePath = filepath.Join(fixtureDir, "badserver")
		cmd := exec.Command("go", "build", "-o", fixturePath, "./testdata/badserver")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			fixtureErr = fmt.Errorf("go build ./testdata/badserver: %v\n%s", err, out)
		}
	})
	if fixtureErr != nil {
		t.Fatal(fixtureErr)
	}
	return fixturePath
}

// moduleRoot walks up from the working directory to the directory holding go.mod.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("go.mod not found above the test directory")
		}
		dir = parent
	}
}

// frame is one Received call.
type frame struct {
	raw  []byte
	info RecvInfo
}

// recSink records everything a transport reports and wakes waiters on each call.
type recSink struct {
	mu      sync.Mutex
	frames  []frame
	stderr  []string
	notes   []Note
	exits   []ExitInfo
	bad     []string // calls that came after Exited, and HTTP calls
	changed chan struct{}
}

func newRecSink() *recSink { return &recSink{changed: make(chan struct{}, 1)} }

func (s *recSink) record(f func()) {
	s.mu.Lock()
	f()
	s.mu.Unlock()
	select {
	case s.changed <- struct{}{}:
	default:
	}
}

func (s *recSink) afterExit(what string) {
	if len(s.exits) > 0 {
		s.bad = append(s.bad, what)
	}
}

func (s *recSink) Received(raw []byte, info RecvInfo) {
	s.record(func() { s.afterExit("Received"); s.frames = append(s.frames, frame{raw, info}) })
}

func (s *recSink) Stderr(line []byte) {
	s.record(func() { s.afterExit("Stderr"); s.stderr = append(s.stderr, string(line)) })
}

func (s *recSink) HTTP(*HTTPExchange) { s.record(func() { s.bad = append(s.bad, "HTTP") }) }

func (s *recSink) Note(n Note) { s.record(func() { s.notes = append(s.notes, n) }) }

func (s *recSink) Exited(info ExitInfo) { s.record(func() { s.exits = append(s.exits, info) }) }

// snapshot returns copies of what has been recorded so far.
func (s *recSink) snapshot() (frames []frame, stderr []string, notes []Note, exits []ExitInfo) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]frame(nil), s.frames...), append([]string(nil), s.stderr...),
		append([]Note(nil), s.notes...), append([]ExitInfo(nil), s.exits...)
}

func (s *recSink) frameCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.frames)
}

// waitFor waits until cond holds, failing the test after timeout.
func (s *recSink) waitFor(t *testing.T, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for !cond() {
		select {
		case <-s.changed:
		case <-deadline.C:
			if cond() {
				return
			}
			f, e, n, x := s.snapshot()
			t.Fatalf("timed out after %v waiting for %s (frames %d, stderr %q, notes %v, exits %v)",
				timeout, what, len(f), e, n, x)
		}
	}
}

// waitFrames waits for at least n frames and returns them.
func (s *recSink) waitFrames(t *testing.T, n int) []frame {
	t.Helper()
	s.waitFor(t, 20*time.Second, fmt.Sprintf("%d frames", n), func() bool { return s.frameCount() >= n })
	f, _, _, _ := s.snapshot()
	return f
}

// waitStderr waits for a stderr line containing sub.
func (s *recSink) waitStderr(t *testing.T, sub string) {
	t.Helper()
	s.waitFor(t, 20*time.Second, "stderr "+sub, func() bool {
		_, e, _, _ := s.snapshot()
		for _, l := range e {
			if strings.Contains(l, sub) {
				return true
			}
		}
		return false
	})
}

// waitExit waits for Exited and returns what it reported.
func (s *recSink) waitExit(t *testing.T) ExitInfo {
	t.Helper()
	s.waitFor(t, 20*time.Second, "exit", func() bool { _, _, _, x := s.snapshot(); return len(x) > 0 })
	_, _, _, x := s.snapshot()
	return x[0]
}

// checkClean fails when the sink saw calls after Exited or Exited more than once.
func (s *recSink) checkClean(t *testing.T) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.bad) > 0 {
		t.Errorf("calls after Exited or unexpected: %v", s.bad)
	}
	if len(s.exits) > 1 {
		t.Errorf("Exited reported %d times: %v", len(s.exits), s.exits)
	}
}

// startStdio starts a transport for o, closing it when the test ends.
func startStdio(t *testing.T, o StdioOptions) (*Stdio, *recSink) {
	t.Helper()
	tr := NewStdio(o)
	sink := newRecSink()
	if err := tr.Start(t.Context(), sink); err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		if err := tr.Close(ctx); err != nil {
			t.Errorf("Close: %v", err)
		}
		sink.checkClean(t)
	})
	return tr, sink
}

// startBadserver starts the fixture with args and waits until it is ready.
func startBadserver(t *testing.T, o StdioOptions) (*Stdio, *recSink) {
	t.Helper()
	o.Command = badserver(t)
	tr, sink := startStdio(t, o)
	sink.waitStderr(t, "badserver: ready")
	return tr, sink
}

// send writes one raw line, failing the test on error.
func send(t *testing.T, tr *Stdio, raw string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	if err := tr.Send(ctx, Outgoing{Raw: []byte(raw)}); err != nil {
		t.Fatalf("Send %s: %v", raw, err)
	}
}

// callTool is a tools/call request line.
func callTool(id int, name string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":{}}}`, id, name)
}

// processGone reports whether pid no longer runs: it does not exist, or it is a zombie
// waiting for a parent that is not us.
func processGone(pid int) bool {
	err := syscall.Kill(pid, 0)
	if errors.Is(err, syscall.ESRCH) {
		return true
	}
	if runtime.GOOS == "linux" {
		if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
			if i := strings.LastIndexByte(string(b), ')'); i >= 0 && i+2 < len(b) {
				return b[i+2] == 'Z'
			}
		}
	}
	return false
}

// eventually checks cond every few milliseconds until it holds, failing after timeout. It is
// for conditions nothing signals, such as another process ending.
func eventually(t *testing.T, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		select {
		case <-tick.C:
		case <-deadline.C:
			if !cond() {
				t.Fatalf("timed out after %v waiting for %s", timeout, what)
			}
			return
		}
	}
}

// waitGone waits until pid no longer runs.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	eventually(t, 10*time.Second, fmt.Sprintf("process %d to end", pid), func() bool { return processGone(pid) })
}
