package cli_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// TestServerGetsNoCredentialEnv: a server started by mcpscope does not inherit mcpscope's
// credential variables: server-everything's get-env, printed with --no-redact, shows
// neither their names nor their values, and shows the rest of the environment.
func TestServerGetsNoCredentialEnv(t *testing.T) {
	node, index := sessiontest.NodePath(t), sessiontest.Everything(t)
	t.Setenv("MCPSCOPE_SERVE_TOKEN", "serve-token-from-env-81")
	t.Setenv("MCPSCOPE_IDP_CLIENT_SECRET", "idp-secret-from-env-82")
	t.Setenv("MCPSCOPE_TEST_KEPT", "kept-value-83")
	out := runOK(t, "--no-redact", "call", "get-env", "--", node, index, "stdio")
	if !strings.Contains(out, "kept-value-83") {
		t.Fatalf("get-env does not show the environment:\n%.2000s", out)
	}
	for _, leak := range []string{"MCPSCOPE_SERVE_TOKEN", "serve-token-from-env-81", "MCPSCOPE_IDP_CLIENT_SECRET", "idp-secret-from-env-82"} {
		if strings.Contains(out, leak) {
			t.Errorf("the server got %s", leak)
		}
	}
}

// TestMistypedEnvNotEchoed: an -e value with no '=' is refused without being echoed: it
// may be a secret typed without its name.
func TestMistypedEnvNotEchoed(t *testing.T) {
	_, stderr, code := run(t, "-e", "API_TOKEN hunter2hunter2", "info", "--", "true")
	if code == 0 || strings.Contains(stderr, "hunter2hunter2") || !strings.Contains(stderr, "KEY=VAL") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
}

// TestServeMistypedTargetNotEchoed: serve's connect refuses an env entry or a header with
// no name, and its error shows neither (they may be secrets typed without their names).
func TestServeMistypedTargetNotEchoed(t *testing.T) {
	bin := sessiontest.BuildMCPScope(t)
	cmd := exec.Command(bin, "serve", "--record-dir", t.TempDir())
	cmd.Env = serveEnv(t)
	a, _ := startAgent(t, &mcp.CommandTransport{Command: cmd}, "2025-11-25")
	for _, tc := range []struct {
		args   map[string]any
		secret string
	}{
		{map[string]any{"command": []string{bin, "demo"}, "env": []string{"API_TOKEN hunter2hunter2"}}, "hunter2hunter2"},
		{map[string]any{"command": []string{bin, "demo"}, "headers": []string{"hdr-token-value-77x"}}, "hdr-token-value-77x"},
	} {
		res := a.result("connect", tc.args)
		if !res.IsError || strings.Contains(text(res), tc.secret) {
			t.Errorf("connect %v: error %v, %s", tc.args, res.IsError, text(res))
		}
	}
}
