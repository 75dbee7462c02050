package cli_test

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/ui/cli"
)

// storedAccessToken is the access token the file store under state holds.
func storedAccessToken(t *testing.T, state string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(state, "mcpscope", "auth.json"))
	if err != nil {
		t.Fatal(err)
	}
	var data struct {
		Records []struct {
			AccessToken string `json:"access_token"`
		} `json:"records"`
	}
	if err := json.Unmarshal(b, &data); err != nil || len(data.Records) != 1 || data.Records[0].AccessToken == "" {
		t.Fatalf("the store holds no one token (%v):\n%s", err, b)
	}
	return data.Records[0].AccessToken
}

// statusWith is the HTTP status the MCP endpoint answers a request carrying tok.
func statusWith(t *testing.T, mcpURL, tok string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, mcpURL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestAuthLogoutRevokes: auth logout revokes the stored tokens at the authorization server
// when it offers revocation (RFC 7009), so the token no longer opens the server, and
// --trace shows the requests with the token masked; with --no-revoke it only forgets them,
// and the token still works.
func TestAuthLogoutRevokes(t *testing.T) {
	mcpURL := startAuthDemo(t)
	state := t.TempDir()
	env := []string{"XDG_STATE_HOME=" + state, "BROWSER=" + browserCmd(t, "")}
	login := func() string {
		t.Helper()
		if stdout, stderr, code := runAuthEnv(t, env, "auth", "login", "--token-store", "file", "--url", mcpURL); code != cli.ExitOK {
			t.Fatalf("auth login: exit %d\n%s\n%s", code, stdout, stderr)
		}
		tok := storedAccessToken(t, state)
		if st := statusWith(t, mcpURL, tok); st == http.StatusUnauthorized {
			t.Fatalf("the token just issued is refused (%d)", st)
		}
		return tok
	}

	tok := login()
	stdout, stderr, code := runAuthEnv(t, env, "--trace", "auth", "logout", "--token-store", "file", "--url", mcpURL)
	if code != cli.ExitOK || !strings.Contains(stdout, `"refresh_token"`) || !strings.Contains(stdout, `"access_token"`) || !strings.Contains(stdout, "/revoke") {
		t.Fatalf("auth logout: exit %d, want the tokens said revoked\n%s\n%s", code, stdout, stderr)
	}
	if strings.Count(stderr, `"step":"revocation"`) != 2 || strings.Contains(stderr, tok) {
		t.Errorf("--trace: want the two revocation requests, the token masked:\n%s", stderr)
	}
	if st := statusWith(t, mcpURL, tok); st != http.StatusUnauthorized {
		t.Errorf("after auth logout the token still opens the server (HTTP %d)", st)
	}

	tok = login()
	stdout, stderr, code = runAuthEnv(t, env, "auth", "logout", "--no-revoke", "--token-store", "file", "--url", mcpURL)
	if code != cli.ExitOK || strings.Contains(stdout, "revocation") || !strings.Contains(stdout, `"removed"`) {
		t.Fatalf("auth logout --no-revoke: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if st := statusWith(t, mcpURL, tok); st == http.StatusUnauthorized {
		t.Errorf("auth logout --no-revoke revoked the token")
	}
}
