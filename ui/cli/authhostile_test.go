package cli_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/ui/cli"
)

// hostileOAuth is the oauthServer's authorization server in front of a resource that
// misbehaves: mcp answers the MCP endpoint, authorize (when set) the authorization endpoint.
func hostileOAuth(t *testing.T, mcp, authorize http.HandlerFunc) *oauthServer {
	o := &oauthServer{tokens: map[string][]string{}, challenge: map[string]string{}, scopes: map[string]string{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/mcp":
			mcp(w, r)
		case r.URL.Path == "/authorize" && authorize != nil:
			authorize(w, r)
		default:
			o.serve(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	o.url = srv.URL
	return o
}

// TestAuthHostileRefusesEveryToken: a server that answers 401 to every token, fresh ones
// included, gets a bounded number of authorizations (no browser storm), the command fails
// with the authorization exit code, and no token reaches the trace unmasked.
func TestAuthHostileRefusesEveryToken(t *testing.T) {
	var o *oauthServer
	o = hostileOAuth(t, func(w http.ResponseWriter, r *http.Request) {
		o.mu.Lock()
		o.refused++
		o.mu.Unlock()
		w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer resource_metadata="%s/.well-known/oauth-protected-resource/mcp", error="invalid_token"`, o.url))
		w.WriteHeader(http.StatusUnauthorized)
	}, nil)
	browser := sessiontest.NodePath(t) + " " + filepath.Join(sessiontest.ModuleRoot(t), "testdata", "conformance", "browser.mjs")
	env := []string{"XDG_STATE_HOME=" + t.TempDir(), "BROWSER=" + browser}
	_, stderr, code := runAuthEnv(t, env, "--protocol", "2025-11-25", "--no-listen", "--trace", "list", "tools", "--url", o.url+"/mcp")
	authorized, _ := o.counts()
	if code != cli.ExitAuth || len(authorized) == 0 || len(authorized) > 2 {
		t.Fatalf("exit %d after %d authorizations\n%s", code, len(authorized), stderr)
	}
	if !strings.Contains(stderr, "401") || !strings.Contains(stderr, "refused the token") {
		t.Errorf("the error does not say the server refused the token:\n%s", stderr)
	}
	for _, leak := range []string{`at-1"`, `at-2"`, "rt:mcp", "code_verifier=" + "a"} {
		if strings.Contains(stderr, leak) {
			t.Errorf("%q reached the trace unmasked", leak)
		}
	}
}

// TestAuthHostileAccessDenied: the authorization server answers error=access_denied (with
// a description meant to paint the terminal): the command fails with the authorization
// exit code and says the access was denied, the description quoted.
func TestAuthHostileAccessDenied(t *testing.T) {
	var o *oauthServer
	o = hostileOAuth(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer resource_metadata="%s/.well-known/oauth-protected-resource/mcp"`, o.url))
		w.WriteHeader(http.StatusUnauthorized)
	}, func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		back, _ := url.Parse(q.Get("redirect_uri"))
		bq := back.Query()
		bq.Set("error", "access_denied")
		bq.Set("error_description", "\x1b[2Jthe user said no")
		bq.Set("state", q.Get("state"))
		bq.Set("iss", o.url)
		back.RawQuery = bq.Encode()
		http.Redirect(w, r, back.String(), http.StatusFound)
	})
	browser := sessiontest.NodePath(t) + " " + filepath.Join(sessiontest.ModuleRoot(t), "testdata", "conformance", "browser.mjs")
	env := []string{"XDG_STATE_HOME=" + t.TempDir(), "BROWSER=" + browser}
	_, stderr, code := runAuthEnv(t, env, "--protocol", "2025-11-25", "--no-listen", "list", "tools", "--url", o.url+"/mcp")
	if code != cli.ExitAuth || !strings.Contains(stderr, "access_denied") || !strings.Contains(stderr, "denied") {
		t.Fatalf("exit %d, want %d with access_denied explained\n%s", code, cli.ExitAuth, stderr)
	}
	if strings.Contains(stderr, "\x1b[2J") {
		t.Errorf("the server's escape sequence reached the terminal:\n%q", stderr)
	}
}
