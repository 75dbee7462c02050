package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/ui/cli"
)

// TestGrantFlagsUsage: the extension grant flags say what is missing before anything is
// sent (the URL is a closed port: reaching it would be a connection error, exit 3).
func TestGrantFlagsUsage(t *testing.T) {
	dir := t.TempDir()
	jwtFile := filepath.Join(dir, "workload.jwt")
	if err := os.WriteFile(jwtFile, []byte("eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ3In0.c2ln\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	keyFile := filepath.Join(dir, "key.pem")
	if err := os.WriteFile(keyFile, []byte("-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	url := "http://127.0.0.1:9/mcp"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--grant", "client-credentials"}, "needs --client-id and either --client-secret or --private-key"},
		{[]string{"--grant", "enterprise", "--client-id", "c", "--id-token", jwtFile}, "needs --idp-token-endpoint"},
		{[]string{"--grant", "jwt-bearer"}, "needs --assertion"},
		{[]string{"--assertion", jwtFile}, "need --grant jwt-bearer or enterprise"},
		{[]string{"--grant", "jwt-bearer", "--assertion", "-", "--id-token", "-"}, "only one can read stdin"},
		{[]string{"--grant", "jwt-bearer", "--assertion", filepath.Join(dir, "missing")}, "--assertion:"},
		{[]string{"--grant", "client-credentials", "--client-id", "c", "--private-key", keyFile}, "--private-key:"},
		{[]string{"--grant", "client-credentials", "--client-id", "c", "--client-secret", "s", "--signing-algorithm", "ES256"}, "--signing-algorithm needs --private-key"},
		{[]string{"--grant", "client-credentials", "--bearer", "tok-123456"}, "cannot be combined with --bearer"},
		{[]string{"--dpop", "sometimes"}, "--dpop"},
	} {
		args := append(append([]string{}, c.args...), "list", "tools", "--url", url)
		_, stderr, code := run(t, args...)
		if code != cli.ExitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("mcpscope %s: exit %d, stderr %q; want exit %d saying %q", strings.Join(args, " "), code, stderr, cli.ExitUsage, c.want)
		}
		if strings.Contains(stderr, "eyJzdWIiOiJ3In0") {
			t.Errorf("mcpscope %s printed the workload JWT: %q", strings.Join(args, " "), stderr)
		}
	}
}
