package demo

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"
)

// authFixture is a demo server with authorization on a real listener, and a
// plain HTTP client that follows no redirects, so each step can be checked.
type authFixture struct {
	t      *testing.T
	base   string
	stderr *syncBuffer
	http   *http.Client
}

func newAuthFixture(t *testing.T, opts AuthOptions) *authFixture {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	opts.BaseURL = base
	stderr := newSyncBuffer()
	h, err := AuthHandler(stderr, opts)
	if err != nil {
		t.Fatal(err)
	}
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: h}}
	srv.Start()
	t.Cleanup(srv.Close)
	return &authFixture{t: t, base: base, stderr: stderr, http: &http.Client{
		Timeout:       10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

// do sends a request and returns the status, headers and body.
func (f *authFixture) do(req *http.Request) (int, http.Header, []byte) {
	f.t.Helper()
	resp, err := f.http.Do(req)
	if err != nil {
		f.t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, body
}

func (f *authFixture) get(u string) (int, http.Header, []byte) {
	f.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, u, nil)
	return f.do(req)
}

// getJSON fetches a JSON document and decodes it into v.
func (f *authFixture) getJSON(path string, v any) {
	f.t.Helper()
	status, _, body := f.get(f.base + path)
	if status != http.StatusOK {
		f.t.Fatalf("GET %s: %d %s", path, status, body)
	}
	if err := json.Unmarshal(body, v); err != nil {
		f.t.Fatalf("GET %s: %v in %s", path, err, body)
	}
}

// register registers a client dynamically and returns the response.
func (f *authFixture) register(metadata string) (int, map[string]any) {
	f.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, f.base+"/register", strings.NewReader(metadata))
	req.Header.Set("Content-Type", "application/json")
	status, _, body := f.do(req)
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		f.t.Fatalf("register: %d %s", status, body)
	}
	return status, m
}

// publicClient registers a public client with a loopback redirect URI and
// the refresh_token grant, and returns its client_id.
func (f *authFixture) publicClient() string {
	f.t.Helper()
	status, m := f.register(`{"client_name":"test client","redirect_uris":["http://127.0.0.1:1/callback"],"token_endpoint_auth_method":"none","grant_types":["authorization_code","refresh_token"]}`)
	if status != http.StatusCreated {
		f.t.Fatalf("register: %d %v", status, m)
	}
	return m["client_id"].(string)
}

// pkce is a code verifier and its S256 challenge.
type pkce struct{ verifier, challenge string }

func newPKCE() pkce {
	v := newSecret() + newSecret()[:10]
	sum := sha256.Sum256([]byte(v))
	return pkce{v, base64.RawURLEncoding.EncodeToString(sum[:])}
}

// authParams are the parameters of a valid authorization request.
func (f *authFixture) authParams(clientID string, p pkce, scope string) url.Values {
	return url.Values{
		"response_type":         {"code"},
		"client_id":             {clientID},
		"redirect_uri":          {"http://127.0.0.1:1/callback"},
		"code_challenge":        {p.challenge},
		"code_challenge_method": {"S256"},
		"state":                 {"st-" + newSecret()[:8]},
		"resource":              {f.base + "/mcp"},
		"scope":                 {scope},
	}
}

// approve sends an authorization request with approve=1 and returns where it
// redirects to.
func (f *authFixture) approve(q url.Values) *url.URL {
	f.t.Helper()
	q.Set("approve", "1")
	status, h, body := f.get(f.base + "/authorize?" + q.Encode())
	if status != http.StatusFound {
		f.t.Fatalf("approve: %d %s", status, body)
	}
	u, err := url.Parse(h.Get("Location"))
	if err != nil {
		f.t.Fatal(err)
	}
	return u
}

// code runs an approved authorization request and returns the code,
// checking state and iss on the redirect.
func (f *authFixture) code(q url.Values) string {
	f.t.Helper()
	u := f.approve(q)
	r := u.Query()
	if r.Get("error") != "" || r.Get("code") == "" {
		f.t.Fatalf("redirect without a code: %s", u)
	}
	if r.Get("state") != q.Get("state") || r.Get("iss") != f.base {
		f.t.Fatalf("redirect: state %q iss %q, want %q and %q", r.Get("state"), r.Get("iss"), q.Get("state"), f.base)
	}
	return r.Get("code")
}

// tokenResponse is a token endpoint answer, success or error.
type tokenResponse struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	ExpiresIn    int    `json:"expires_in"`
	RefreshToken string `json:"refresh_token"`
	Scope        string `json:"scope"`
	Error        string `json:"error"`
	Description  string `json:"error_description"`
	status       int
}

// String shows a token response with its tokens masked, for failure messages.
func (tr tokenResponse) String() string {
	mask := func(s string) string {
		if s == "" {
			return ""
		}
		return "****"
	}
	return fmt.Sprintf("{status %d, error %q (%s), access_token %q, refresh_token %q, token_type %q, expires_in %d, scope %q}",
		tr.status, tr.Error, tr.Description, mask(tr.AccessToken), mask(tr.RefreshToken), tr.TokenType, tr.ExpiresIn, tr.Scope)
}

// token posts a token request.
func (f *authFixture) token(form url.Values, basicUser, basicPass string) tokenResponse {
	f.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, f.base+"/token", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if basicUser != "" {
		req.SetBasicAuth(url.QueryEscape(basicUser), url.QueryEscape(basicPass))
	}
	status, _, body := f.do(req)
	var tr tokenResponse
	if err := json.Unmarshal(body, &tr); err != nil {
		f.t.Fatalf("token: %d %s", status, body)
	}
	tr.status = status
	return tr
}

// exchange redeems a code for a public client.
func (f *authFixture) exchange(clientID, code string, p pkce) tokenResponse {
	f.t.Helper()
	return f.token(url.Values{
		"grant_type":    {"authorization_code"},
		"client_id":     {clientID},
		"code":          {code},
		"redirect_uri":  {"http://127.0.0.1:1/callback"},
		"code_verifier": {p.verifier},
		"resource":      {f.base + "/mcp"},
	}, "", "")
}

// login runs the whole flow for a public client and returns the tokens.
func (f *authFixture) login(clientID, scope string) tokenResponse {
	f.t.Helper()
	p := newPKCE()
	tr := f.exchange(clientID, f.code(f.authParams(clientID, p, scope)), p)
	if tr.status != http.StatusOK || tr.AccessToken == "" {
		f.t.Fatalf("token: %+v", tr)
	}
	return tr
}

// mcpPost posts a JSON-RPC body to path with a bearer token (none when
// empty) and returns the status, WWW-Authenticate and body.
func (f *authFixture) mcpPost(path, token string, headers map[string]string, body string) (int, string, string) {
	f.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, f.base+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	status, h, b := f.do(req)
	return status, h.Get("WWW-Authenticate"), string(b)
}

// call2026Auth calls a tool statelessly (2026-07-28) with a token.
func (f *authFixture) call2026Auth(token, tool string) (int, string, string) {
	f.t.Helper()
	return f.mcpPost("/mcp", token, map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": tool},
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"`+tool+`","arguments":{},`+meta2026(`{}`)+`}}`)
}

// authParam extracts one auth-param of a WWW-Authenticate value.
func authParam(header, name string) string {
	m := regexp.MustCompile(name + `="([^"]*)"`).FindStringSubmatch(header)
	if m == nil {
		return ""
	}
	return m[1]
}

// waitUntil polls cond until it holds or the deadline passes.
func waitUntil(t *testing.T, what string, d time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting: %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
