package ui

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// TapHost runs `mcpscope tap --name NAME --no-record -- mcpscope demo` in the background
// and plays an MCP host on its stdin and stdout, one request at a time. The tests of
// attaching (here and end to end) watch the tap it feeds.
type TapHost struct {
	t     testing.TB
	cmd   *exec.Cmd
	stdin io.WriteCloser

	mu     sync.Mutex
	cond   *sync.Cond
	lines  []string // the tap's stdout, line by line: the demo server's answers
	errOut strings.Builder
	ended  bool
	nextID int
}

// hostWait bounds every wait of the scripted host.
const hostWait = 60 * time.Second

// StartTapHost starts the tap called name with its sockets in runtimeDir (the tap's
// XDG_RUNTIME_DIR) and waits until viewers can attach. The tap is killed, if still
// running, when the test ends.
func StartTapHost(t testing.TB, name, runtimeDir string) *TapHost {
	t.Helper()
	return StartTapHostEnv(t, name, append(os.Environ(), "XDG_RUNTIME_DIR="+runtimeDir), "--no-record")
}

// StartTapHostEnv starts the tap called name with exactly the environment env, as a host
// that passes a reduced one does, and with extra flags of tap.
func StartTapHostEnv(t testing.TB, name string, env []string, flags ...string) *TapHost {
	t.Helper()
	bin := sessiontest.BuildMCPScope(t)
	h := &TapHost{t: t, nextID: 1}
	h.cond = sync.NewCond(&h.mu)
	args := append([]string{"tap", "--name", name}, flags...)
	h.cmd = exec.Command(bin, append(args, "--", bin, "demo")...)
	h.cmd.Env = env
	var err error
	if h.stdin, err = h.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := h.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := h.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := h.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var readers sync.WaitGroup
	readers.Add(2)
	go func() {
		defer readers.Done()
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			h.update(func() { h.lines = append(h.lines, sc.Text()) })
		}
	}()
	go func() {
		defer readers.Done()
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			h.update(func() { h.errOut.WriteString(sc.Text() + "\n") })
		}
	}()
	go func() {
		readers.Wait()
		_ = h.cmd.Wait()
		h.update(func() { h.ended = true })
	}()
	t.Cleanup(func() {
		h.stdin.Close()
		if !h.wait(func() bool { return h.ended }) {
			_ = h.cmd.Process.Kill()
			h.wait(func() bool { return h.ended })
		}
	})
	if !h.wait(func() bool { return strings.Contains(h.errOut.String(), "watch with") || h.ended }) || h.ended {
		t.Fatalf("the tap did not start:\n%s", h.stderr())
	}
	return h
}

func (h *TapHost) update(f func()) {
	h.mu.Lock()
	f()
	h.mu.Unlock()
	h.cond.Broadcast()
}

// wait waits until cond (called with the lock held) holds, for at most hostWait. A timer
// wakes the waiter at the deadline.
func (h *TapHost) wait(cond func() bool) bool {
	deadline := time.Now().Add(hostWait)
	stop := time.AfterFunc(hostWait, h.cond.Broadcast)
	defer stop.Stop()
	h.mu.Lock()
	defer h.mu.Unlock()
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		h.cond.Wait()
	}
	return true
}

// Stderr is what the tap has printed on stderr so far.
func (h *TapHost) Stderr() string { return h.stderr() }

func (h *TapHost) stderr() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.errOut.String()
}

// Request sends a request and returns its result, failing the test on an error or when
// no answer comes within hostWait.
func (h *TapHost) Request(method string, params any) json.RawMessage {
	h.t.Helper()
	id := h.nextID
	h.nextID++
	p, _ := json.Marshal(params)
	h.write(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, id, method, p))
	var result json.RawMessage
	ok := h.wait(func() bool {
		for _, l := range h.lines {
			var r struct {
				ID     json.RawMessage `json:"id"`
				Result json.RawMessage `json:"result"`
				Error  json.RawMessage `json:"error"`
			}
			if json.Unmarshal([]byte(l), &r) == nil && string(r.ID) == fmt.Sprint(id) && (r.Result != nil || r.Error != nil) {
				result = r.Result
				if r.Error != nil {
					result = nil
				}
				return true
			}
		}
		return h.ended
	})
	if !ok || result == nil {
		h.t.Fatalf("%s: no result within %s\nstdout:\n%s\nstderr:\n%s", method, hostWait, strings.Join(h.lines, "\n"), h.stderr())
	}
	return result
}

// Notify sends a notification.
func (h *TapHost) Notify(method string) {
	h.t.Helper()
	h.write(fmt.Sprintf(`{"jsonrpc":"2.0","method":%q}`, method))
}

func (h *TapHost) write(line string) {
	h.t.Helper()
	if _, err := io.WriteString(h.stdin, line+"\n"); err != nil {
		h.t.Fatalf("write to the tap: %v", err)
	}
}

// Handshake initializes the session as a host would.
func (h *TapHost) Handshake() {
	h.t.Helper()
	h.Request("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "scripted-host", "version": "1"}})
	h.Notify("notifications/initialized")
}

// ListTools asks for every page of tools/list and returns how many tools there are.
func (h *TapHost) ListTools() int {
	h.t.Helper()
	n, cursor := 0, ""
	for {
		params := map[string]any{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		var page struct {
			Tools      []json.RawMessage `json:"tools"`
			NextCursor string            `json:"nextCursor"`
		}
		if err := json.Unmarshal(h.Request("tools/list", params), &page); err != nil {
			h.t.Fatalf("tools/list: %v", err)
		}
		n += len(page.Tools)
		if page.NextCursor == "" {
			return n
		}
		cursor = page.NextCursor
	}
}

// End closes the tap's stdin, as a host that quits does, and waits for the tap to exit.
func (h *TapHost) End() {
	h.t.Helper()
	h.stdin.Close()
	if !h.wait(func() bool { return h.ended }) {
		h.t.Fatalf("the tap did not exit after its stdin closed:\n%s", h.stderr())
	}
}
