package ui_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// urlRequiredTerm runs the demo server in 2025-11-25 (the revision of error -32042) in a
// w×h terminal whose xdg-open writes the URL it is given to the returned file, and calls
// url_required from the composer.
func urlRequiredTerm(t *testing.T, w, h int) (*term, string) {
	t.Helper()
	tm, opened := urlRequiredStart(t, w, h)
	tm.composeCall(`{"name":"url_required","arguments":{}}`)
	tm.waitFor("the -32042 dialog", urlRequiredDialogOn)
	return tm, opened
}

// urlRequiredDialogOn reports whether the -32042 dialog is on screen with its page and keys.
func urlRequiredDialogOn(s string) bool {
	return bodyContains(s, "The server needs you to open a page first") && bodyContains(s, "Domain  127.0.0.1") &&
		bodyContains(s, "⚠ not https") && bodyContains(s, "o open URL in browser · y copy URL · r retry now · esc stop waiting")
}

// urlRequiredStart runs the demo server in 2025-11-25 in a w×h terminal whose xdg-open
// writes the URL it is given to the returned file, and waits for its tools.
func urlRequiredStart(t *testing.T, w, h int) (*term, string) {
	t.Helper()
	bin := t.TempDir()
	opened := filepath.Join(bin, "opened")
	script := "#!/bin/sh\nprintf '%s\\n' \"$1\" >> '" + opened + "'\n"
	if err := os.WriteFile(filepath.Join(bin, "xdg-open"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	tm := startTermEnv(t, []string{"PATH=" + bin + ":" + os.Getenv("PATH")}, w, h, "--no-record", "--protocol", "2025-11-25")
	tm.waitFor(`status "ready" and a tools/list response`, func(s string) bool {
		return ready(s) && listsAnswered(s)
	})
	return tm, opened
}

// openedURL waits for the fake browser to have been given a URL and returns the last one.
func openedURL(t *testing.T, file string) string {
	t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for {
		b, _ := os.ReadFile(file)
		if l := strings.Fields(string(b)); len(l) > 0 {
			return l[len(l)-1]
		}
		if time.Now().After(deadline) {
			t.Fatalf("the browser was not given a URL within %s", waitTimeout)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestTmuxURLRequired: at 80×24 the demo's url_required answers error -32042; the dialog
// shows the page, o hands the whole URL to the browser, and visiting it makes the server
// send notifications/elicitation/complete, after which mcpscope sends the call again (a
// timeline row says so) and the call succeeds.
func TestTmuxURLRequired(t *testing.T) {
	t.Parallel()
	tm, opened := urlRequiredTerm(t, 80, 24)
	tm.keys("o")
	u := openedURL(t, opened)
	if !strings.HasPrefix(u, "http://127.0.0.1:") || !strings.Contains(u, "/connect?elicitation=connect-") {
		t.Fatalf("the browser was given %q", u)
	}
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	tm.waitFor("the dialog gone, the retry noted and answered", func(s string) bool {
		return !bodyContains(s, "open a page first") && bodyHas(s, "────", "tools/call url_required #", "sent again") &&
			bodyHas(s, "←", "note", "notifications/elicitation/comple") && bodyHas(s, "←", "res", "tools/call url_required", "#1")
	})
	tm.quit()
}

// TestTmuxURLRequiredExplorer: at 80×24 url_required called from the explorer answers
// -32042; esc stops waiting and the explorer says so under the error; called again, the
// page is opened and visited, and the explorer's result is the retried call's answer.
func TestTmuxURLRequiredExplorer(t *testing.T) {
	t.Parallel()
	tm, opened := urlRequiredStart(t, 80, 24)
	tm.keys("2")
	tm.waitFor("the explorer", func(s string) bool { return bodyHas(s, "tools ", "resources ", "prompts ") })
	tm.filter("url_req")
	tm.waitFor("url_required alone on the list", func(s string) bool { return bodyHas(s, "▶url_required") })
	tm.keys("Enter")
	tm.waitFor("the -32042 dialog", urlRequiredDialogOn)
	tm.keys("Escape")
	tm.waitFor("the explorer saying the wait was stopped", func(s string) bool {
		return !bodyContains(s, "open a page first") && bodyContains(s, "you stopped waiting for the URL elicitation: the call was not sent again") &&
			bodyContains(s, "JSON-RPC error -32042")
	})
	tm.keys("Enter")
	tm.waitFor("the -32042 dialog again", urlRequiredDialogOn)
	tm.keys("o")
	resp, err := http.Get(openedURL(t, opened))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	s := tm.waitFor("the retried call's result in the explorer", func(s string) bool {
		return !bodyContains(s, "open a page first") && bodyHas(s, "Result · ") &&
			bodyContains(s, "sent again after error -32042 (URL elicitation required)") && bodyContains(s, "Connected: the page was visited")
	})
	if bodyContains(s, "JSON-RPC error") || bodyContains(s, "you stopped waiting") {
		t.Errorf("the explorer still shows the refusal:\n%s", s)
	}
	tm.quit()
}

// TestTmuxURLRequiredKeys: at 120×40, r retries at once (the server refuses again and the
// dialog shows the new elicitation), y copies the URL, esc stops waiting.
func TestTmuxURLRequiredKeys(t *testing.T) {
	t.Parallel()
	tm, _ := urlRequiredTerm(t, 120, 40)
	first := elicitationID(tm.last)
	if first == "" {
		t.Fatalf("no elicitation id on the dialog")
	}
	tm.keys("r")
	s := tm.waitFor("a second -32042 and its elicitation in the dialog", func(s string) bool {
		id := elicitationID(s)
		return id != "" && id != first && strings.Count(s, "-32042 U") >= 2
	})
	if !bodyHas(s, "────", "tools/call url_required #", "sent again: retry asked") {
		t.Errorf("no row notes the retry")
	}
	tm.keys("y")
	tm.waitFor("the copy's status", func(s string) bool { return strings.Contains(s, "(the URL)") })
	tm.keys("Escape")
	tm.waitFor("the dialog gone and the status saying so", func(s string) bool {
		return !bodyContains(s, "open a page first") && strings.Contains(s, "stopped waiting: tools/call url_required #")
	})
	tm.quit()
}

// elicitationID is the id on the dialog's "Elicitation ID  waiting" line, or "".
func elicitationID(screen string) string {
	for _, l := range lines(screen) {
		if i := strings.Index(l, "Elicitation connect-"); i >= 0 {
			if f := strings.Fields(l[i+len("Elicitation "):]); len(f) > 0 {
				return f[0]
			}
		}
	}
	return ""
}
