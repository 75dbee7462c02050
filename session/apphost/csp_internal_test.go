package apphost

import (
	"testing"

	"github.com/mcpscope/mcpscope/protocol/apps"
)

// TestRefusedSource: a declared CSP source that reaches the user's machine or network, or
// every origin, stays out of the view's policy; an origin of the web goes in.
func TestRefusedSource(t *testing.T) {
	for _, src := range []string{
		"*", "'self'", "'unsafe-eval'", "https:", "http:", "data:", "blob:", "ws:",
		"https://*", "https://*.com", "*.com", "https://example.com:*", "http://127.0.0.1:*",
		"http://127.0.0.1", "http://127.0.0.1:9999", "127.0.0.1:9999", "http://127.1", "http://2130706433",
		"http://0x7f000001", "http://0.0.0.0:80", "http://10.0.0.5", "https://172.16.3.4", "http://192.168.1.1",
		"http://169.254.169.254", "http://100.64.0.1", "http://224.0.0.1", "http://[::1]:8080", "http://[fe80::1]",
		"http://localhost", "http://localhost:3000", "https://LOCALHOST", "http://app.localhost:8080",
		"https://*.localhost", "http://printer.local", "http://db.internal", "http://nas.lan", "http://router.home.arpa",
		"http://localhost.localdomain", "http://intranet", "https://example.com; script-src *",
		"https://example.com,https://other.example", "https://example.com 'unsafe-eval'", "",
		"file:///etc", "javascript:alert(1)", "chrome-extension://abc", "https://example.com:0", "https://example.com:70000",
		"https://user@example.com", "https://example.com/a'b", "https://exa_mple.com",
	} {
		if why := refusedSource(src); why == "" {
			t.Errorf("%q went into the policy", src)
		}
	}
	for _, src := range []string{
		"https://api.example.com", "https://cdn.jsdelivr.net", "https://*.cloudflare.com", "wss://realtime.example.com",
		"https://example.com:8443", "https://example.com/static/", "api.example.com", "HTTPS://CDN.Example.COM",
		"https://93.184.215.14", "http://8.8.8.8:53",
	} {
		if why := refusedSource(src); why != "" {
			t.Errorf("%q was refused: %s", src, why)
		}
	}
}

// TestCheckCSP: the refused sources leave every list, the others stay in order, and the
// policy is built from what stays.
func TestCheckCSP(t *testing.T) {
	if c, r := CheckCSP(nil); c != nil || r != nil {
		t.Errorf("no declaration: %v %v, want the default", c, r)
	}
	c, refused := CheckCSP(&apps.CSP{
		ConnectDomains:  []string{"https://api.example.com", "http://127.0.0.1:9999"},
		ResourceDomains: []string{"*", "https://cdn.example.com"},
		FrameDomains:    []string{"http://localhost:3000"},
		BaseURIDomains:  []string{"https:"},
	})
	want := "default-src 'none'; script-src 'self' 'unsafe-inline' https://cdn.example.com; " +
		"style-src 'self' 'unsafe-inline' https://cdn.example.com; img-src 'self' data: https://cdn.example.com; " +
		"font-src 'self' https://cdn.example.com; media-src 'self' data: https://cdn.example.com; " +
		"connect-src https://api.example.com; frame-src 'none'; base-uri 'self'"
	if got := c.Policy(); got != want {
		t.Errorf("policy:\n got %s\nwant %s", got, want)
	}
	if len(refused) != 4 || refused[0].List != "connectDomains" || refused[0].Source != "http://127.0.0.1:9999" ||
		refused[1].Source != "*" || refused[2].List != "frameDomains" || refused[3].List != "baseUriDomains" {
		t.Errorf("refused: %v", refused)
	}
}
