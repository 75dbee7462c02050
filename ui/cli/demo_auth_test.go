package cli_test

import (
	"bufio"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/ui/cli"
)

// startAuthDemo runs `mcpscope demo --http 127.0.0.1:0 --auth --auto-approve`
// and returns the /mcp URL it prints.
func startAuthDemo(t *testing.T) string {
	t.Helper()
	bin := sessiontest.BuildMCPScope(t)
	cmd := exec.Command(bin, "demo", "--http", "127.0.0.1:0", "--auth", "--auto-approve")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
	})
	found := make(chan string, 1)
	go func() {
		re := regexp.MustCompile(`connect with: mcpscope --url (http://\S+/mcp)`)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
	}()
	select {
	case u := <-found:
		return u
	case <-time.After(30 * time.Second):
		t.Fatal("demo --auth printed no URL to connect to")
		return ""
	}
}

// demoToken gets an access token from the demo's authorization server the
// way a client would: dynamic registration, the (auto-approved)
// authorization request, the token request with the PKCE verifier.
func demoToken(t *testing.T, mcpURL, scope string) string {
	t.Helper()
	base := strings.TrimSuffix(mcpURL, "/mcp")
	hc := &http.Client{Timeout: 10 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := hc.Post(base+"/register", "application/json", strings.NewReader(`{"client_name":"cli test","redirect_uris":["http://127.0.0.1:1/cb"],"token_endpoint_auth_method":"none"}`))
	if err != nil {
		t.Fatal(err)
	}
	var reg struct {
		ClientID string `json:"client_id"`
	}
	json.NewDecoder(resp.Body).Decode(&reg)
	resp.Body.Close()
	verifier := strings.Repeat("v", 50)
	sum := sha256.Sum256([]byte(verifier))
	q := url.Values{"response_type": {"code"}, "client_id": {reg.ClientID}, "redirect_uri": {"http://127.0.0.1:1/cb"},
		"code_challenge": {base64.RawURLEncoding.EncodeToString(sum[:])}, "code_challenge_method": {"S256"},
		"resource": {mcpURL}, "scope": {scope}, "state": {"s"}}
	resp, err = hc.Get(base + "/authorize?" + q.Encode())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc, _ := url.Parse(resp.Header.Get("Location"))
	code := loc.Query().Get("code")
	resp, err = hc.PostForm(base+"/token", url.Values{"grant_type": {"authorization_code"}, "client_id": {reg.ClientID}, "code": {code},
		"redirect_uri": {"http://127.0.0.1:1/cb"}, "code_verifier": {verifier}, "resource": {mcpURL}})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	json.NewDecoder(resp.Body).Decode(&tok)
	if tok.AccessToken == "" {
		t.Fatalf("no access token (client %q, code given %v, status %s)", reg.ClientID, code != "", resp.Status)
	}
	return tok.AccessToken
}

// TestDemoAuth runs the demo with authorization and mcpscope against it with
// a bearer token, in both eras: a token with the demo scope lists and calls
// tools but is refused the admin tool (403), one with demo:admin is not.
func TestDemoAuth(t *testing.T) {
	if _, stderr, code := run(t, "demo", "--auth"); code != cli.ExitUsage || !strings.Contains(stderr, "--auth needs --http") {
		t.Errorf("demo --auth without --http: exit %d, %s", code, stderr)
	}
	if _, stderr, code := run(t, "demo", "--http", "127.0.0.1:0", "--auth", "--token-ttl", "0s"); code != cli.ExitUsage || !strings.Contains(stderr, "positive duration") {
		t.Errorf("demo --token-ttl 0s: exit %d, %s", code, stderr)
	}
	mcpURL := startAuthDemo(t)
	if _, stderr, code := run(t, "list", "tools", "--url", mcpURL, "--no-auth-prompt"); code != cli.ExitAuth || !strings.Contains(stderr, "401") {
		t.Errorf("without a token: exit %d, %s", code, stderr)
	}
	basic := demoToken(t, mcpURL, "demo")
	admin := demoToken(t, mcpURL, "demo demo:admin")
	for _, protocol := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(protocol, func(t *testing.T) {
			out := runOK(t, "list", "tools", "--url", mcpURL, "--bearer="+basic, "--protocol", protocol)
			if names := toolNames(t, out); !slices.Contains(names, "whoami") || !slices.Contains(names, "admin_stats") {
				t.Errorf("tools: %v", names)
			}
			if out := runOK(t, "call", "whoami", "--url", mcpURL, "--bearer="+basic, "--protocol", protocol); !strings.Contains(out, "scopes demo") {
				t.Errorf("whoami: %s", out)
			}
			_, stderr, code := run(t, "call", "admin_stats", "--url", mcpURL, "--bearer="+basic, "--protocol", protocol)
			if code == cli.ExitOK || !strings.Contains(stderr, "403") {
				t.Errorf("admin_stats with the demo scope: exit %d, %s", code, stderr)
			}
			if strings.Contains(stderr, basic) {
				t.Errorf("the token reached stderr")
			}
			if out := runOK(t, "call", "admin_stats", "--url", mcpURL, "--bearer="+admin, "--protocol", protocol); !strings.Contains(out, "registered clients 2") {
				t.Errorf("admin_stats with demo:admin: %s", out)
			}
		})
	}
}
