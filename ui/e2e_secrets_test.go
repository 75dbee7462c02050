package ui_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// TestTmuxSecretsMasked runs the interactive view on a server behind a 307 to another
// origin, with a secret in the URL, a -H header and the bearer token: the redirect shows
// as a row with its finding, and the secret is on no screen, in neither the window title,
// the --debug log nor the recording.
func TestTmuxSecretsMasked(t *testing.T) {
	t.Parallel()
	const sec = "SECRET-tmux-31c0ffee77"
	demo, _ := sessiontest.StartDemoHTTP(t)
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, demo, http.StatusTemporaryRedirect)
	}))
	t.Cleanup(front.Close)
	dir := t.TempDir()
	logPath, rec := filepath.Join(dir, "debug.log"), filepath.Join(dir, "rec.jsonl")
	tm := startTerm(t, 160, 40, "--url", front.URL+"/mcp?api_key="+sec, "-H", "X-Api-Key: "+sec, "--bearer", sec,
		"--transport", "http", "--debug", logPath, "--record", rec)
	var seen []string
	s := tm.waitFor("ready, with the redirect's row and its finding", func(s string) bool {
		seen = append(seen, s)
		return ready(s) && bodyHas(s, "POST", "307", "⚠1")
	})
	title, err := tm.cmd("display-message", "-p", "-t", tm.name, "#{pane_title}").Output()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(title), "api_key=****") {
		t.Errorf("window title %q does not show the masked URL", title)
	}
	tm.filter("has:finding")
	s2 := tm.waitFor("the redirect rows alone", func(s string) bool {
		seen = append(seen, s)
		return strings.Contains(statusLine(s), "rows match") && bodyHas(s, "307", "⚠1") && !bodyContains(s, "tools/list")
	})
	tm.keys("Enter")
	s3 := tm.waitFor("the redirect's detail: what was withheld and why", func(s string) bool {
		seen = append(seen, s)
		return bodyContains(s, "http.redirect-withheld") && bodyContains(s, "Authorization, X-Api-Key")
	})
	tm.quit()
	seen = append(seen, s, s2, s3, string(title))
	for _, f := range []string{logPath, rec} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		seen = append(seen, string(b))
	}
	for _, text := range seen {
		if strings.Contains(text, sec) {
			t.Fatalf("the secret shows:\n%s", text)
		}
	}
}
