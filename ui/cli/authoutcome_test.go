package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/ui/cli"
)

// browserCmd is $BROWSER for the tests: the conformance suite's stand-in browser, which
// follows the redirects; extra (such as "&deny=1") is added to the address it opens.
func browserCmd(t *testing.T, extra string) string {
	b := sessiontest.NodePath(t) + " " + filepath.Join(sessiontest.ModuleRoot(t), "testdata", "conformance", "browser.mjs")
	if extra != "" {
		b += " %s" + extra
	}
	return b
}

// firstError is the first line of stderr that mcpscope's error starts with.
func firstError(stderr string) string {
	for _, l := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(l, "mcpscope: ") && !strings.HasPrefix(l, "mcpscope: opened the browser") {
			return l
		}
	}
	return ""
}

// TestAuthDeniedStopsFirst: a denied consent, or --no-auth-prompt, on a server whose era
// is cached (the earlier era, so initialize is the handshake): the command asks for one
// authorization only (no second handshake asking again), the era cache stays, the exit
// code is the authorization one, and the error starts with the authorization's outcome
// and its step, not with the request's 401.
func TestAuthDeniedStopsFirst(t *testing.T) {
	mcpURL := startAuthDemo(t)
	state, cache := t.TempDir(), t.TempDir()
	env := func(browser string) []string {
		return []string{"XDG_STATE_HOME=" + state, "XDG_CACHE_HOME=" + cache, "BROWSER=" + browser}
	}
	if stdout, stderr, code := runAuthEnv(t, env(browserCmd(t, "")), "list", "tools", "--url", mcpURL); code != cli.ExitOK {
		t.Fatalf("first login: exit %d\n%s\n%s", code, stdout, stderr)
	}
	files, _ := filepath.Glob(filepath.Join(cache, "mcpscope", "era", "*.json"))
	if len(files) != 1 {
		t.Fatalf("era cache files after the first session: %v", files)
	}
	legacy := `{"era":"legacy","revision":"2025-11-25","learnt":"` + time.Now().UTC().Format(time.RFC3339) + `"}` + "\n"
	if err := os.WriteFile(files[0], []byte(legacy), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := runAuthEnv(t, env("false"), "auth", "logout", "--url", mcpURL); code != cli.ExitOK {
		t.Fatalf("auth logout: exit %d\n%s", code, stderr)
	}
	cached := func(what string) {
		t.Helper()
		if b, err := os.ReadFile(files[0]); err != nil || string(b) != legacy {
			t.Errorf("%s: the era cache changed: %q, %v", what, b, err)
		}
	}

	_, stderr, code := runAuthEnv(t, env(browserCmd(t, "&deny=1")), "list", "tools", "--url", mcpURL)
	if code != cli.ExitAuth {
		t.Fatalf("denied: exit %d, want %d\n%s", code, cli.ExitAuth, stderr)
	}
	if n := strings.Count(stderr, "opened the browser"); n != 1 {
		t.Errorf("denied: the browser was opened %d times, want once:\n%s", n, stderr)
	}
	if got, want := firstError(stderr), `mcpscope: [authorize] the authorization server answered access_denied ("the user denied the request")`; !strings.HasPrefix(got, want) {
		t.Errorf("denied: the error starts %q, want %q\n%s", got, want, stderr)
	}
	cached("denied")

	_, stderr, code = runAuthEnv(t, env("false"), "--no-auth-prompt", "list", "tools", "--url", mcpURL)
	if code != cli.ExitAuth || !strings.HasPrefix(firstError(stderr), "mcpscope: [authorize] the server requires authorization and --no-auth-prompt is set") {
		t.Errorf("--no-auth-prompt: exit %d, want %d with the outcome first\n%s", code, cli.ExitAuth, stderr)
	}
	cached("--no-auth-prompt")

	// check's report says the same first, not the server's 401 text.
	stdout, stderr, code := runAuthEnv(t, env("false"), "--no-auth-prompt", "check", "--url", mcpURL)
	if code != cli.ExitAuth || !strings.Contains(stdout, "[authorize] the server requires authorization and --no-auth-prompt is set") ||
		strings.Contains(stdout, "sign in to get a bearer token") {
		t.Errorf("check --no-auth-prompt: exit %d, want %d with the outcome first in the report\n%s\n%s", code, cli.ExitAuth, stdout, stderr)
	}
	cached("check --no-auth-prompt")
}

// TestAuthLoginScopesNotGranted: auth login says which of the scopes it asked for the token
// lacks (the demo knows no "bogus"); offline_access, granted with a refresh token, is not
// among them. --no-auth-prompt, which auth login --help does not list, does not stop it.
func TestAuthLoginScopesNotGranted(t *testing.T) {
	mcpURL := startAuthDemo(t)
	env := []string{"XDG_STATE_HOME=" + t.TempDir(), "BROWSER=" + browserCmd(t, "")}
	// --no-auth-prompt does not apply to auth login, the login it points to.
	stdout, stderr, code := runAuthEnv(t, env, "auth", "login", "--no-auth-prompt", "--token-store", "none", "--scope", "demo bogus", "--url", mcpURL)
	if code != cli.ExitOK {
		t.Fatalf("auth login: exit %d\n%s\n%s", code, stdout, stderr)
	}
	var st struct {
		Scopes     []string `json:"scopes"`
		NotGranted []string `json:"scopes_not_granted"`
	}
	if err := json.Unmarshal([]byte(stdout), &st); err != nil {
		t.Fatal(err)
	}
	if strings.Join(st.NotGranted, " ") != "bogus" || !slices.Contains(st.Scopes, "demo") {
		t.Errorf("scopes %q, not granted %q; want bogus alone not granted\n%s", st.Scopes, st.NotGranted, stdout)
	}
}
