package cli_test

import (
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/ui/cli"
)

// TestAuthStaleStoredToken: a server that forgot the stored token answers it with HTTP
// 500. The failing command says the stored token was sent and names auth login; auth
// login then starts a fresh authorization without sending the stored token first,
// registering the client again, and the next command works.
func TestAuthStaleStoredToken(t *testing.T) {
	t.Parallel()
	o := newOAuthServer(t)
	browser := sessiontest.NodePath(t) + " " + filepath.Join(sessiontest.ModuleRoot(t), "testdata", "conformance", "browser.mjs")
	env := []string{"XDG_STATE_HOME=" + t.TempDir(), "BROWSER=" + browser}
	mcpURL := o.url + "/mcp"
	run := func(args ...string) (string, string, int) {
		t.Helper()
		return runAuthEnv(t, env, append([]string{"--protocol", "2025-11-25", "--no-listen"}, append(args, "--url", mcpURL)...)...)
	}
	if stdout, stderr, code := run("auth", "login"); code != 0 {
		t.Fatalf("auth login: exit %d\n%s\n%s", code, stdout, stderr)
	}

	o.expireTokens() // as a restart with its state in memory does
	o.mu.Lock()
	o.crash = true
	o.mu.Unlock()
	_, stderr, code := run("list", "tools")
	if code == cli.ExitOK || !strings.Contains(stderr, "HTTP 500") || !strings.Contains(stderr, "carried the access token stored") ||
		!strings.Contains(stderr, "mcpscope auth login --url "+mcpURL) {
		t.Fatalf("list tools with a forgotten token: exit %d; want the 500 to say the stored token was sent and name auth login:\n%s", code, stderr)
	}

	o.mu.Lock()
	crashed, registered, authorized := o.crashed, o.registered, len(o.authorized)
	o.mu.Unlock()
	stdout, stderr, code := run("auth", "login")
	if code != cli.ExitOK || !strings.Contains(stdout, `"state": "authorized"`) {
		t.Fatalf("auth login after the server forgot the token: exit %d\n%s\n%s", code, stdout, stderr)
	}
	o.mu.Lock()
	if o.crashed != crashed {
		t.Errorf("auth login sent the stored token first (%d more 500s)", o.crashed-crashed)
	}
	if o.registered != registered+1 || len(o.authorized) != authorized+1 {
		t.Errorf("auth login: %d registrations and %d authorizations more; want one of each", o.registered-registered, len(o.authorized)-authorized)
	}
	o.mu.Unlock()
	if stdout, stderr, code := run("list", "tools"); code != cli.ExitOK || !strings.Contains(stdout, `"echo"`) {
		t.Fatalf("list tools after auth login: exit %d\n%s\n%s", code, stdout, stderr)
	}
}

// TestAuthDemoRestart: the demo's authorization server keeps its clients and tokens in
// memory, so a restart forgets both. A command finds the stored client refused
// (invalid_client) and registers again; auth login after another restart authorizes
// afresh; both work without touching the token store by hand.
func TestAuthDemoRestart(t *testing.T) {
	t.Parallel()
	addr := freeAddr(t)
	browser := sessiontest.NodePath(t) + " " + filepath.Join(sessiontest.ModuleRoot(t), "testdata", "conformance", "browser.mjs")
	env := []string{"XDG_STATE_HOME=" + t.TempDir(), "BROWSER=" + browser}
	mcpURL := "http://" + addr + "/mcp"
	run := func(args ...string) string {
		t.Helper()
		stdout, stderr, code := runAuthEnv(t, env, append(args, "--url", mcpURL)...)
		if code != 0 {
			t.Fatalf("mcpscope %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, stdout, stderr)
		}
		return stdout + stderr
	}
	stop := startDemoAt(t, addr)
	run("auth", "login")
	stop()
	stop = startDemoAt(t, addr)
	if out := run("--trace", "list", "tools"); !strings.Contains(out, `"whoami"`) || !strings.Contains(out, "registered again") {
		t.Fatalf("list tools after a restart: want the client registered again and the tools listed:\n%s", out)
	}
	stop()
	startDemoAt(t, addr)
	if out := run("auth", "login"); !strings.Contains(out, `"state": "authorized"`) {
		t.Fatalf("auth login after a restart:\n%s", out)
	}
	run("list", "tools")
}

// freeAddr is a loopback address with a port free now, for a server that must restart
// on the same port.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// startDemoAt runs `mcpscope demo --http addr --auth --auto-approve` until stop (or the
// end of the test), once it answers.
func startDemoAt(t *testing.T, addr string) (stop func()) {
	t.Helper()
	cmd := exec.Command(sessiontest.BuildMCPScope(t), "demo", "--http", addr, "--auth", "--auto-approve")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stopped := false
	stop = func() {
		if !stopped {
			stopped = true
			cmd.Process.Signal(os.Interrupt)
			cmd.Wait()
		}
	}
	t.Cleanup(stop)
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get("http://" + addr + "/.well-known/oauth-authorization-server")
		if err == nil {
			resp.Body.Close()
			return stop
		}
		if time.Now().After(deadline) {
			t.Fatalf("demo at %s does not answer: %v", addr, err)
		}
		time.Sleep(50 * time.Millisecond) // polling for the port to open
	}
}
