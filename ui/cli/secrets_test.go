package cli_test

import (
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/ui/cli"
)

// cliSecret is given as a query parameter, a -H header and the bearer token.
const cliSecret = "SECRET-cli-7f3a9c1e55"

// secretArgs pass cliSecret every way a user can.
func secretArgs(base string) []string {
	return []string{"--url", base + "/mcp?api_key=" + cliSecret, "-H", "X-Api-Key: " + cliSecret, "--bearer", cliSecret}
}

// noSecret fails if cliSecret is in any of the texts or files.
func noSecret(t *testing.T, texts map[string]string, files ...string) {
	t.Helper()
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatalf("read %s: %v", f, err)
		}
		texts[filepath.Base(f)] = string(b)
	}
	for name, s := range texts {
		if strings.Contains(s, cliSecret) {
			t.Errorf("the secret is in %s:\n%s", name, s)
		}
	}
}

// TestConnectErrorMasksSecrets: a connection error prints the URL without its api_key,
// and neither the trace nor the recording holds the secret.
func TestConnectErrorMasksSecrets(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now: the connection is refused
	rec := filepath.Join(t.TempDir(), "rec.jsonl")
	stdout, stderr, code := run(t, append(secretArgs("http://"+addr), "--trace", "--record", rec, "info")...)
	if code != cli.ExitConnect || !strings.Contains(stderr, "api_key=****") {
		t.Fatalf("exit %d, want %d and a masked URL; stderr:\n%s", code, cli.ExitConnect, stderr)
	}
	noSecret(t, map[string]string{"stdout": stdout, "stderr": stderr}, rec)
}

// headerRecorder is a reverse proxy to a real server that records the requests it gets.
type headerRecorder struct {
	mu   sync.Mutex
	seen []string // "METHOD URL" and every header line
}

func (h *headerRecorder) text() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return strings.Join(h.seen, "\n")
}

// startRedirectPair starts, on two ports (two origins), a front that answers every request
// with a 307 to the back, and the back: a recording proxy to the demo server.
func startRedirectPair(t *testing.T) (front string, back *headerRecorder) {
	t.Helper()
	demo, _ := sessiontest.StartDemoHTTP(t)
	du, err := url.Parse(demo)
	if err != nil {
		t.Fatal(err)
	}
	back = &headerRecorder{}
	proxy := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: du.Scheme, Host: du.Host})
	bs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		back.mu.Lock()
		back.seen = append(back.seen, r.Method+" "+r.URL.String())
		for name, vs := range r.Header {
			back.seen = append(back.seen, name+": "+strings.Join(vs, ", "))
		}
		back.mu.Unlock()
		r.URL.Path = du.Path
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(bs.Close)
	fs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, bs.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	t.Cleanup(fs.Close)
	return fs.URL, back
}

// TestRedirectOtherOriginCLI: through a 307 to another origin, the session works, the
// other origin never sees the secret, the trace shows each hop and a finding, and no
// output holds the secret; --follow-redirects-with-credentials sends the credentials on.
func TestRedirectOtherOriginCLI(t *testing.T) {
	front, back := startRedirectPair(t)
	rec := filepath.Join(t.TempDir(), "rec.jsonl")
	stdout, stderr, code := run(t, append(secretArgs(front), "--transport", "http", "--trace", "--record", rec, "info")...)
	if code != cli.ExitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	noSecret(t, map[string]string{"stdout": stdout, "stderr": stderr, "other origin": back.text()}, rec)
	if !strings.Contains(back.text(), "POST /mcp") {
		t.Fatalf("the other origin saw no POST:\n%s", back.text())
	}
	var withheld, hops int
	for _, e := range traceEvents(t, stderr) {
		if e.HTTP != nil && e.HTTP.Redirect != nil && e.HTTP.Status == http.StatusTemporaryRedirect {
			hops++
		}
		for _, f := range e.Findings {
			if f.Code == protocol.FindRedirectWithheld && strings.Contains(f.Message, "Authorization, X-Api-Key") {
				withheld++
			}
		}
	}
	if hops == 0 || withheld != hops {
		t.Errorf("%d redirect exchanges, %d with the withheld finding", hops, withheld)
	}
	if n := recordedRedirects(t, rec); n != hops {
		t.Errorf("the recording reads back %d redirects with their finding, want %d", n, hops)
	}

	front2, back2 := startRedirectPair(t)
	_, stderr, code = run(t, append(secretArgs(front2), "--transport", "http", "--follow-redirects-with-credentials", "info")...)
	if code != cli.ExitOK || !strings.Contains(back2.text(), "Authorization: Bearer "+cliSecret) || !strings.Contains(back2.text(), "X-Api-Key: "+cliSecret) {
		t.Fatalf("exit %d; the other origin did not get the credentials:\n%s\n%s", code, back2.text(), stderr)
	}
}

// recordedRedirects counts the recording's redirect exchanges that read back with their
// Location and finding.
func recordedRedirects(t *testing.T, path string) int {
	t.Helper()
	rd, err := recordings.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	n := 0
	for i := range rd.Len() {
		e, err := rd.Event(i)
		if err != nil {
			t.Fatalf("event %d: %v", i, err)
		}
		if e.HTTP != nil && e.HTTP.Redirect != nil && e.HTTP.Redirect.Location != "" && len(e.Findings) == 1 &&
			e.Findings[0].Code == protocol.FindRedirectWithheld {
			n++
		}
	}
	return n
}
