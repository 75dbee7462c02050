package demo

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestAuthorizeRefusals: requests the authorization endpoint must refuse,
// on its own page when the client or redirect URI is wrong (never
// redirecting there), otherwise by redirecting with the error, state and iss.
func TestAuthorizeRefusals(t *testing.T) {
	f := newAuthFixture(t, AuthOptions{})
	id := f.publicClient()
	cases := []struct {
		name   string
		change func(q url.Values)
		page   string // an error shown on the page, or
		error  string // the error of the redirect
	}{
		{"unknown client", func(q url.Values) { q.Set("client_id", "demo-nobody") }, "Unknown client", ""},
		{"missing client", func(q url.Values) { q.Del("client_id") }, "client_id is missing", ""},
		{"unregistered redirect", func(q url.Values) { q.Set("redirect_uri", "http://127.0.0.1:1/elsewhere") }, "not one the client registered", ""},
		{"foreign redirect", func(q url.Values) { q.Set("redirect_uri", "https://attacker.example/callback") }, "not one the client registered", ""},
		{"redirect with a suffix", func(q url.Values) { q.Set("redirect_uri", "http://127.0.0.1:1/callback/x") }, "not one the client registered", ""},
		{"redirect with a query", func(q url.Values) { q.Set("redirect_uri", "http://127.0.0.1:1/callback?x=1") }, "not one the client registered", ""},
		{"loopback host swapped", func(q url.Values) { q.Set("redirect_uri", "http://localhost:1/callback") }, "not one the client registered", ""},
		{"no PKCE", func(q url.Values) { q.Del("code_challenge"); q.Del("code_challenge_method") }, "", "invalid_request"},
		{"plain PKCE", func(q url.Values) { q.Set("code_challenge_method", "plain") }, "", "invalid_request"},
		{"short challenge", func(q url.Values) { q.Set("code_challenge", "abc") }, "", "invalid_request"},
		{"token response type", func(q url.Values) { q.Set("response_type", "token") }, "", "unsupported_response_type"},
		{"no resource", func(q url.Values) { q.Del("resource") }, "", "invalid_target"},
		{"wrong resource", func(q url.Values) { q.Set("resource", "https://other.example/mcp") }, "", "invalid_target"},
		{"resource of another port", func(q url.Values) { q.Set("resource", "http://127.0.0.1:1/mcp") }, "", "invalid_target"},
		{"resource with a slash", func(q url.Values) { q.Set("resource", f.base+"/mcp/") }, "", "invalid_target"},
		{"duplicate state", func(q url.Values) { q.Add("state", "second") }, "", "invalid_request"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q := f.authParams(id, newPKCE(), ScopeDemo)
			c.change(q)
			q.Set("approve", "1")
			status, h, body := f.get(f.base + "/authorize?" + q.Encode())
			if c.page != "" {
				if status != http.StatusBadRequest || h.Get("Location") != "" || !strings.Contains(string(body), c.page) {
					t.Errorf("%d %q %s", status, h.Get("Location"), body)
				}
				return
			}
			loc, _ := url.Parse(h.Get("Location"))
			if status != http.StatusFound || loc == nil || !strings.HasPrefix(loc.String(), "http://127.0.0.1:1/callback?") {
				t.Fatalf("%d %q %s", status, h.Get("Location"), body)
			}
			r := loc.Query()
			if r.Get("error") != c.error || r.Get("code") != "" || r.Get("iss") != f.base || r.Get("error_description") == "" {
				t.Errorf("redirect %s", loc)
			}
		})
	}

	// A loopback redirect URI may come with any port (RFC 8252 §7.3).
	q := f.authParams(id, newPKCE(), ScopeDemo)
	q.Set("redirect_uri", "http://127.0.0.1:54321/callback")
	if u := f.approve(q); u.Host != "127.0.0.1:54321" || u.Query().Get("code") == "" {
		t.Errorf("other loopback port: %s", u)
	}
	// The pre-registered client: its callback on any loopback port, nothing else.
	p := newPKCE()
	q = f.authParams(PreRegisteredClient, p, ScopeDemo)
	q.Set("redirect_uri", "http://127.0.0.1:40404/callback")
	code := f.code(q)
	tr := f.token(url.Values{"grant_type": {"authorization_code"}, "client_id": {PreRegisteredClient}, "code": {code},
		"redirect_uri": {"http://127.0.0.1:40404/callback"}, "code_verifier": {p.verifier}}, "", "")
	if tr.status != http.StatusOK || tr.RefreshToken == "" {
		t.Errorf("pre-registered client: %v", tr)
	}
	q = f.authParams(PreRegisteredClient, newPKCE(), ScopeDemo)
	q.Set("redirect_uri", "http://127.0.0.1:40404/other")
	if status, _, _ := f.get(f.base + "/authorize?" + q.Encode()); status != http.StatusBadRequest {
		t.Errorf("pre-registered client, other path: %d", status)
	}
	// Scheme and host of the resource may differ in case.
	q = f.authParams(id, newPKCE(), ScopeDemo)
	q.Set("resource", strings.Replace(f.base, "http://", "HTTP://", 1)+"/mcp")
	if u := f.approve(q); u.Query().Get("code") == "" {
		t.Errorf("upper-case scheme: %s", u)
	}
}

// TestTokenRefusals: the token endpoint's hostile cases.
func TestTokenRefusals(t *testing.T) {
	f := newAuthFixture(t, AuthOptions{CodeTTL: time.Second})
	id := f.publicClient()
	other := f.publicClient()
	fresh := func() (string, pkce) {
		p := newPKCE()
		return f.code(f.authParams(id, p, ScopeDemo)), p
	}
	form := func(code string, p pkce) url.Values {
		return url.Values{"grant_type": {"authorization_code"}, "client_id": {id}, "code": {code},
			"redirect_uri": {"http://127.0.0.1:1/callback"}, "code_verifier": {p.verifier}, "resource": {f.base + "/mcp"}}
	}
	cases := []struct {
		name   string
		change func(v url.Values)
		status int
		error  string
	}{
		{"wrong verifier", func(v url.Values) { v.Set("code_verifier", newPKCE().verifier) }, 400, "invalid_grant"},
		{"short verifier", func(v url.Values) { v.Set("code_verifier", v.Get("code_verifier")[:42]) }, 400, "invalid_grant"},
		{"no verifier", func(v url.Values) { v.Del("code_verifier") }, 400, "invalid_grant"},
		{"wrong redirect", func(v url.Values) { v.Set("redirect_uri", "http://127.0.0.1:2/callback") }, 400, "invalid_grant"},
		{"no redirect", func(v url.Values) { v.Del("redirect_uri") }, 400, "invalid_grant"},
		{"wrong resource", func(v url.Values) { v.Set("resource", f.base+"/sse") }, 400, "invalid_target"},
		{"foreign resource", func(v url.Values) { v.Set("resource", "https://other.example/mcp") }, 400, "invalid_target"},
		{"another client", func(v url.Values) { v.Set("client_id", other) }, 400, "invalid_grant"},
		{"unknown client", func(v url.Values) { v.Set("client_id", "demo-nobody") }, 401, "invalid_client"},
		{"public client with a secret", func(v url.Values) { v.Set("client_secret", "guess") }, 401, "invalid_client"},
		{"unknown code", func(v url.Values) { v.Set("code", newSecret()) }, 400, "invalid_grant"},
		{"implicit", func(v url.Values) { v.Set("grant_type", "password") }, 400, "unsupported_grant_type"},
		{"duplicate parameter", func(v url.Values) { v.Add("code", "x") }, 400, "invalid_request"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, p := fresh()
			v := form(code, p)
			c.change(v)
			tr := f.token(v, "", "")
			if tr.status != c.status || tr.Error != c.error || tr.AccessToken != "" || tr.Description == "" {
				t.Errorf("%+v", tr)
			}
		})
	}

	// A code works once. Redeeming it again fails and revokes what it gave.
	code, p := fresh()
	first := f.token(form(code, p), "", "")
	if first.status != http.StatusOK {
		t.Fatalf("first redemption: %+v", first)
	}
	if status, _, _ := f.call2026Auth(first.AccessToken, "whoami"); status != http.StatusOK {
		t.Fatalf("token before reuse: %d", status)
	}
	if again := f.token(form(code, p), "", ""); again.status != http.StatusBadRequest || again.Error != "invalid_grant" || !strings.Contains(again.Description, "already used") {
		t.Errorf("second redemption: %+v", again)
	}
	if status, www, _ := f.call2026Auth(first.AccessToken, "whoami"); status != http.StatusUnauthorized || authParam(www, "error") != "invalid_token" {
		t.Errorf("token after the code's reuse: %d %q", status, www)
	}
	if tr := f.token(url.Values{"grant_type": {"refresh_token"}, "client_id": {id}, "refresh_token": {first.RefreshToken}}, "", ""); tr.status != http.StatusBadRequest {
		t.Errorf("refresh token after the code's reuse: %+v", tr)
	}
	f.stderr.waitFor(t, "a code was redeemed twice: revoked the 2 tokens")

	// A failed redemption spends the code too: a thief with a wrong verifier
	// leaves nothing to redeem.
	code, p = fresh()
	bad := form(code, p)
	bad.Set("code_verifier", newPKCE().verifier)
	f.token(bad, "", "")
	if tr := f.token(form(code, p), "", ""); tr.status != http.StatusBadRequest || tr.Error != "invalid_grant" {
		t.Errorf("after a wrong verifier: %+v", tr)
	}

	// Codes expire.
	code, p = fresh()
	issued := time.Now() // the code was made before this, so it expires before issued+CodeTTL
	waitUntil(t, "the code's lifetime to pass", 5*time.Second, func() bool { return time.Since(issued) > time.Second })
	if tr := f.token(form(code, p), "", ""); tr.status != http.StatusBadRequest || !strings.Contains(tr.Description, "expired") {
		t.Errorf("expired code: %+v", tr)
	}
}

// TestTokenAudienceAndScope: a token works only at the resource it was
// issued for and only with the demo scope.
func TestTokenAudienceAndScope(t *testing.T) {
	f := newAuthFixture(t, AuthOptions{})
	id := f.publicClient()
	p := newPKCE()
	q := f.authParams(id, p, ScopeDemo)
	q.Set("resource", f.base+"/sse")
	v := url.Values{"grant_type": {"authorization_code"}, "client_id": {id}, "code": {f.code(q)},
		"redirect_uri": {"http://127.0.0.1:1/callback"}, "code_verifier": {p.verifier}}
	sse := f.token(v, "", "")
	if sse.status != http.StatusOK {
		t.Fatalf("token for /sse: %+v", sse)
	}
	status, www, body := f.call2026Auth(sse.AccessToken, "whoami")
	if status != http.StatusUnauthorized || authParam(www, "error") != "invalid_token" || !strings.Contains(body, "issued for "+f.base+"/sse") {
		t.Errorf("/sse token at /mcp: %d %q %s", status, www, body)
	}
	// Tokens go in the header only.
	tr := f.login(id, ScopeDemo)
	status, _, _ = f.mcpPost("/mcp?access_token="+url.QueryEscape(tr.AccessToken), "", nil, `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	if status != http.StatusUnauthorized {
		t.Errorf("token in the query: %d", status)
	}
	req, _ := http.NewRequest(http.MethodPost, f.base+"/mcp", strings.NewReader(`{}`))
	req.Header.Set("Authorization", "Basic "+tr.AccessToken)
	if status, _, _ := f.do(req); status != http.StatusUnauthorized {
		t.Errorf("token with another scheme: %d", status)
	}
	// The admin tool inside a batch is caught too.
	status, www, _ = f.mcpPost("/mcp", tr.AccessToken, map[string]string{"MCP-Protocol-Version": "2025-03-26"},
		`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"`+AdminTool+`"}}]`)
	if status != http.StatusForbidden || authParam(www, "error") != "insufficient_scope" {
		t.Errorf("admin tool in a batch: %d %q", status, www)
	}
}

// TestClientAuthentication: confidential clients registered with
// client_secret_basic or client_secret_post must prove their secret.
func TestClientAuthentication(t *testing.T) {
	f := newAuthFixture(t, AuthOptions{})
	for _, method := range []string{"client_secret_basic", "client_secret_post", ""} {
		t.Run(method, func(t *testing.T) {
			status, m := f.register(fmt.Sprintf(`{"client_name":"confidential","redirect_uris":["http://127.0.0.1:1/callback"],"token_endpoint_auth_method":%q}`, method))
			secret, _ := m["client_secret"].(string)
			if status != http.StatusCreated || secret == "" || m["client_secret_expires_at"] != float64(0) {
				t.Fatalf("register: %d %v", status, m)
			}
			id := m["client_id"].(string)
			redeem := func(secret string) tokenResponse {
				p := newPKCE()
				v := url.Values{"grant_type": {"authorization_code"}, "code": {f.code(f.authParams(id, p, ScopeDemo))},
					"redirect_uri": {"http://127.0.0.1:1/callback"}, "code_verifier": {p.verifier}, "resource": {f.base + "/mcp"}}
				if method == "client_secret_post" {
					v.Set("client_id", id)
					v.Set("client_secret", secret)
					return f.token(v, "", "")
				}
				return f.token(v, id, secret)
			}
			if tr := redeem(secret + "x"); tr.status != http.StatusUnauthorized || tr.Error != "invalid_client" {
				t.Errorf("wrong secret: %+v", tr)
			}
			if tr := redeem(""); tr.status != http.StatusUnauthorized || tr.Error != "invalid_client" {
				t.Errorf("no secret: %+v", tr)
			}
			if tr := redeem(secret); tr.status != http.StatusOK || tr.AccessToken == "" {
				t.Errorf("right secret: %+v", tr)
			}
			if strings.Contains(f.stderr.String(), secret) {
				t.Errorf("the client secret reached the log")
			}
		})
	}
}

// TestRegistrationRefusals: metadata dynamic registration refuses.
func TestRegistrationRefusals(t *testing.T) {
	f := newAuthFixture(t, AuthOptions{})
	for body, wantErr := range map[string]string{
		`{"client_name":"x"}`:                                                                         "invalid_redirect_uri",
		`{"redirect_uris":["http://example.com/cb"]}`:                                                 "invalid_redirect_uri",
		`{"redirect_uris":["javascript:alert(1)"]}`:                                                   "invalid_redirect_uri",
		`{"redirect_uris":["https://app.example/cb#frag"]}`:                                           "invalid_redirect_uri",
		`{"redirect_uris":["cb"]}`:                                                                    "invalid_redirect_uri",
		`{"redirect_uris":["https://app.example/cb"],"grant_types":["implicit"]}`:                     "invalid_client_metadata",
		`{"redirect_uris":["https://app.example/cb"],"response_types":["token"]}`:                     "invalid_client_metadata",
		`{"redirect_uris":["https://app.example/cb"],"token_endpoint_auth_method":"private_key_jwt"}`: "invalid_client_metadata",
		`not json`: "invalid_client_metadata",
	} {
		if status, m := f.register(body); status != http.StatusBadRequest || m["error"] != wantErr {
			t.Errorf("%s: %d %v", body, status, m)
		}
	}
	// What a client sends reaches the log with its control characters escaped.
	if status, _ := f.register(`{"client_name":"\u001b[2J\nforged line","redirect_uris":["https://app.example/cb"]}`); status != http.StatusCreated {
		t.Errorf("escape sequence in client_name: %d", status)
	}
	f.stderr.waitFor(t, `\x1b[2J\nforged line`)
	if strings.ContainsAny(f.stderr.String(), "\x1b") {
		t.Errorf("an escape sequence reached the log:\n%q", f.stderr)
	}
	big := `{"client_name":"` + strings.Repeat("x", maxRegistrationBody) + `","redirect_uris":["https://app.example/cb"]}`
	if status, _ := f.register(big); status != http.StatusRequestEntityTooLarge {
		t.Errorf("oversized registration: %d", status)
	}
	if status, m := f.register(`{"redirect_uris":["com.example.app:/cb","http://[::1]/cb"],"token_endpoint_auth_method":"none","application_type":"native"}`); status != http.StatusCreated || m["application_type"] != "native" {
		t.Errorf("native client: %d %v", status, m)
	}
}

// TestClientMetadataDocument: a client whose client_id is the URL of its
// metadata document, served over HTTPS; the server fetches it and holds the
// redirect URI to it.
func TestClientMetadataDocument(t *testing.T) {
	docs := map[string]string{}
	host := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		doc, ok := docs[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "max-age=60")
		fmt.Fprint(w, doc)
	}))
	t.Cleanup(host.Close)
	f := newAuthFixture(t, AuthOptions{MetadataClient: host.Client()})
	good := host.URL + "/client.json"
	docs["/client.json"] = `{"client_id":"` + good + `","client_name":"Metadata Client","redirect_uris":["http://127.0.0.1:1/callback"],"grant_types":["authorization_code","refresh_token"],"token_endpoint_auth_method":"none"}`
	docs["/liar.json"] = `{"client_id":"https://elsewhere.example/client.json","client_name":"Liar","redirect_uris":["http://127.0.0.1:1/callback"]}`
	docs["/nameless.json"] = `{"client_id":"` + host.URL + `/nameless.json","redirect_uris":["http://127.0.0.1:1/callback"]}`
	docs["/secret.json"] = `{"client_id":"` + host.URL + `/secret.json","client_name":"S","redirect_uris":["http://127.0.0.1:1/callback"],"token_endpoint_auth_method":"client_secret_basic"}`
	docs["/broken.json"] = `{"client_id":`

	p := newPKCE()
	q := f.authParams(good, p, ScopeDemo)
	status, _, page := f.get(f.base + "/authorize?" + q.Encode())
	if status != http.StatusOK || !strings.Contains(string(page), "Metadata Client") || !strings.Contains(string(page), sourceMetadata) ||
		!strings.Contains(string(page), `id="warning"`) || !strings.Contains(string(page), "<b>127.0.0.1</b>") {
		t.Fatalf("approve page: %d %s", status, page)
	}
	tr := f.token(url.Values{"grant_type": {"authorization_code"}, "client_id": {good}, "code": {f.code(q)},
		"redirect_uri": {"http://127.0.0.1:1/callback"}, "code_verifier": {p.verifier}, "resource": {f.base + "/mcp"}}, "", "")
	if tr.status != http.StatusOK || tr.RefreshToken == "" {
		t.Fatalf("token: %+v", tr)
	}
	q = f.authParams(good, newPKCE(), ScopeDemo)
	q.Set("redirect_uri", "http://127.0.0.1:1/not-listed")
	if status, h, body := f.get(f.base + "/authorize?" + q.Encode()); status != http.StatusBadRequest || h.Get("Location") != "" {
		t.Errorf("redirect not in the document: %d %s", status, body)
	}
	for path, want := range map[string]string{
		"/liar.json":     "is not the document&#39;s URL",
		"/nameless.json": "client_name is missing",
		"/secret.json":   "is not supported here",
		"/broken.json":   "not a JSON client metadata document",
		"/missing.json":  "404",
	} {
		q := f.authParams(host.URL+path, newPKCE(), ScopeDemo)
		if status, _, body := f.get(f.base + "/authorize?" + q.Encode()); status != http.StatusBadRequest || !strings.Contains(string(body), want) {
			t.Errorf("%s: %d %s", path, status, body)
		}
	}
	// Plain http is taken for loopback hosts only; other client_ids are not URLs to fetch.
	q = f.authParams("http://example.com/client.json", newPKCE(), ScopeDemo)
	if status, _, body := f.get(f.base + "/authorize?" + q.Encode()); status != http.StatusBadRequest || !strings.Contains(string(body), "register first") {
		t.Errorf("http client_id: %d %s", status, body)
	}
}

func TestBoundedMap(t *testing.T) {
	now := time.Now()
	b := newBounded[int](3)
	b.put("a", 1, now.Add(time.Hour), now)
	b.put("b", 2, now.Add(-time.Second), now) // already expired
	b.put("c", 3, time.Time{}, now)
	if n := b.put("d", 4, time.Time{}, now); n != 0 || b.live(now) != 3 {
		t.Errorf("a full map drops its expired entries first: evicted %d, live %d", n, b.live(now))
	}
	if n := b.put("e", 5, time.Time{}, now); n != 1 {
		t.Errorf("then the oldest: evicted %d", n)
	}
	if _, ok := b.get("a", now); ok {
		t.Errorf("the oldest entry is still there")
	}
	for _, k := range []string{"c", "d", "e"} {
		if _, ok := b.get(k, now); !ok {
			t.Errorf("%s is gone", k)
		}
	}
	if _, ok := b.get("c", now.Add(time.Hour)); !ok {
		t.Errorf("an entry without expiry expired")
	}
}
