package apphost_test

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/apphost"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/session/transport"
)

// hostileApp is an app whose server chose every string: the tool's name, its ui:// URI,
// the resource's HTML and _meta.ui.csp (nil: none declared).
type hostileApp struct {
	name, uri, html string
	csp             any
}

// start serves the app from a 2026-07-28 server on loopback and hosts it.
func (a hostileApp) start(t *testing.T, cfg apphost.Config) (*apphost.Host, *session.Session) {
	t.Helper()
	tool := map[string]any{"name": a.name, "inputSchema": map[string]any{"type": "object"},
		"_meta": map[string]any{"ui": map[string]any{"resourceUri": a.uri}}}
	ui := map[string]any{}
	if a.csp != nil {
		ui["csp"] = a.csp
	}
	html := a.html
	if html == "" {
		html = "<!DOCTYPE html><html><body>app</body></html>"
	}
	ms := sessiontest.StartModernServer(t, `{"tools":{},"resources":{}}`, func(method string, _ json.RawMessage) any {
		switch method {
		case "tools/list":
			return map[string]any{"resultType": "complete", "ttlMs": 0, "cacheScope": "private", "tools": []any{tool}}
		case "resources/read":
			return map[string]any{"resultType": "complete", "contents": []any{map[string]any{"uri": a.uri,
				"mimeType": "text/html;profile=mcp-app", "text": html, "_meta": map[string]any{"ui": ui}}}}
		case "tools/call":
			return map[string]any{"resultType": "complete", "content": []any{map[string]string{"type": "text", "text": "ok"}}}
		}
		return nil
	})
	s := connect(t, transport.NewStreamableHTTP(transport.HTTPOptions{URL: ms.URL + "/mcp"}))
	tools := toolsOf(t, s)
	cfg.Session, cfg.Tool, cfg.Tools = s, toolNamed(t, tools, a.name), tools
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	h, err := apphost.Start(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close(0) })
	return h, s
}

// localClient is an HTTP client that reaches a *.localhost name on loopback, as browsers
// do (RFC 6761), and keeps cookies as a browser would.
func localClient(t *testing.T) *http.Client {
	t.Helper()
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	var d net.Dialer
	tr := &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, port, err := net.SplitHostPort(addr)
		if err == nil && (host == "localhost" || strings.HasSuffix(host, ".localhost")) {
			addr = net.JoinHostPort("127.0.0.1", port)
		}
		return d.DialContext(ctx, network, addr)
	}}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Jar: jar, Transport: tr, Timeout: 30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// page is the host page as a browser holds it: its cookie (in c's jar) and the sandbox's
// token it was given.
type page struct {
	t         *testing.T
	c         *http.Client
	base      string // the host page's origin
	sandToken string
	resp      *http.Response
	body      string
}

// openPage loads the host page as the browser would on the URL mcpscope opened.
func openPage(t *testing.T, h *apphost.Host) *page {
	t.Helper()
	c := localClient(t)
	resp, err := c.Get(h.URL())
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET the host page: %d %s", resp.StatusCode, body)
	}
	m := regexp.MustCompile(`const cfg = (\{.*\});`).FindSubmatch(body)
	var cfg struct {
		SandboxToken string `json:"sandboxToken"`
	}
	if m == nil || json.Unmarshal(m[1], &cfg) != nil || cfg.SandboxToken == "" {
		t.Fatalf("the host page gives the sandbox no token:\n%s", body)
	}
	base, _, _ := strings.Cut(h.URL(), "/?t=")
	return &page{t: t, c: c, base: base, sandToken: cfg.SandboxToken, resp: resp, body: string(body)}
}

// post relays one message as the page does and returns the status.
func (p *page) post(body string) int {
	p.t.Helper()
	resp, err := p.c.Post(p.base+"/post", "application/json", strings.NewReader(body))
	if err != nil {
		p.t.Fatal(err)
	}
	_ = resp.Body.Close()
	return resp.StatusCode
}

// status is the status of a request made with the page's client (its cookie).
func status(t *testing.T, c *http.Client, method, url, host string, body io.Reader) int {
	t.Helper()
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	if host != "" {
		req.Host = host
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	_ = resp.Body.Close()
	return resp.StatusCode
}
