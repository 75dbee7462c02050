package cli_test

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// orphanLimit bounds each wait for processes to appear or to be gone.
const orphanLimit = 20 * time.Second

// kill9 kills p with SIGKILL, as a host or a user might, and waits for it to end.
func kill9(t *testing.T, p *proc) {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	p.wait(func() bool { return p.ended })
	if p.code != 128+int(syscall.SIGKILL) {
		t.Fatalf("%s ended with %d, not by the SIGKILL", p.cmd.Path, p.code)
	}
}

// TestCallLeavesNoOrphans runs a one-shot command against a server that leaves
// grandchildren: when the command has exited, none is left.
func TestCallLeavesNoOrphans(t *testing.T) {
	bin, bad := sessiontest.BuildMCPScope(t), sessiontest.BuildBadServer(t)
	marker := sessiontest.Marker(t)
	p := start(t, tapEnv(t), bin, "call", "children", "marker="+marker, "--", bad)
	if code := p.exit(); code != 0 {
		t.Fatalf("call children: exit %d\n%s", code, p.stderrText())
	}
	if !strings.Contains(p.out.String(), `\"setsid\":`) {
		t.Fatalf("call children printed %s", p.out.String())
	}
	if left := sessiontest.Marked(marker); len(left) > 0 {
		t.Errorf("processes left when the command exited: %v", left)
	}
}

// TestKill9CallLeavesNoOrphans kills a headless session with SIGKILL while its server, and
// what the server started (a setsid child, a /dev/null child, a plain one, an orphan of a
// double fork), run: all of them go, and so does the server.
func TestKill9CallLeavesNoOrphans(t *testing.T) {
	bin, bad := sessiontest.BuildMCPScope(t), sessiontest.BuildBadServer(t)
	marker := sessiontest.Marker(t)
	p := start(t, tapEnv(t), bin, "call", "children", "marker="+marker, "hold:=true", "--", bad)
	sessiontest.WaitMarked(t, marker, 4, orphanLimit)
	kill9(t, p)
	sessiontest.WaitNoMarked(t, marker, orphanLimit)
	sessiontest.WaitNoMarked(t, bad, orphanLimit) // the server, and the supervisor naming it
}

// TestTapLeavesNoOrphans closes a tap's stdin, as a host does when it is done: the server
// exits, and by the time the tap has exited nothing the server started is left.
func TestTapLeavesNoOrphans(t *testing.T) {
	p, marker, _ := tapWithChildren(t)
	if code := p.exit(); code != 0 {
		t.Fatalf("tap exit %d\n%s", code, p.stderrText())
	}
	if left := sessiontest.Marked(marker); len(left) > 0 {
		t.Errorf("processes left when the tap exited: %v", left)
	}
}

// tapWithChildren starts a tap on the badserver and, as its host, calls the children tool
// and waits until the four grandchildren run. It returns the tap, their marker and the
// badserver's path.
func tapWithChildren(t *testing.T) (p *proc, marker, bad string) {
	t.Helper()
	bin := sessiontest.BuildMCPScope(t)
	bad = sessiontest.BuildBadServer(t)
	marker = sessiontest.Marker(t)
	p = start(t, tapEnv(t), bin, "tap", "--record", filepath.Join(t.TempDir(), "t.jsonl"), "--name", "orphans", "--", bad)
	p.waitStderr("badserver: ready")
	p.write(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"children","arguments":{"marker":"` + marker + `"}}}` + "\n")
	p.waitResponse(1)
	sessiontest.WaitMarked(t, marker, 4, orphanLimit)
	return p, marker, bad
}

// TestKill9TapLeavesNoOrphans does the same to a tap, which hosts kill when they are done.
func TestKill9TapLeavesNoOrphans(t *testing.T) {
	p, marker, bad := tapWithChildren(t)
	kill9(t, p)
	sessiontest.WaitNoMarked(t, marker, orphanLimit)
	sessiontest.WaitNoMarked(t, bad, orphanLimit)
}

// TestKill9StubbornServerLeavesNoOrphans kills a headless session whose server ignores the
// end of its stdin and SIGTERM, behind a shell that ignores SIGTERM too (and keeps the
// server off the stderr pipe, whose closing would end it): after the close sequence's two
// grace periods, SIGKILL ends them and all the server started.
func TestKill9StubbornServerLeavesNoOrphans(t *testing.T) {
	bin, bad := sessiontest.BuildMCPScope(t), sessiontest.BuildBadServer(t)
	marker := sessiontest.Marker(t)
	script := `trap '' TERM; "$0" -ignore-stdin-close -ignore-sigterm 2>/dev/null`
	p := start(t, tapEnv(t), bin, "call", "--grace", "200ms", "children", "marker="+marker, "hold:=true",
		"--", "sh", "-c", script, bad)
	sessiontest.WaitMarked(t, marker, 4, orphanLimit)
	kill9(t, p)
	sessiontest.WaitNoMarked(t, marker, orphanLimit)
	sessiontest.WaitNoMarked(t, bad, orphanLimit)
}
