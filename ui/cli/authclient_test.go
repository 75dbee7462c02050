package cli_test

import (
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/ui/cli"
)

// startDemoWith runs `mcpscope demo --http addr --auth --auto-approve` with extra flags
// until stop (or the end of the test), once it answers.
func startDemoWith(t *testing.T, addr string, extra ...string) (stop func()) {
	t.Helper()
	cmd := exec.Command(sessiontest.BuildMCPScope(t), append([]string{"demo", "--http", addr, "--auth", "--auto-approve"}, extra...)...)
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

// refusedRefreshes counts the refresh requests the authorization server refused in a
// --trace.
func refusedRefreshes(trace string) int {
	n := 0
	for _, l := range strings.Split(trace, "\n") {
		if strings.Contains(l, `"step":"refresh"`) && strings.Contains(l, `"status":401`) {
			n++
		}
	}
	return n
}

// TestAuthForgottenClient: the demo's authorization server forgets its clients when it
// restarts. A refresh refused with invalid_client is not sent again (the request's 401 then
// authorizes, registering a new client); and a stored client with no token left, which
// the restarted server no longer knows, is found out by reading its registration back (RFC
// 7592) and registered again, instead of sending the browser to the server's error page.
func TestAuthForgottenClient(t *testing.T) {
	addr := freeAddr(t)
	mcpURL := "http://" + addr + "/mcp"
	env := []string{"XDG_STATE_HOME=" + t.TempDir()}
	run := func(browser string, args ...string) (string, string, int) {
		t.Helper()
		return runAuthEnv(t, append(env, "BROWSER="+browser), append(args, "--token-store", "file", "--url", mcpURL)...)
	}
	stop := startDemoWith(t, addr, "--token-ttl", "1s")
	stdout, stderr, code := run(browserCmd(t, ""), "auth", "login")
	if code != cli.ExitOK {
		t.Fatalf("auth login: exit %d\n%s\n%s", code, stdout, stderr)
	}
	var st struct {
		Expiry  time.Time `json:"expiry"`
		Refresh bool      `json:"refresh_token"`
	}
	if err := json.Unmarshal([]byte(stdout), &st); err != nil || st.Expiry.IsZero() || !st.Refresh {
		t.Fatalf("auth login printed no expiry or no refresh token (%v):\n%s", err, stdout)
	}
	stop()
	stop = startDemoWith(t, addr, "--token-ttl", "1s")
	time.Sleep(time.Until(st.Expiry.Add(100 * time.Millisecond))) // the token is due: refreshed before it is sent

	_, stderr, code = run(browserCmd(t, ""), "--trace", "list", "tools")
	if code != cli.ExitOK || !strings.Contains(stderr, "registered again") {
		t.Fatalf("list tools after a restart: exit %d, want the client registered again\n%s", code, stderr)
	}
	if n := refusedRefreshes(stderr); n != 1 {
		t.Errorf("the refresh refused with invalid_client was sent %d times, want once", n)
	}

	// A client kept with no token: registered, then the login denied.
	if _, stderr, code := run("false", "auth", "logout", "--no-revoke"); code != cli.ExitOK {
		t.Fatalf("auth logout: exit %d\n%s", code, stderr)
	}
	if _, stderr, code := run(browserCmd(t, "&deny=1"), "list", "tools"); code != cli.ExitAuth {
		t.Fatalf("denied login: exit %d, want %d\n%s", code, cli.ExitAuth, stderr)
	}
	stop()
	startDemoWith(t, addr, "--token-ttl", "1s")
	stdout, stderr, code = run(browserCmd(t, ""), "--trace", "list", "tools")
	if code != cli.ExitOK || !strings.Contains(stdout, `"whoami"`) || !strings.Contains(stderr, "no longer knows client") {
		t.Fatalf("list tools with a forgotten client: exit %d, want it registered again\n%s\n%s", code, stdout, stderr)
	}
}
