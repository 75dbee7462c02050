package auth

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"

	"github.com/mcpscope/mcpscope/session/transport"
)

// tokenServer is a token endpoint that records each request's form and headers and
// answers with answer(n, form, header) for the n-th request.
type tokenServer struct {
	*httptest.Server
	mu    sync.Mutex
	forms []url.Values
	hdrs  []http.Header
}

func newTokenServer(t *testing.T, answer func(n int, f url.Values, h http.Header, w http.ResponseWriter)) *tokenServer {
	ts := &tokenServer{}
	ts.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseForm(); err != nil {
			t.Errorf("form: %v", err)
		}
		ts.mu.Lock()
		n := len(ts.forms)
		ts.forms, ts.hdrs = append(ts.forms, r.PostForm), append(ts.hdrs, r.Header.Clone())
		ts.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		answer(n, r.PostForm, r.Header, w)
	}))
	t.Cleanup(ts.Close)
	return ts
}

func okToken(w http.ResponseWriter) {
	_, _ = w.Write([]byte(`{"access_token":"at-1","token_type":"Bearer","expires_in":60,"scope":"a b"}`))
}

// binder receives the transport's exchanger.
type binder struct{ x chan transport.AuthExchanger }

func (b binder) Authorize(*http.Request) error                              { return nil }
func (b binder) Unauthorized(context.Context, *http.Response) (bool, error) { return false, nil }
func (b binder) Forbidden(context.Context, *http.Response) (bool, error)    { return false, nil }
func (b binder) BindAuth(x transport.AuthExchanger)                         { b.x <- x }

// exSink keeps the HTTP exchanges and the notes a transport reports.
type exSink struct {
	mu    sync.Mutex
	exs   []*transport.HTTPExchange
	notes []string
}

func (s *exSink) Received([]byte, transport.RecvInfo) {}
func (s *exSink) Stderr([]byte)                       {}
func (s *exSink) Exited(transport.ExitInfo)           {}
func (s *exSink) Note(n transport.Note) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.notes = append(s.notes, n.Text)
}

// noted is the notes so far, one per line.
func (s *exSink) noted() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Join(s.notes, "\n")
}
func (s *exSink) HTTP(ex *transport.HTTPExchange) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.exs = append(s.exs, ex)
}

// exchanges returns what the sink has, checking each is labelled with step.
func (s *exSink) exchanges(t *testing.T, step Step) []*transport.HTTPExchange {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, ex := range s.exs {
		if ex.Step != string(step) {
			t.Errorf("exchange %s %s labelled %q, want %q", ex.Method, ex.URL, ex.Step, step)
		}
	}
	return slices.Clone(s.exs)
}

// exchanger is a Streamable HTTP transport's exchanger (the one an authorizer is given) and
// the sink it reports to.
func exchanger(t *testing.T) (transport.AuthExchanger, *exSink) {
	t.Helper()
	b := binder{x: make(chan transport.AuthExchanger, 1)}
	tr := transport.NewStreamableHTTP(transport.HTTPOptions{URL: "http://127.0.0.1:9/mcp", Auth: b})
	sink := &exSink{}
	if err := tr.Start(context.Background(), sink); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tr.Close(context.Background()) })
	return <-b.x, sink
}

func TestClientCredentialsBasic(t *testing.T) {
	x, sink := exchanger(t)
	ts := newTokenServer(t, func(_ int, _ url.Values, _ http.Header, w http.ResponseWriter) { okToken(w) })
	tok, err := RequestToken(context.Background(), x, TokenRequest{
		Step: StepToken, Endpoint: ts.URL + "/token",
		Form:   ClientCredentialsForm([]string{"a", "b"}, "https://mcp.example.com/mcp"),
		Client: ClientAuth{Method: ChooseClientAuth([]string{"client_secret_basic"}, true, false), ClientID: "my client", ClientSecret: "s:ecret"},
	}, []string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	if tok.AccessToken != "at-1" || strings.Join(tok.Scopes, " ") != "a b" || time.Until(tok.Expiry) < 50*time.Second {
		t.Errorf("token = %+v", tok)
	}
	f, h := ts.forms[0], ts.hdrs[0]
	if f.Get("grant_type") != "client_credentials" || f.Get("scope") != "a b" || f.Get("resource") != "https://mcp.example.com/mcp" || f.Has("client_secret") {
		t.Errorf("form = %v", f)
	}
	exs := sink.exchanges(t, StepToken)
	if len(exs) != 1 || exs[0].Status != 200 || strings.Contains(exs[0].RespBody, "at-1") || exs[0].ReqHeaders.Get("Authorization") == h.Get("Authorization") {
		t.Errorf("exchange shown unmasked or missing: %+v", exs)
	}
	user, pass, ok := (&http.Request{Header: h}).BasicAuth()
	if u, _ := url.QueryUnescape(user); !ok || u != "my client" {
		t.Errorf("basic user = %q", user)
	}
	if p, _ := url.QueryUnescape(pass); p != "s:ecret" {
		t.Errorf("basic password = %q", pass)
	}
}

func TestChooseClientAuth(t *testing.T) {
	for _, c := range []struct {
		sup         []string
		secret, key bool
		want        string
	}{
		{nil, true, false, AuthClientSecretBasic},
		{[]string{"client_secret_post"}, true, false, AuthClientSecretPost},
		{[]string{"client_secret_post", "client_secret_basic"}, true, false, AuthClientSecretBasic},
		{[]string{"private_key_jwt"}, false, true, AuthPrivateKeyJWT},
		{[]string{"none"}, false, false, AuthNone},
	} {
		if got := ChooseClientAuth(c.sup, c.secret, c.key); got != c.want {
			t.Errorf("ChooseClientAuth(%v, %v, %v) = %s, want %s", c.sup, c.secret, c.key, got, c.want)
		}
	}
}

func ecPEM(t *testing.T) (*ecdsa.PrivateKey, []byte) {
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, _ := x509.MarshalPKCS8PrivateKey(priv)
	return priv, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})
}

func TestClientCredentialsPrivateKeyJWT(t *testing.T) {
	x, sink := exchanger(t)
	priv, pemData := ecPEM(t)
	key, err := ParsePrivateKeyPEM(pemData, "")
	if err != nil || key.Algorithm() != "ES256" {
		t.Fatalf("ParsePrivateKeyPEM: %v %v", key, err)
	}
	if err := key.CheckAlgorithm([]string{"RS256"}); err == nil {
		t.Error("an ES256 key passed a server that accepts only RS256")
	}
	ts := newTokenServer(t, func(_ int, _ url.Values, _ http.Header, w http.ResponseWriter) { okToken(w) })
	issuer := ts.URL
	_, err = RequestToken(context.Background(), x, TokenRequest{
		Step: StepToken, Endpoint: ts.URL + "/token", Form: ClientCredentialsForm(nil, "https://mcp.example.com/mcp"),
		Client: ClientAuth{Method: AuthPrivateKeyJWT, ClientID: "cid", Key: key, Audience: issuer},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	f := ts.forms[0]
	if f.Get("client_assertion_type") != ClientAssertionType || f.Has("client_id") || f.Has("scope") {
		t.Errorf("form = %v", f)
	}
	tok, err := jwt.ParseSigned(f.Get("client_assertion"), []jose.SignatureAlgorithm{jose.ES256})
	if err != nil {
		t.Fatal(err)
	}
	var c jwt.Claims
	if err := tok.Claims(&priv.PublicKey, &c); err != nil {
		t.Fatalf("assertion does not verify: %v", err)
	}
	if err := c.ValidateWithLeeway(jwt.Expected{Issuer: "cid", Subject: "cid", AnyAudience: jwt.Audience{issuer}, Time: time.Now()}, 0); err != nil {
		t.Errorf("claims: %v (%+v)", err, c)
	}
	if exs := sink.exchanges(t, StepToken); len(exs) != 1 || strings.Contains(exs[0].ReqBody, f.Get("client_assertion")) {
		t.Errorf("client assertion shown unmasked: %+v", exs)
	}
	if c.ID == "" || c.Expiry == nil {
		t.Errorf("no jti or exp: %+v", c)
	}
}

func TestParsePrivateKeyPEMAlgorithms(t *testing.T) {
	rk, _ := rsa.GenerateKey(rand.Reader, 2048)
	rsaPEM := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(rk)})
	if k, err := ParsePrivateKeyPEM(rsaPEM, ""); err != nil || k.Algorithm() != "RS256" {
		t.Errorf("RSA default: %v %v", k, err)
	}
	if k, err := ParsePrivateKeyPEM(rsaPEM, "PS256"); err != nil || k.Algorithm() != "PS256" {
		t.Errorf("RSA PS256: %v %v", k, err)
	}
	if _, err := ParsePrivateKeyPEM(rsaPEM, "ES256"); err == nil || !strings.Contains(err.Error(), "does not fit") {
		t.Errorf("RSA with ES256: %v", err)
	}
	if _, err := ParsePrivateKeyPEM([]byte("not pem"), ""); err == nil {
		t.Error("garbage accepted")
	}
}

func TestTokenRequestDPoPNonce(t *testing.T) {
	x, _ := exchanger(t)
	ts := newTokenServer(t, func(n int, _ url.Values, h http.Header, w http.ResponseWriter) {
		if n == 0 {
			w.Header().Set("DPoP-Nonce", "as-nonce")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"error":"use_dpop_nonce"}`))
			return
		}
		_, _ = w.Write([]byte(`{"access_token":"at-d","token_type":"DPoP"}`))
	})
	k, _ := NewDPoPKey()
	tok, err := RequestToken(context.Background(), x, TokenRequest{
		Step: StepToken, Endpoint: ts.URL + "/token", Form: url.Values{"grant_type": {"authorization_code"}}, DPoP: k,
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if tok.TokenType != "DPoP" || len(ts.hdrs) != 2 {
		t.Fatalf("token %+v after %d requests", tok, len(ts.hdrs))
	}
	c0, _ := verifyProof(t, ts.hdrs[0].Get("DPoP"))
	c1, _ := verifyProof(t, ts.hdrs[1].Get("DPoP"))
	if c0["nonce"] != nil || c1["nonce"] != "as-nonce" || c0["jti"] == c1["jti"] || c1["htu"] != ts.URL+"/token" {
		t.Errorf("proofs: %v then %v", c0, c1)
	}
}

func TestTokenErrorNotRetried(t *testing.T) {
	x, _ := exchanger(t)
	ts := newTokenServer(t, func(_ int, _ url.Values, _ http.Header, w http.ResponseWriter) {
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(`{"error":"invalid_grant","error_description":"JWT assertion is expired"}`))
	})
	_, err := RequestToken(context.Background(), x, TokenRequest{
		Step: StepToken, Endpoint: ts.URL, Form: JWTBearerForm("a.b.c", []string{"s"}, "https://r"), Client: ClientAuth{Method: AuthNone, ClientID: "w"},
	}, nil)
	if err == nil || !strings.Contains(err.Error(), "invalid_grant") || !strings.Contains(err.Error(), "expired") {
		t.Fatalf("err = %v", err)
	}
	if len(ts.forms) != 1 {
		t.Errorf("%d requests, want 1 (no retry)", len(ts.forms))
	}
	f := ts.forms[0]
	if f.Get("grant_type") != GrantJWTBearer || f.Get("assertion") != "a.b.c" || f.Get("client_id") != "w" {
		t.Errorf("form = %v", f)
	}
}

func TestRequestIDJAG(t *testing.T) {
	x, sink := exchanger(t)
	ts := newTokenServer(t, func(_ int, _ url.Values, _ http.Header, w http.ResponseWriter) {
		_ = json.NewEncoder(w).Encode(map[string]string{"access_token": "jag", "issued_token_type": TokenTypeIDJAG, "token_type": "N_A"})
	})
	jag, err := RequestIDJAG(context.Background(), x, ts.URL+"/token", ClientAuth{ClientID: "idp-client"}, TokenExchange{
		SubjectToken: "id.tok.en", Audience: "https://as.example.com", Resource: "https://mcp.example.com/mcp",
	})
	if err != nil || jag != "jag" {
		t.Fatalf("RequestIDJAG = %q, %v", jag, err)
	}
	if exs := sink.exchanges(t, StepTokenExchange); len(exs) != 1 || strings.Contains(exs[0].ReqBody, "id.tok.en") {
		t.Errorf("subject token shown unmasked: %+v", exs)
	}
	f := ts.forms[0]
	want := map[string]string{"grant_type": GrantTokenExchange, "requested_token_type": TokenTypeIDJAG, "subject_token_type": TokenTypeIDToken,
		"subject_token": "id.tok.en", "audience": "https://as.example.com", "resource": "https://mcp.example.com/mcp", "client_id": "idp-client"}
	for k, v := range want {
		if f.Get(k) != v {
			t.Errorf("%s = %q, want %q", k, f.Get(k), v)
		}
	}
}

// TestExtGrantRefusalNotRetried: a workload identity grant the authorization server refuses
// is reported, and the same credentials are not sent again in the process (SEP-1933).
func TestExtGrantRefusalNotRetried(t *testing.T) {
	x, _ := exchanger(t)
	ts := newTokenServer(t, func(_ int, _ url.Values, _ http.Header, w http.ResponseWriter) {
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(`{"error":"invalid_grant","error_description":"JWT assertion audience is invalid"}`))
	})
	g := &ExtGrant{Name: GrantNameJWTBearer, Assertion: "a.b.c"}
	f := New(Options{ServerURL: "http://127.0.0.1:9/mcp", Grant: g})
	f.BindAuth(x)
	d := &Discovery{ServerURL: "http://127.0.0.1:9/mcp", Resource: "http://127.0.0.1:9/mcp", Issuer: ts.URL,
		AS: &ServerMetadata{Issuer: ts.URL, TokenEndpoint: ts.URL + "/token", GrantTypesSupported: []string{GrantJWTBearer}}}
	for i := range 2 {
		_, err := g.Token(context.Background(), f, d)
		if err == nil || !strings.Contains(err.Error(), "audience is invalid") {
			t.Fatalf("attempt %d: err = %v", i+1, err)
		}
	}
	if len(ts.forms) != 1 {
		t.Fatalf("%d token requests, want 1", len(ts.forms))
	}
	if f := ts.forms[0]; f.Get("grant_type") != GrantJWTBearer || f.Get("assertion") != "a.b.c" || f.Get("resource") != "http://127.0.0.1:9/mcp" || f.Has("client_id") {
		t.Errorf("form = %v", f)
	}
}
