package cli_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/ui/cli"
)

// runHeadless runs the built mcpscope with pipes for stdin, stdout and stderr (no
// terminal, so no person), without $BROWSER unless env sets it, and not over ssh. The
// deadline only keeps a broken build from hanging the suite: a command that waits for a
// login never ends on its own (the wait for the browser has no timeout), so the test
// fails on the exit code the kill leaves.
func runHeadless(t *testing.T, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return runCmd(t, 60*time.Second, "did not end on its own: it waited for a login no one can give", func(cmd *exec.Cmd) {
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, "BROWSER=") && !strings.HasPrefix(kv, "SSH_CONNECTION=") {
				cmd.Env = append(cmd.Env, kv)
			}
		}
		cmd.Env = append(append(cmd.Env, "XDG_STATE_HOME="+t.TempDir()), env...)
		cmd.Stdin = strings.NewReader("") // a pipe, not a terminal
	}, args...)
}

// TestHeadlessLoginFailsFast: with no terminal, a command against a server that needs a
// login fails at once with exit 7 and the hint, instead of waiting for a browser no one
// will use; check prints its whole report with a "needs a login" entry; a $BROWSER that
// fails is reported as failed, never as opened.
func TestHeadlessLoginFailsFast(t *testing.T) {
	mcpURL := startAuthDemo(t)

	t.Run("list", func(t *testing.T) {
		_, stderr, code := runHeadless(t, nil, "list", "tools", "--url", mcpURL, "--token-store", "none")
		if code != cli.ExitAuth {
			t.Fatalf("exit %d, want %d\nstderr:\n%s", code, cli.ExitAuth, stderr)
		}
		for _, want := range []string{"no one is at a terminal", "mcpscope auth login", "--no-auth-prompt"} {
			if !strings.Contains(stderr, want) {
				t.Errorf("stderr lacks %q:\n%s", want, stderr)
			}
		}
		if strings.Contains(stderr, "opened the browser") || strings.Contains(stderr, "open this address") {
			t.Errorf("a browser was offered to no one:\n%s", stderr)
		}
	})

	t.Run("check", func(t *testing.T) {
		stdout, stderr, code := runHeadless(t, nil, "check", "--url", mcpURL, "--token-store", "none")
		if code != cli.ExitAuth {
			t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, cli.ExitAuth, stdout, stderr)
		}
		if !strings.Contains(stdout, "WORST") || !strings.Contains(stdout, "needs a login") || !strings.Contains(stdout, "mcpscope auth login") {
			t.Errorf("the report has no needs-a-login entry:\n%s", stdout)
		}
		stdout, _, code = runHeadless(t, nil, "check", "--url", mcpURL, "--token-store", "none", "--format", "json")
		var rep struct {
			Login bool   `json:"needsLogin"`
			Error string `json:"error"`
		}
		if err := json.Unmarshal([]byte(stdout), &rep); err != nil || code != cli.ExitAuth || !rep.Login {
			t.Errorf("--format json: exit %d, %v, %+v\n%s", code, err, rep, stdout)
		}
	})

	t.Run("failing browser", func(t *testing.T) {
		_, stderr, code := runHeadless(t, []string{"BROWSER=false"}, "list", "tools", "--url", mcpURL, "--token-store", "none")
		if code != cli.ExitAuth {
			t.Fatalf("exit %d, want %d\nstderr:\n%s", code, cli.ExitAuth, stderr)
		}
		if strings.Contains(stderr, "opened the browser") {
			t.Errorf("a browser that failed was reported as opened:\n%s", stderr)
		}
		for _, want := range []string{"could not open the browser (false: exit status 1)", "mcpscope auth login"} {
			if !strings.Contains(stderr, want) {
				t.Errorf("stderr lacks %q:\n%s", want, stderr)
			}
		}
	})
}
