package ui_test

import (
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// TestTmuxServerGone: the demo server over Streamable HTTP goes away under the running
// view; the status bar stops saying ready and follows the transport: reconnecting N/5
// while the standalone stream retries, then unreachable.
func TestTmuxServerGone(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	demo := exec.Command(sessiontest.BuildMCPScope(t), "demo", "--http", addr)
	if err := demo.Start(); err != nil {
		t.Fatal(err)
	}
	gone := false
	stop := func() {
		if !gone {
			gone = true
			demo.Process.Signal(os.Interrupt)
			demo.Wait()
		}
	}
	t.Cleanup(stop)
	// The view connects once: wait until the demo listens, or a loaded machine fails the
	// handshake before the server is up.
	for deadline := time.Now().Add(20 * time.Second); ; {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the demo never listened on %s: %v", addr, err)
		}
		time.Sleep(20 * time.Millisecond)
	}

	tm := startTerm(t, 80, 24, "--url", "http://"+addr+"/mcp", "--protocol", "2025-11-25", "--no-record")
	// The standalone stream opens at ready, before the lists are fetched.
	tm.waitFor(`status "ready" and the prompts listed`, func(s string) bool {
		return ready(s) && bodyHas(s, "prompts/list", "res")
	})
	stop()
	tm.waitFor(`status "reconnecting N/5"`, func(s string) bool {
		return strings.Contains(statusLine(s), "reconnecting ") && strings.Contains(statusLine(s), "/5") && !ready(s)
	})
	tm.waitFor(`status "unreachable"`, func(s string) bool {
		return strings.Contains(statusLine(s), "unreachable") && !ready(s)
	})
	tm.quit()
}
