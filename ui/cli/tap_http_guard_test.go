package cli_test

import (
	"net/http"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// TestTapHTTPRebinding: a web page that rebinds its own name to 127.0.0.1 sends requests
// whose Host is its name; a cross-site page sends its Origin. The tap refuses both itself
// (rewriting the Host to the upstream's would defeat the upstream's own check: the demo,
// built on the go-sdk, answers 403 to a foreign Host direct) and takes requests that name
// it. A --listen address other hosts can reach needs --allow-remote.
func TestTapHTTPRebinding(t *testing.T) {
	t.Parallel()
	upstream, _ := sessiontest.StartDemoHTTP(t)
	bin := sessiontest.BuildMCPScope(t)
	rec := filepath.Join(t.TempDir(), "guard.jsonl")
	p := start(t, tapEnv(t), bin, "tap", "--listen", "127.0.0.1:0", "--upstream", upstream, "--record", rec, "--name", "guard")
	p.waitStderr("watch with")
	m := regexp.MustCompile(`listening on (http://\S+)`).FindStringSubmatch(p.stderrText())
	if m == nil {
		t.Fatalf("the tap did not say where it listens:\n%s", p.stderrText())
	}
	tapURL, _ := url.Parse(m[1])
	port := tapURL.Port()
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"guard-test","version":"1"}}}`
	send := func(host, origin string) int {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, tapURL.String(), strings.NewReader(init))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if host != "" {
			req.Host = host
		}
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("POST with Host %q Origin %q: %v", host, origin, err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for _, c := range []struct {
		host, origin string
		want         int
	}{
		{"", "", http.StatusOK},
		{"localhost:" + port, "", http.StatusOK},
		{"127.0.0.1:" + port, "http://127.0.0.1:" + port, http.StatusOK},
		{"rebind.attacker.example:" + port, "", http.StatusForbidden},
		{"127.0.0.1:" + port, "http://attacker.example", http.StatusForbidden},
		{"127.0.0.1:" + port, "http://localhost:6274", http.StatusForbidden},
		{"127.0.0.1:1", "", http.StatusForbidden},
	} {
		if got := send(c.host, c.origin); got != c.want {
			t.Errorf("Host %q Origin %q: status %d through the tap, want %d", c.host, c.origin, got, c.want)
		}
	}

	_, stderr, code := run(t, "tap", "--listen", "0.0.0.0:0", "--upstream", upstream, "--no-record")
	if code != 2 || !strings.Contains(stderr, "--allow-remote") {
		t.Errorf("tap --listen 0.0.0.0:0: exit %d, want 2 naming --allow-remote:\n%s", code, stderr)
	}
}
