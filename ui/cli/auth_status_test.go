package cli_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/session/auth"
	"github.com/mcpscope/mcpscope/ui/cli"
)

// mainIn runs mcpscope's command line in this process and returns stdout, stderr and the
// exit code.
func mainIn(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := cli.Main(args, strings.NewReader(""), &out, &errOut)
	return out.String(), errOut.String(), code
}

type statusOut struct {
	Store   string `json:"store"`
	Server  string `json:"server"`
	Records []struct {
		Resource, Issuer, Token, Expires, Expiry string
		ClientID                                 string   `json:"client_id"`
		ClientSource                             string   `json:"client_source"`
		ClientSecret                             bool     `json:"client_secret_stored"`
		Scopes                                   []string `json:"scopes"`
		Refresh                                  bool     `json:"refresh_token"`
	} `json:"records"`
}

// TestAuthStatusLogout: `auth status` and `auth logout` on a file store in a temporary
// XDG_STATE_HOME, by server and for every server, never printing a secret.
func TestAuthStatusLogout(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	store := auth.NewFileStore(filepath.Join(state, "mcpscope"))
	const access, refresh, clientSecret = "eyJhbGciOiJSUzI1NiJ9.access-token-value.sig1", "refresh-token-value-0123456789", "client-secret-value-0123456789"
	recs := []*auth.Record{
		{Key: auth.Key{Resource: "https://a.example/mcp", Issuer: "https://as.example"}, ClientID: "cid-a", ClientSource: auth.ClientDynamic,
			ClientSecret: clientSecret, AccessToken: access, TokenType: "Bearer", RefreshToken: refresh,
			Expiry: time.Now().Add(90 * time.Minute), Scopes: []string{"mcp:read"}, Saved: time.Now()},
		{Key: auth.Key{Resource: "https://b.example", Issuer: "https://login.b.example"}, ClientID: "cid-b", ClientSource: auth.ClientPreRegistered},
	}
	for _, r := range recs {
		if err := store.Put(r); err != nil {
			t.Fatal(err)
		}
	}
	status := func(args ...string) statusOut {
		t.Helper()
		stdout, stderr, code := mainIn(t, append([]string{"auth", "status", "--token-store", "file"}, args...)...)
		if code != cli.ExitOK {
			t.Fatalf("auth status %v: exit %d: %s", args, code, stderr)
		}
		for _, s := range []string{access, refresh, clientSecret} {
			if strings.Contains(stdout+stderr, s) {
				t.Fatalf("auth status printed a secret: %s", stdout)
			}
		}
		var out statusOut
		if err := json.Unmarshal([]byte(stdout), &out); err != nil {
			t.Fatalf("auth status output: %v\n%s", err, stdout)
		}
		return out
	}

	all := status()
	if len(all.Records) != 2 || !strings.HasPrefix(all.Store, "file ") {
		t.Fatalf("status of every server: %+v", all)
	}
	a := all.Records[0]
	if a.Resource != "https://a.example/mcp" || a.ClientID != "cid-a" || !a.ClientSecret || !a.Refresh ||
		a.Token != "eyJh…(44 bytes)" || !strings.HasPrefix(a.Expires, "in 1h29m") && !strings.HasPrefix(a.Expires, "in 1h30m") || a.Expiry == "" {
		t.Errorf("record a: %+v", a)
	}
	if b := all.Records[1]; b.Token != "" || b.Expires != "no token (client registration only)" || b.Refresh {
		t.Errorf("record b: %+v", b)
	}
	// A resource naming an origin covers the server's endpoint under it.
	if one := status("--url", "https://B.example/mcp"); len(one.Records) != 1 || one.Records[0].ClientID != "cid-b" || one.Server != "https://B.example/mcp" {
		t.Errorf("status --url b: %+v", one)
	}
	if none := status("--url", "https://c.example/mcp"); len(none.Records) != 0 {
		t.Errorf("status of an unknown server: %+v", none)
	}
	if _, stderr, code := mainIn(t, "auth", "status", "--token-store", "file", "--", "node", "server.js"); code != cli.ExitUsage || !strings.Contains(stderr, "HTTP servers") {
		t.Errorf("status of a stdio server: exit %d: %s", code, stderr)
	}

	if _, stderr, code := mainIn(t, "auth", "logout", "--token-store", "file"); code != cli.ExitUsage || !strings.Contains(stderr, "--all") {
		t.Errorf("logout without a server: exit %d: %s", code, stderr)
	}
	stdout, stderr, code := mainIn(t, "auth", "logout", "--no-revoke", "--token-store", "file", "--url", "https://a.example/mcp")
	if code != cli.ExitOK || !strings.Contains(stdout, `"resource": "https://a.example/mcp"`) {
		t.Fatalf("logout a: exit %d: %s %s", code, stdout, stderr)
	}
	if left := status(); len(left.Records) != 1 || left.Records[0].ClientID != "cid-b" {
		t.Errorf("after logout a: %+v", left)
	}
	if _, stderr, code := mainIn(t, "auth", "logout", "--no-revoke", "--token-store", "file", "--all"); code != cli.ExitOK {
		t.Fatalf("logout --all: exit %d: %s", code, stderr)
	}
	if left := status(); len(left.Records) != 0 {
		t.Errorf("after logout --all: %+v", left)
	}
	st, err := os.Stat(store.Path())
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("store file after logout: %v %v", st, err)
	}
}

// TestAuthStatusCorruptStore: a store file that cannot be read fails the command with the
// reason and is not touched by a logout.
func TestAuthStatusCorruptStore(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	path := filepath.Join(state, "mcpscope", "auth.json")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("{oops"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"auth", "status", "--token-store", "file"}, {"auth", "logout", "--all", "--token-store", "file"}} {
		_, stderr, code := mainIn(t, args...)
		if code == cli.ExitOK || !strings.Contains(stderr, "left untouched") {
			t.Errorf("%v: exit %d: %s", args, code, stderr)
		}
	}
	if b, _ := os.ReadFile(path); string(b) != "{oops" {
		t.Errorf("the corrupt store was changed: %q", b)
	}
}
