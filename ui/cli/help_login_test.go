package cli_test

import (
	"strings"
	"testing"
)

// TestAuthLoginHelp: auth login --help lists what applies to a login (the server's URL, the
// client, the scopes, the grants, the token store) and none of what does nothing for one
// (a spawned server's flags, fault rules, the session's capabilities, a recording, --auth,
// --no-auth-prompt, --bearer); another command's help still lists them.
func TestAuthLoginHelp(t *testing.T) {
	t.Setenv("COLUMNS", "200")
	stdout, stderr, code := mainIn(t, "auth", "login", "--help")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	for _, want := range []string{"--url=", "--client-id=", "--scope=", "--grant=", "--token-store=", "--callback-port=", "--trace"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("auth login --help lacks %s:\n%s", want, stdout)
		}
	}
	for _, not := range []string{"--fault=", "--root=", "--record=", "--no-auth-prompt", "--auth ", "--bearer=", "--cwd=", "--env=", "--tasks", "--elicit="} {
		if strings.Contains(stdout, not) {
			t.Errorf("auth login --help lists %s, which does nothing for a login:\n%s", not, stdout)
		}
	}
	other, _, _ := mainIn(t, "list", "--help")
	if !strings.Contains(other, "--fault=") || !strings.Contains(other, "--no-auth-prompt") {
		t.Errorf("list --help lost flags:\n%s", other)
	}
}
