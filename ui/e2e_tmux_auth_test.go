package ui_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/session/demo"
	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// TestTmuxAuthJourney opens the demo with authorization as a new user would: the server's
// 401 starts the flow and a dialog shows the authorization URL (the browser, a command that
// does nothing, leaves it waiting); the URL read off the screen, its lines joined as a
// selection gives them, is approved (a GET with approve=1, as the demo allows), and the
// handshake completes; the Auth page shows what was obtained, the token masked. A second
// run in the same terminal uses the stored token: no dialog.
func TestTmuxAuthJourney(t *testing.T) {
	mcpURL := sessiontest.StartDemoAuthHTTP(t, demo.AuthOptions{})
	t.Setenv("BROWSER", "true")
	args := []string{"--url", mcpURL, "--token-store", "file"}
	tm := startTerm(t, 130, 36, args...)
	s := tm.waitFor("the dialog for the browser", func(s string) bool {
		return bodyContains(s, "Waiting for the browser") && bodyContains(s, "esc stop waiting")
	})
	u := dialogURL(s)
	base := strings.TrimSuffix(mcpURL, "/mcp")
	if !strings.HasPrefix(u, base+"/authorize?") || !strings.Contains(u, "code_challenge_method=S256") || !strings.Contains(u, "&state=") {
		t.Fatalf("the URL read off the dialog: %q", u)
	}
	if !strings.Contains(statusLine(s), "auth waiting for the browser") {
		t.Errorf("status bar: %q", statusLine(s))
	}
	resp, err := http.Get(u + "&approve=1")
	if err != nil {
		t.Fatalf("approve: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("approve: the callback answered %s", resp.Status)
	}
	tm.waitFor("ready and authorized", func(s string) bool {
		return ready(s) && strings.Contains(statusLine(s), "auth authorized") && !bodyContains(s, "Waiting for the browser")
	})
	tm.keys("7")
	tm.waitFor("the Auth page", func(s string) bool {
		return bodyHas(s, "state", "authorized") && bodyHas(s, "client", "(dynamic registration)") &&
			bodyHas(s, "token", "Bearer", "bytes)") && bodyHas(s, "refresh token", "stored") && bodyHas(s, "store", "file")
	})
	tm.quit()

	tm.respawn(sessiontest.BuildMCPScope(t), args...)
	tm.waitFor("the second run ready with the stored token", func(s string) bool {
		return ready(s) && strings.Contains(statusLine(s), "auth authorized")
	})
	if bodyContains(tm.last, "Waiting for the browser") {
		t.Error("the second run asked for the browser")
	}
	tm.quit()
}

// dialogURL reads the authorization URL off the dialog: the lines between its "Open this
// URL" line and its key hints, inside the frame, joined.
func dialogURL(screen string) string {
	var b strings.Builder
	in := false
	for _, l := range lines(screen) {
		switch {
		case strings.Contains(l, "Open this URL"):
			in = true
			continue
		case !in:
			continue
		}
		_, inner, ok := strings.Cut(l, "│ ")
		inner = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(inner), "│"))
		if !ok || inner == "" {
			break
		}
		b.WriteString(inner)
	}
	return b.String()
}
