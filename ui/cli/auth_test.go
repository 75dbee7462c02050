package cli_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/ui/cli"
)

// runAuth runs the built mcpscope with its token store in a temporary directory.
func runAuth(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return runAuthEnv(t, []string{"XDG_STATE_HOME=" + t.TempDir(), "BROWSER=false"}, args...)
}

// runAuthEnv runs the built mcpscope with env added to the environment (not over ssh).
func runAuthEnv(t *testing.T, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return runCmd(t, 60*time.Second, "", func(cmd *exec.Cmd) {
		cmd.Env = append(append(os.Environ(), "SSH_CONNECTION="), env...)
	}, args...)
}

// protectedServer answers every MCP request 401 and publishes protected resource metadata
// that names resource.
func protectedServer(t *testing.T, resource func(base string) string) string {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	base := "http://" + srv.Listener.Addr().String() // known before it serves: handlers read it
	srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/mcp":
			w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer resource_metadata="%s/prm", scope="mcp:read"`, base))
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"error":"invalid_token"}`))
		case "/prm":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"resource":%q,"authorization_servers":[%q]}`, resource(base), base+"/as")
		default:
			http.NotFound(w, r)
		}
	})
	srv.Start()
	t.Cleanup(srv.Close)
	return base + "/mcp"
}

// TestAuthResourceMismatch: metadata naming another resource stops the flow before any
// authorization, with exit 7, the finding on the step, and the step in --trace.
func TestAuthResourceMismatch(t *testing.T) {
	url := protectedServer(t, func(string) string { return "https://evil.example.com/mcp" })
	stdout, stderr, code := runAuth(t, "--trace", "list", "tools", "--url", url)
	if code != cli.ExitAuth {
		t.Fatalf("exit %d, want %d (authorization failed)\nstdout:\n%s\nstderr:\n%s", code, cli.ExitAuth, stdout, stderr)
	}
	for _, want := range []string{`"step":"resource metadata"`, `"code":"auth.resource-mismatch"`, "refusing to authorize"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %s:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, `"step":"AS metadata"`) {
		t.Errorf("the flow went on to the authorization server after the mismatch:\n%s", stderr)
	}
}

// TestAuthNoPrompt: with --no-auth-prompt a server that asks for authorization fails the
// command with exit 7 and says why, without any discovery.
func TestAuthNoPrompt(t *testing.T) {
	url := protectedServer(t, func(base string) string { return base + "/mcp" })
	stdout, stderr, code := runAuth(t, "--no-auth-prompt", "--trace", "list", "tools", "--url", url)
	if code != cli.ExitAuth || !strings.Contains(stderr, "--no-auth-prompt") {
		t.Fatalf("exit %d, want %d with the reason\nstdout:\n%s\nstderr:\n%s", code, cli.ExitAuth, stdout, stderr)
	}
	if strings.Contains(stderr, `"step":"resource metadata"`) {
		t.Errorf("discovery ran despite --no-auth-prompt:\n%s", stderr)
	}
}
