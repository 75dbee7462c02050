package demo

import (
	"bufio"
	"context"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

func TestAuthMetadataAndChallenge(t *testing.T) {
	f := newAuthFixture(t, AuthOptions{})
	for path, resource := range map[string]string{
		"/.well-known/oauth-protected-resource/mcp": f.base + "/mcp",
		"/.well-known/oauth-protected-resource/sse": f.base + "/sse",
		"/.well-known/oauth-protected-resource":     f.base + "/mcp",
	} {
		var prm oauthex.ProtectedResourceMetadata
		f.getJSON(path, &prm)
		if prm.Resource != resource || !slices.Equal(prm.AuthorizationServers, []string{f.base}) || !slices.Equal(prm.ScopesSupported, []string{ScopeDemo}) {
			t.Errorf("%s: %+v", path, prm)
		}
	}
	var asm map[string]any
	f.getJSON("/.well-known/oauth-authorization-server", &asm)
	want := map[string]any{
		"issuer":                                         f.base,
		"authorization_endpoint":                         f.base + "/authorize",
		"token_endpoint":                                 f.base + "/token",
		"registration_endpoint":                          f.base + "/register",
		"code_challenge_methods_supported":               []any{"S256"},
		"client_id_metadata_document_supported":          true,
		"authorization_response_iss_parameter_supported": true,
	}
	for k, v := range want {
		if got, ok := asm[k]; !ok || !equalJSON(got, v) {
			t.Errorf("AS metadata %s = %v, want %v", k, got, v)
		}
	}

	// Browser-based clients may call the metadata, registration and token endpoints.
	for _, path := range []string{"/.well-known/oauth-authorization-server", "/token", "/register"} {
		req, _ := http.NewRequest(http.MethodOptions, f.base+path, nil)
		req.Header.Set("Origin", "http://app.example")
		if status, h, _ := f.do(req); status != http.StatusNoContent || h.Get("Access-Control-Allow-Origin") != "*" {
			t.Errorf("preflight %s: %d %v", path, status, h)
		}
	}
	if status, _, _ := f.get(f.base + "/token"); status != http.StatusMethodNotAllowed {
		t.Errorf("GET /token: %d", status)
	}

	// Without a token, both endpoints answer 401 and say where to look.
	for _, path := range []string{"/mcp", "/sse"} {
		status, www, _ := f.mcpPost(path, "", nil, `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
		challenges, err := oauthex.ParseWWWAuthenticate([]string{www})
		if status != http.StatusUnauthorized || err != nil || len(challenges) != 1 || challenges[0].Scheme != "bearer" {
			t.Fatalf("%s without a token: %d %q %v", path, status, www, err)
		}
		p := challenges[0].Params
		if p["resource_metadata"] != f.base+"/.well-known/oauth-protected-resource"+path || p["scope"] != ScopeDemo || p["error"] != "" {
			t.Errorf("%s challenge: %q", path, www)
		}
	}
	status, www, _ := f.mcpPost("/mcp", "not-a-token", nil, `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	if status != http.StatusUnauthorized || authParam(www, "error") != "invalid_token" {
		t.Errorf("unknown token: %d %q", status, www)
	}
}

func equalJSON(a, b any) bool {
	as, aok := a.([]any)
	bs, bok := b.([]any)
	if aok && bok {
		return slices.Equal(as, bs)
	}
	return a == b
}

// TestAuthCodeFlow walks the flow as a browser would: the approve page, its
// Approve link, the redirect with code, state and iss, the token, then both
// protocol eras with the token.
func TestAuthCodeFlow(t *testing.T) {
	f := newAuthFixture(t, AuthOptions{})
	id := f.publicClient()
	p := newPKCE()
	q := f.authParams(id, p, ScopeDemo)
	status, _, page := f.get(f.base + "/authorize?" + q.Encode())
	if status != http.StatusOK || !strings.Contains(string(page), "test client") || !strings.Contains(string(page), "Approve") {
		t.Fatalf("approve page: %d %s", status, page)
	}
	if strings.Contains(string(page), `id="warning"`) {
		t.Errorf("a registered client got the loopback warning meant for metadata documents")
	}
	link := regexp.MustCompile(`id="approve" href="([^"]+)"`).FindSubmatch(page)
	if link == nil {
		t.Fatalf("no Approve link in %s", page)
	}
	approveURL := f.base + strings.ReplaceAll(string(link[1]), "&amp;", "&")
	status, h, body := f.get(approveURL)
	loc, _ := url.Parse(h.Get("Location"))
	if status != http.StatusFound || loc == nil || !strings.HasPrefix(loc.String(), "http://127.0.0.1:1/callback?") {
		t.Fatalf("Approve: %d %q %s", status, h.Get("Location"), body)
	}
	r := loc.Query()
	if r.Get("code") == "" || r.Get("state") != q.Get("state") || r.Get("iss") != f.base {
		t.Fatalf("redirect %s", loc)
	}
	tr := f.exchange(id, r.Get("code"), p)
	if tr.status != http.StatusOK || tr.TokenType != "Bearer" || tr.RefreshToken == "" || tr.Scope != ScopeDemo || tr.ExpiresIn != int(DefaultTokenTTL.Seconds()) {
		t.Fatalf("token: %+v", tr)
	}

	// Stateful era: initialize, then whoami in the session.
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"auth-test","version":"1"}}}`
	req, _ := http.NewRequest(http.MethodPost, f.base+"/mcp", strings.NewReader(init))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+tr.AccessToken)
	status, h, body = f.do(req)
	sid := h.Get("Mcp-Session-Id")
	if status != http.StatusOK || sid == "" || !strings.Contains(string(body), `"protocolVersion":"2025-11-25"`) {
		t.Fatalf("initialize with a token: %d %s", status, body)
	}
	sh := map[string]string{"Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-11-25"}
	if status, _, body := f.mcpPost("/mcp", tr.AccessToken, sh, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); status != http.StatusAccepted {
		t.Fatalf("initialized: %d %s", status, body)
	}
	status, _, out := f.mcpPost("/mcp", tr.AccessToken, sh, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"whoami","arguments":{}}}`)
	if status != http.StatusOK || !strings.Contains(out, "client "+id) || !strings.Contains(out, "scopes demo") {
		t.Errorf("whoami (stateful): %d %s", status, out)
	}
	// The same session without the token is refused.
	if status, _, _ := f.mcpPost("/mcp", "", sh, `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`); status != http.StatusUnauthorized {
		t.Errorf("session without a token: %d", status)
	}

	// 2026-07-28: stateless, the token on every request.
	status, _, out = f.call2026Auth(tr.AccessToken, "whoami")
	if status != http.StatusOK || !strings.Contains(out, "client "+id) || !strings.Contains(out, "resource "+f.base+"/mcp") {
		t.Errorf("whoami (2026-07-28): %d %s", status, out)
	}
	f.stderr.waitFor(t, "demo: auth: issued a token (code) to "+id)
	if strings.Contains(f.stderr.String(), tr.AccessToken) || strings.Contains(f.stderr.String(), r.Get("code")) {
		t.Errorf("a secret reached the log:\n%s", f.stderr)
	}

	// Denying redirects with access_denied, state and iss.
	q = f.authParams(id, newPKCE(), ScopeDemo)
	q.Set("deny", "1")
	status, h, _ = f.get(f.base + "/authorize?" + q.Encode())
	loc, _ = url.Parse(h.Get("Location"))
	if status != http.StatusFound || loc.Query().Get("error") != "access_denied" || loc.Query().Get("iss") != f.base || loc.Query().Get("state") != q.Get("state") {
		t.Errorf("deny: %d %s", status, h.Get("Location"))
	}
}

// TestAuthStepUpAndRefresh: the admin tool needs more scope (403 with the
// scope to ask for); a second authorization grants it. Tokens expire; the
// refresh token gets new ones and is rotated.
func TestAuthStepUpAndRefresh(t *testing.T) {
	f := newAuthFixture(t, AuthOptions{TokenTTL: 2 * time.Second})
	id := f.publicClient()
	tr := f.login(id, ScopeDemo)
	if tr.ExpiresIn != 2 {
		t.Errorf("expires_in %d, want 2", tr.ExpiresIn)
	}

	status, www, _ := f.call2026Auth(tr.AccessToken, AdminTool)
	if status != http.StatusForbidden || authParam(www, "error") != "insufficient_scope" || authParam(www, "scope") != ScopeDemo+" "+ScopeAdmin ||
		authParam(www, "resource_metadata") != f.base+"/.well-known/oauth-protected-resource/mcp" {
		t.Fatalf("%s without %s: %d %q", AdminTool, ScopeAdmin, status, www)
	}
	// Other tools work with the first token.
	if status, _, _ := f.call2026Auth(tr.AccessToken, "no_args"); status != http.StatusOK {
		t.Errorf("no_args with the first token: %d", status)
	}
	up := f.login(id, authParam(www, "scope"))
	if up.Scope != ScopeDemo+" "+ScopeAdmin {
		t.Fatalf("step-up granted %q", up.Scope)
	}
	status, _, out := f.call2026Auth(up.AccessToken, AdminTool)
	if status != http.StatusOK || !strings.Contains(out, "registered clients 1") {
		t.Fatalf("%s after step-up: %d %s", AdminTool, status, out)
	}

	// Expiry: the token stops working, with invalid_token.
	waitUntil(t, "the access token to expire", 5*time.Second, func() bool {
		status, _, _ := f.call2026Auth(up.AccessToken, "whoami")
		return status == http.StatusUnauthorized
	})
	_, www, _ = f.call2026Auth(up.AccessToken, "whoami")
	if authParam(www, "error") != "invalid_token" {
		t.Errorf("expired token: %q", www)
	}
	refresh := url.Values{"grant_type": {"refresh_token"}, "client_id": {id}, "refresh_token": {up.RefreshToken}}
	nt := f.token(refresh, "", "")
	if nt.status != http.StatusOK || nt.AccessToken == "" || nt.RefreshToken == "" || nt.RefreshToken == up.RefreshToken || nt.Scope != up.Scope {
		t.Fatalf("refresh: %+v", nt)
	}
	if status, _, out := f.call2026Auth(nt.AccessToken, AdminTool); status != http.StatusOK {
		t.Errorf("refreshed token: %d %s", status, out)
	}
	// Rotation: the old refresh token is spent.
	if again := f.token(refresh, "", ""); again.status != http.StatusBadRequest || again.Error != "invalid_grant" {
		t.Errorf("reused refresh token: %+v", again)
	}
	// A narrower scope may be asked for, a wider one not.
	narrow := f.token(url.Values{"grant_type": {"refresh_token"}, "client_id": {id}, "refresh_token": {nt.RefreshToken}, "scope": {ScopeDemo}}, "", "")
	if narrow.status != http.StatusOK || narrow.Scope != ScopeDemo {
		t.Errorf("narrower refresh: %+v", narrow)
	}
	wide := f.token(url.Values{"grant_type": {"refresh_token"}, "client_id": {id}, "refresh_token": {tr.RefreshToken}, "scope": {ScopeDemo + " " + ScopeAdmin}}, "", "")
	if wide.status != http.StatusBadRequest || wide.Error != "invalid_scope" {
		t.Errorf("wider refresh: %+v", wide)
	}
	// A client without the refresh_token grant type gets no refresh token.
	_, m := f.register(`{"client_name":"no refresh","redirect_uris":["http://127.0.0.1:1/callback"],"token_endpoint_auth_method":"none"}`)
	if tr := f.login(m["client_id"].(string), ""); tr.RefreshToken != "" || tr.Scope != ScopeDemo {
		t.Errorf("client without refresh_token grant: %+v", tr)
	}
}

func TestServeHTTPAuth(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	stderr := newSyncBuffer()
	done := make(chan error, 1)
	go func() { done <- ServeHTTPAuth(ctx, "127.0.0.1:0", stderr, AuthOptions{AutoApprove: true}) }()
	stderr.waitFor(t, "demo: connect with: mcpscope --url ")
	mcpURL := regexp.MustCompile(`connect with: mcpscope --url (http://\S+/mcp)`).FindStringSubmatch(stderr.String())[1]
	f := &authFixture{t: t, base: strings.TrimSuffix(mcpURL, "/mcp"), stderr: stderr, http: &http.Client{
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
	if status, www, _ := f.mcpPost("/mcp", "", nil, `{"jsonrpc":"2.0","id":1,"method":"ping"}`); status != http.StatusUnauthorized || www == "" {
		t.Errorf("without a token: %d %q", status, www)
	}
	// --auto-approve: the authorization request redirects at once, no page.
	id := f.publicClient()
	q := f.authParams(id, newPKCE(), ScopeDemo)
	status, h, _ := f.get(f.base + "/authorize?" + q.Encode())
	if loc, _ := url.Parse(h.Get("Location")); status != http.StatusFound || loc.Query().Get("code") == "" {
		t.Errorf("auto-approve: %d %q", status, h.Get("Location"))
	}
	if !strings.Contains(stderr.String(), "approved at once (--auto-approve)") {
		t.Errorf("start-up lines:\n%s", stderr)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("ServeHTTPAuth: %v", err)
		}
	case <-time.After(waitTimeout):
		t.Fatal("ServeHTTPAuth did not return after cancel")
	}
}

func TestAuthBaseURL(t *testing.T) {
	for addr, want := range map[string]string{
		":8080":          "http://127.0.0.1:8080",
		"0.0.0.0:8080":   "http://127.0.0.1:8080",
		"[::]:8080":      "http://127.0.0.1:8080",
		"localhost:8080": "http://localhost:8080",
		"[::1]:8080":     "http://[::1]:8080",
	} {
		bound := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}
		if got := baseURL(addr, bound); got != want {
			t.Errorf("baseURL(%q) = %q, want %q", addr, got, want)
		}
	}
	if _, err := AuthHandler(nil, AuthOptions{BaseURL: "http://127.0.0.1:1/mcp"}); err == nil {
		t.Errorf("a base URL with a path was taken")
	}
}

// TestAuthLegacySSE: the HTTP+SSE transport behind the guard, with a token
// issued for the /sse resource on the stream and on every POST.
func TestAuthLegacySSE(t *testing.T) {
	f := newAuthFixture(t, AuthOptions{})
	id := f.publicClient()
	p := newPKCE()
	q := f.authParams(id, p, ScopeDemo)
	q.Set("resource", f.base+"/sse")
	tr := f.token(url.Values{"grant_type": {"authorization_code"}, "client_id": {id}, "code": {f.code(q)},
		"redirect_uri": {"http://127.0.0.1:1/callback"}, "code_verifier": {p.verifier}, "resource": {f.base + "/sse"}}, "", "")
	if tr.status != http.StatusOK {
		t.Fatalf("token for /sse: %v", tr)
	}
	mcpToken := f.login(id, ScopeDemo)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	open := func(token string) *http.Response {
		get, _ := http.NewRequestWithContext(ctx, http.MethodGet, f.base+"/sse", nil)
		get.Header.Set("Accept", "text/event-stream")
		get.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(get)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	if resp := open(mcpToken.AccessToken); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("/sse with a token for /mcp: %d", resp.StatusCode)
		resp.Body.Close()
	}
	resp := open(tr.AccessToken)
	defer resp.Body.Close()
	stream := &sseStream{t: t, br: bufio.NewReader(resp.Body)}
	event, endpoint, ok := stream.next()
	if resp.StatusCode != http.StatusOK || !ok || event != "endpoint" {
		t.Fatalf("stream: %d %q %q", resp.StatusCode, event, endpoint)
	}
	if status, _, body := f.mcpPost(endpoint, "", nil, `{"jsonrpc":"2.0","id":1,"method":"ping"}`); status != http.StatusUnauthorized {
		t.Errorf("POST without a token: %d %s", status, body)
	}
	status, _, body := f.mcpPost(endpoint, tr.AccessToken, nil, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"auth-sse","version":"1"}}}`)
	if status != http.StatusAccepted {
		t.Fatalf("initialize: %d %s", status, body)
	}
	if m := stream.nextMsg(); !m.isResponse(1) || !strings.Contains(string(m.Result), `"protocolVersion":"2024-11-05"`) {
		t.Fatalf("initialize over SSE: %s", m.raw)
	}
	f.mcpPost(endpoint, tr.AccessToken, nil, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	if status, www, _ := f.mcpPost(endpoint, tr.AccessToken, nil, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"`+AdminTool+`","arguments":{}}}`); status != http.StatusForbidden || authParam(www, "error") != "insufficient_scope" {
		t.Errorf("%s over SSE: %d %q", AdminTool, status, www)
	}
	f.mcpPost(endpoint, tr.AccessToken, nil, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":3}}}`)
	var r toolResult
	m := stream.nextMsg()
	m.result(t, &r)
	if !m.isResponse(3) || r.text() != "2 + 3 = 5" {
		t.Errorf("add over SSE: %s", m.raw)
	}
}
