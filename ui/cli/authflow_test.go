package cli_test

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/ui/cli"
)

// oauthServer is a small MCP server protected by its own authorization server, for the
// headless flow end to end: metadata, dynamic registration, an authorization endpoint that
// approves at once, PKCE-checked codes, refresh tokens, and tools/call needing more scope.
type oauthServer struct {
	url string

	mu         sync.Mutex
	authorized []string            // the scope of each authorization request
	refreshes  int                 // refresh_token grants
	refused    int                 // MCP requests answered 401
	registered int                 // dynamic registrations
	deny       bool                // the authorization endpoint answers access_denied
	crash      bool                // an unknown access token gets HTTP 500, not 401
	crashed    int                 // MCP requests answered 500
	tokens     map[string][]string // live access token → scopes
	challenge  map[string]string   // code → S256 challenge
	scopes     map[string]string   // code → scope
	n          int
}

func newOAuthServer(t *testing.T) *oauthServer {
	o := &oauthServer{tokens: map[string][]string{}, challenge: map[string]string{}, scopes: map[string]string{}}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(o.serve))
	o.url = "http://" + srv.Listener.Addr().String() // before it serves: handlers read it
	srv.Start()
	t.Cleanup(srv.Close)
	return o
}

func (o *oauthServer) json(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// expireTokens makes every access token invalid, as if it had expired.
func (o *oauthServer) expireTokens() {
	o.mu.Lock()
	defer o.mu.Unlock()
	clear(o.tokens)
}

func (o *oauthServer) serve(w http.ResponseWriter, r *http.Request) {
	o.mu.Lock()
	defer o.mu.Unlock()
	switch r.URL.Path {
	case "/.well-known/oauth-protected-resource/mcp":
		o.json(w, 200, map[string]any{"resource": o.url + "/mcp", "authorization_servers": []string{o.url}, "scopes_supported": []string{"mcp:read"}})
	case "/.well-known/oauth-authorization-server":
		o.json(w, 200, map[string]any{"issuer": o.url, "authorization_endpoint": o.url + "/authorize", "token_endpoint": o.url + "/token",
			"registration_endpoint": o.url + "/register", "code_challenge_methods_supported": []string{"S256"},
			"token_endpoint_auth_methods_supported": []string{"none"}, "scopes_supported": []string{"mcp:read", "mcp:write", "offline_access"},
			"authorization_response_iss_parameter_supported": true})
	case "/register":
		o.registered++
		o.json(w, 201, map[string]any{"client_id": "client-1", "token_endpoint_auth_method": "none"})
	case "/authorize":
		q := r.URL.Query()
		o.n++
		code := fmt.Sprintf("code-%d", o.n)
		o.challenge[code], o.scopes[code] = q.Get("code_challenge"), q.Get("scope")
		o.authorized = append(o.authorized, q.Get("scope"))
		back, _ := url.Parse(q.Get("redirect_uri"))
		bq := back.Query()
		if o.deny {
			bq.Set("error", "access_denied")
			bq.Set("state", q.Get("state"))
			back.RawQuery = bq.Encode()
			http.Redirect(w, r, back.String(), http.StatusFound)
			return
		}
		bq.Set("code", code)
		bq.Set("state", q.Get("state"))
		bq.Set("iss", o.url)
		back.RawQuery = bq.Encode()
		http.Redirect(w, r, back.String(), http.StatusFound)
	case "/token":
		_ = r.ParseForm()
		var scope string
		switch r.Form.Get("grant_type") {
		case "authorization_code":
			code := r.Form.Get("code")
			sum := sha256.Sum256([]byte(r.Form.Get("code_verifier")))
			if o.challenge[code] == "" || base64.RawURLEncoding.EncodeToString(sum[:]) != o.challenge[code] || r.Form.Get("resource") != o.url+"/mcp" {
				o.json(w, 400, map[string]any{"error": "invalid_grant"})
				return
			}
			scope = o.scopes[code]
			delete(o.challenge, code)
		case "refresh_token":
			o.refreshes++
			scope = strings.TrimPrefix(r.Form.Get("refresh_token"), "rt:")
		default:
			o.json(w, 400, map[string]any{"error": "unsupported_grant_type"})
			return
		}
		o.n++
		tok := fmt.Sprintf("at-%d", o.n)
		o.tokens[tok] = strings.Fields(scope)
		o.json(w, 200, map[string]any{"access_token": tok, "token_type": "Bearer", "expires_in": 3600, "refresh_token": "rt:" + scope, "scope": scope})
	case "/mcp":
		o.mcp(w, r)
	default:
		http.NotFound(w, r)
	}
}

func (o *oauthServer) mcp(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	challenge := fmt.Sprintf(`Bearer resource_metadata="%s/.well-known/oauth-protected-resource/mcp"`, o.url)
	scopes, ok := o.tokens[strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")]
	if !ok && o.crash && r.Header.Get("Authorization") != "" {
		o.crashed++
		http.Error(w, "internal error: no such token", http.StatusInternalServerError)
		return
	}
	if !ok {
		o.refused++
		w.Header().Set("WWW-Authenticate", challenge)
		o.json(w, 401, map[string]any{"error": "invalid_token"})
		return
	}
	body, _ := io.ReadAll(r.Body)
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	_ = json.Unmarshal(body, &msg)
	if msg.Method == "tools/call" && !slices.Contains(scopes, "mcp:write") {
		w.Header().Set("WWW-Authenticate", challenge+`, error="insufficient_scope", scope="mcp:write"`)
		o.json(w, 403, map[string]any{"error": "insufficient_scope"})
		return
	}
	var result any
	switch msg.Method {
	case "initialize":
		result = map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{"tools": map[string]any{}},
			"serverInfo": map[string]any{"name": "oauth-fixture", "version": "1"}}
	case "tools/list":
		result = map[string]any{"tools": []any{map[string]any{"name": "echo", "inputSchema": map[string]any{"type": "object"}}}}
	case "tools/call":
		result = map[string]any{"content": []any{map[string]any{"type": "text", "text": "ok"}}}
	case "":
		w.WriteHeader(http.StatusAccepted)
		return
	default:
		result = map[string]any{}
	}
	if len(msg.ID) == 0 {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	o.json(w, 200, map[string]any{"jsonrpc": "2.0", "id": msg.ID, "result": result})
}

func (o *oauthServer) counts() (authorized []string, refreshes int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Clone(o.authorized), o.refreshes
}

// TestAuthFlow runs the headless flow end to end with a browser that follows the URL: the
// first command authorizes, the next uses the stored token, an expired token is refreshed,
// and a 403 insufficient_scope steps up to the union of the scopes.
func TestAuthFlow(t *testing.T) {
	t.Parallel()
	o := newOAuthServer(t)
	browser := sessiontest.NodePath(t) + " " + filepath.Join(sessiontest.ModuleRoot(t), "testdata", "conformance", "browser.mjs")
	state := t.TempDir()
	run := func(args ...string) string {
		t.Helper()
		stdout, stderr, code := runAuthEnv(t, []string{"XDG_STATE_HOME=" + state, "BROWSER=" + browser},
			append([]string{"--protocol", "2025-11-25", "--no-listen"}, append(args, "--url", o.url+"/mcp")...)...)
		if code != 0 {
			t.Fatalf("mcpscope %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, stdout, stderr)
		}
		if strings.Contains(stderr, "at-") || strings.Contains(stderr, "rt:") {
			t.Errorf("a token reached stderr unmasked:\n%s", stderr)
		}
		return stdout
	}

	if out := run("--trace", "list", "tools"); !strings.Contains(out, `"echo"`) {
		t.Fatalf("list tools: %s", out)
	}
	if got, _ := o.counts(); !slices.Equal(got, []string{"mcp:read offline_access"}) {
		t.Fatalf("authorizations %q, want one for the PRM's scopes_supported and offline_access", got)
	}

	run("list", "tools")
	if got, _ := o.counts(); len(got) != 1 {
		t.Fatalf("the second run authorized again (%q) instead of using the stored token", got)
	}

	o.expireTokens()
	run("list", "tools")
	if got, refreshes := o.counts(); len(got) != 1 || refreshes != 1 {
		t.Fatalf("after expiry: authorizations %q, refreshes %d; want the token refreshed", got, refreshes)
	}

	if out := run("call", "echo"); !strings.Contains(out, `"ok"`) {
		t.Fatalf("call: %s", out)
	}
	got, _ := o.counts()
	if len(got) != 2 || !strings.Contains(got[1], "mcp:read") || !strings.Contains(got[1], "mcp:write") {
		t.Fatalf("step-up: authorizations %q, want a second one for mcp:read and mcp:write", got)
	}
}

// TestAuthEager: --auth authorizes before the first request, which then needs no 401; on a
// server without resource metadata at the well-known locations it waits for the 401.
func TestAuthEager(t *testing.T) {
	o := newOAuthServer(t)
	browser := sessiontest.NodePath(t) + " " + filepath.Join(sessiontest.ModuleRoot(t), "testdata", "conformance", "browser.mjs")
	env := []string{"XDG_STATE_HOME=" + t.TempDir(), "BROWSER=" + browser}
	stdout, stderr, code := runAuthEnv(t, env, "--auth", "--protocol", "2025-11-25", "--no-listen", "list", "tools", "--url", o.url+"/mcp")
	if code != 0 || !strings.Contains(stdout, `"echo"`) {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	o.mu.Lock()
	refused, authorized := o.refused, len(o.authorized)
	o.mu.Unlock()
	if refused != 0 || authorized != 1 {
		t.Errorf("--auth: %d requests refused, %d authorizations; want 0 and 1", refused, authorized)
	}

	// Metadata only named by the 401's challenge: --auth finds none first, and the flow
	// runs on the 401 (here to refuse the resource it names).
	url := protectedServer(t, func(string) string { return "https://evil.example.com/mcp" })
	_, stderr, code = runAuthEnv(t, env, "--auth", "--trace", "list", "tools", "--url", url)
	if code != cli.ExitAuth || !strings.Contains(stderr, "authorizing when the server asks") || !strings.Contains(stderr, "auth.resource-mismatch") {
		t.Errorf("--auth on a server naming its metadata only in the challenge: exit %d\n%s", code, stderr)
	}
}

// TestAuthDemo is the flow as a new user meets it, against `demo --http --auth`: the first
// command opens the browser and lists tools, the next needs no browser, a tool that needs
// more scope steps up, in both eras; `auth login` authorizes anew and prints the outcome.
func TestAuthDemo(t *testing.T) {
	t.Parallel()
	u := startAuthDemo(t)
	browser := sessiontest.NodePath(t) + " " + filepath.Join(sessiontest.ModuleRoot(t), "testdata", "conformance", "browser.mjs")
	for _, era := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(era, func(t *testing.T) {
			env := []string{"XDG_STATE_HOME=" + t.TempDir(), "BROWSER=" + browser}
			run := func(args ...string) string {
				t.Helper()
				stdout, stderr, code := runAuthEnv(t, env, append([]string{"--protocol", era}, append(args, "--url", u)...)...)
				if code != 0 {
					t.Fatalf("mcpscope %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, stdout, stderr)
				}
				return stdout + stderr
			}
			if out := run("list", "tools"); !strings.Contains(out, "opened the browser") || !strings.Contains(out, `"whoami"`) {
				t.Fatalf("first run: want the browser opened and the tools listed:\n%s", out)
			}
			if out := run("list", "tools"); strings.Contains(out, "opened the browser") {
				t.Fatalf("second run opened the browser again:\n%s", out)
			}
			if out := run("call", "admin_stats"); !strings.Contains(out, "opened the browser") {
				t.Fatalf("admin_stats: want a step-up authorization:\n%s", out)
			}
			out := run("auth", "login")
			if !strings.Contains(out, `"state": "authorized"`) || !strings.Contains(out, "demo:admin") {
				t.Fatalf("auth login:\n%s", out)
			}
		})
	}
}

// TestAuthSlowBrowser: a user slower in the browser than --timeout does not fail the
// request: its clock starts again when the authorization is done.
func TestAuthSlowBrowser(t *testing.T) {
	o := newOAuthServer(t)
	dir := t.TempDir()
	script := filepath.Join(dir, "slow-browser")
	browser := sessiontest.NodePath(t) + " " + filepath.Join(sessiontest.ModuleRoot(t), "testdata", "conformance", "browser.mjs")
	// The user takes a while to approve: longer than the request timeout below.
	if err := os.WriteFile(script, []byte("#!/bin/sh\nsleep 1\nexec "+browser+" \"$1\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := []string{"XDG_STATE_HOME=" + dir, "BROWSER=" + script}
	stdout, stderr, code := runAuthEnv(t, env, "--protocol", "2025-11-25", "--timeout", "300ms", "--no-listen", "list", "tools", "--url", o.url+"/mcp")
	if code != 0 || !strings.Contains(stdout, `"echo"`) {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}

// TestAuthPasteCode: when the loopback listener cannot be opened (its port is taken), the
// user pastes the address the browser ended on.
func TestAuthPasteCode(t *testing.T) {
	o := newOAuthServer(t)
	pasted := make(chan string, 1)
	// The port mcpscope wants is taken by a server that, like a browser's address bar,
	// shows where the authorization server sent the user.
	taken := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case pasted <- "http://" + r.Host + r.URL.RequestURI():
		default:
		}
	}))
	t.Cleanup(taken.Close)
	tu, _ := url.Parse(taken.URL)
	browser := sessiontest.NodePath(t) + " " + filepath.Join(sessiontest.ModuleRoot(t), "testdata", "conformance", "browser.mjs")
	cmd := exec.Command(sessiontest.BuildMCPScope(t), "--protocol", "2025-11-25", "--no-listen", "--callback-port", tu.Port(),
		"list", "tools", "--url", o.url+"/mcp")
	cmd.Env = append(os.Environ(), "SSH_CONNECTION=", "XDG_STATE_HOME="+t.TempDir(), "BROWSER="+browser)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	select {
	case u := <-pasted:
		fmt.Fprintln(stdin, u)
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("the browser never reached the redirect URI\nstderr:\n%s", stderr.String())
	}
	if err := cmd.Wait(); err != nil || !strings.Contains(stdout.String(), `"echo"`) {
		t.Fatalf("%v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	if !strings.Contains(stderr.String(), "paste the address") {
		t.Errorf("the user was not asked to paste:\n%s", stderr.String())
	}
}

// TestAuthClientReused: a client registered during a login that then failed (the user
// denied it) is kept, and the next login uses it instead of registering another.
func TestAuthClientReused(t *testing.T) {
	o := newOAuthServer(t)
	o.mu.Lock()
	o.deny = true
	o.mu.Unlock()
	browser := sessiontest.NodePath(t) + " " + filepath.Join(sessiontest.ModuleRoot(t), "testdata", "conformance", "browser.mjs")
	env := []string{"XDG_STATE_HOME=" + t.TempDir(), "BROWSER=" + browser}
	args := []string{"--protocol", "2025-11-25", "--no-listen", "list", "tools", "--url", o.url + "/mcp"}
	if _, stderr, code := runAuthEnv(t, env, args...); code != cli.ExitAuth {
		t.Fatalf("denied login: exit %d, want %d\n%s", code, cli.ExitAuth, stderr)
	}
	o.mu.Lock()
	o.deny = false
	o.mu.Unlock()
	if stdout, stderr, code := runAuthEnv(t, env, args...); code != 0 || !strings.Contains(stdout, `"echo"`) {
		t.Fatalf("second login: exit %d\n%s\n%s", code, stdout, stderr)
	}
	o.mu.Lock()
	n := o.registered
	o.mu.Unlock()
	if n != 1 {
		t.Errorf("%d dynamic registrations, want 1: the second login registered again", n)
	}
}
