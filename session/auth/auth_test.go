package auth

import (
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/oauth2"

	"github.com/mcpscope/mcpscope/protocol"
)

func TestParseWWWAuthenticate(t *testing.T) {
	for _, tc := range []struct {
		header string
		scheme string
		params map[string]string
	}{
		{`Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource", scope="files:read"`,
			"Bearer", map[string]string{"resource_metadata": "https://mcp.example.com/.well-known/oauth-protected-resource", "scope": "files:read"}},
		{`Bearer error="insufficient_scope", scope="a b", resource_metadata="http://x/prm", error_description="needs \"b\""`,
			"Bearer", map[string]string{"error": "insufficient_scope", "scope": "a b", "resource_metadata": "http://x/prm", "error_description": `needs "b"`}},
		{`Basic realm="x", Bearer realm=api,scope=read`, "Bearer", map[string]string{"realm": "api", "scope": "read"}},
		{`bearer`, "bearer", map[string]string{}},
		{`DPoP algs="ES256", Bearer scope="s"`, "Bearer", map[string]string{"scope": "s"}},
	} {
		h := http.Header{"Www-Authenticate": {tc.header}}
		c, ok := BearerChallenge(h)
		if !ok || c.Scheme != tc.scheme || len(c.Params) != len(tc.params) {
			t.Errorf("%s: got %+v %v", tc.header, c, ok)
			continue
		}
		for k, v := range tc.params {
			if c.Params[k] != v {
				t.Errorf("%s: %s = %q, want %q", tc.header, k, c.Params[k], v)
			}
		}
	}
	if _, ok := BearerChallenge(http.Header{"Www-Authenticate": {`Basic realm="x"`}}); ok {
		t.Error("a Basic challenge is not a Bearer one")
	}
	c, _ := BearerChallenge(http.Header{"Www-Authenticate": {`Bearer error="insufficient_scope", scope="mcp:read  mcp:write"`}})
	if c.Error() != "insufficient_scope" || !slices.Equal(c.Scopes(), []string{"mcp:read", "mcp:write"}) {
		t.Errorf("challenge %+v: error %q scopes %q", c, c.Error(), c.Scopes())
	}
}

func TestDiscoveryOrder(t *testing.T) {
	got := ProtectedResourceURLs("https://example.com/public/mcp", "")
	want := []string{"https://example.com/.well-known/oauth-protected-resource/public/mcp", "https://example.com/.well-known/oauth-protected-resource"}
	if !slices.Equal(got, want) {
		t.Errorf("PRM URLs: %q, want %q", got, want)
	}
	if got := ProtectedResourceURLs("https://example.com/mcp", "https://example.com/custom.json"); !slices.Equal(got, []string{"https://example.com/custom.json"}) {
		t.Errorf("the header's URL alone: %q", got)
	}
	if got := ProtectedResourceURLs("https://example.com", ""); !slices.Equal(got, []string{"https://example.com/.well-known/oauth-protected-resource"}) {
		t.Errorf("PRM URLs of a pathless server: %q", got)
	}
	got = ServerMetadataURLs("https://auth.example.com/tenant1")
	want = []string{
		"https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
		"https://auth.example.com/.well-known/openid-configuration/tenant1",
		"https://auth.example.com/tenant1/.well-known/openid-configuration",
	}
	if !slices.Equal(got, want) {
		t.Errorf("AS metadata URLs with a path: %q, want %q", got, want)
	}
	got = ServerMetadataURLs("https://auth.example.com")
	want = []string{"https://auth.example.com/.well-known/oauth-authorization-server", "https://auth.example.com/.well-known/openid-configuration"}
	if !slices.Equal(got, want) {
		t.Errorf("AS metadata URLs without a path: %q, want %q", got, want)
	}
}

func TestResourceMatches(t *testing.T) {
	for _, tc := range []struct {
		resource, server string
		want             bool
	}{
		{"http://localhost:3000/mcp", "http://localhost:3000/mcp", true},
		{"http://localhost:3000", "http://localhost:3000/mcp", true},
		{"HTTPS://MCP.example.com/mcp", "https://mcp.example.com/mcp", true},
		{"https://mcp.example.com:443/mcp", "https://mcp.example.com/mcp", true},
		{"https://evil.example.com/mcp", "http://localhost:3000/mcp", false},
		{"http://localhost:3000/other", "http://localhost:3000/mcp", false},
		{"http://localhost:3000/mc", "http://localhost:3000/mcp", false},
		{"http://localhost:3001/mcp", "http://localhost:3000/mcp", false},
		{"http://localhost:3000/mcp#x", "http://localhost:3000/mcp", false},
	} {
		if got := ResourceMatches(tc.resource, tc.server); got != tc.want {
			t.Errorf("ResourceMatches(%q, %q) = %v, want %v", tc.resource, tc.server, got, tc.want)
		}
	}
}

func TestSelectScopes(t *testing.T) {
	prm := &ResourceMetadata{ScopesSupported: []string{"mcp:basic", "mcp:read"}}
	as := &ServerMetadata{ScopesSupported: []string{"mcp:basic"}}
	asOffline := &ServerMetadata{ScopesSupported: []string{"mcp:basic", "offline_access"}}
	ch := Challenge{Params: map[string]string{"scope": "files:read"}}
	for _, tc := range []struct {
		name string
		ch   Challenge
		prm  *ResourceMetadata
		as   *ServerMetadata
		want []string
	}{
		{"challenge first", ch, prm, as, []string{"files:read"}},
		{"then scopes_supported", Challenge{}, prm, as, []string{"mcp:basic", "mcp:read"}},
		{"else omitted", Challenge{}, &ResourceMetadata{}, as, nil},
		{"no metadata", Challenge{}, nil, as, nil},
		{"offline_access when advertised", ch, prm, asOffline, []string{"files:read", "offline_access"}},
		{"offline_access alone", Challenge{}, nil, asOffline, []string{"offline_access"}},
	} {
		if got := SelectScopes(tc.ch, tc.prm, tc.as); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestPKCE checks the authorization request against RFC 7636's example (appendix B).
func TestPKCE(t *testing.T) {
	const verifier, challenge = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk", "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
	if got := oauth2.S256ChallengeFromVerifier(verifier); got != challenge {
		t.Fatalf("S256(%s) = %s, want %s", verifier, got, challenge)
	}
	raw, err := AuthorizationURL("https://as.example.com/authorize?tenant=1", "client", "http://127.0.0.1:5000/callback",
		challenge, "st", "https://mcp.example.com", []string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(raw)
	q := u.Query()
	for k, want := range map[string]string{"response_type": "code", "client_id": "client", "redirect_uri": "http://127.0.0.1:5000/callback",
		"code_challenge": challenge, "code_challenge_method": "S256", "state": "st", "resource": "https://mcp.example.com", "scope": "a b", "tenant": "1"} {
		if q.Get(k) != want {
			t.Errorf("%s = %q, want %q (%s)", k, q.Get(k), want, raw)
		}
	}
	raw, _ = AuthorizationURL("https://as.example.com/authorize", "c", "r", challenge, "s", "https://mcp.example.com", nil)
	if strings.Contains(raw, "scope=") {
		t.Errorf("no scopes: the parameter is omitted: %s", raw)
	}
	if v := oauth2.GenerateVerifier(); len(v) < 43 || len(v) > 128 {
		t.Errorf("verifier %q: RFC 7636 wants 43 to 128 characters", v)
	}
}

// TestIssValidation follows the table of the 2026-07-28 authorization spec (RFC 9207 §2.4):
// a present iss is compared as a plain string whether advertised or not, an absent one is
// refused only when advertised.
func TestIssValidation(t *testing.T) {
	const issuer = "https://as.example.com"
	f := New(Options{ServerURL: "https://mcp.example.com/mcp"})
	cb := &callback{redirectURI: "http://127.0.0.1:5000/callback"}
	for _, tc := range []struct {
		name       string
		advertised bool
		iss        *string
		wantCode   string // "" accepted
	}{
		{"advertised, present, equal", true, ptr(issuer), ""},
		{"advertised, absent", true, nil, protocol.FindAuthIssMissing},
		{"advertised, wrong", true, ptr("https://evil.example.com"), protocol.FindAuthIssuerMismatch},
		{"advertised, trailing slash", true, ptr(issuer + "/"), protocol.FindAuthIssuerMismatch},
		{"advertised, upper-case host", true, ptr("https://AS.example.com"), protocol.FindAuthIssuerMismatch},
		{"not advertised, present, equal", false, ptr(issuer), ""},
		{"not advertised, present, wrong", false, ptr("https://evil.example.com"), protocol.FindAuthIssuerMismatch},
		{"not advertised, absent", false, nil, ""},
	} {
		d := &Discovery{AS: &ServerMetadata{Issuer: issuer, AuthorizationResponseIssParameterSupported: tc.advertised}}
		q := url.Values{"code": {"the-code"}, "state": {"st"}}
		if tc.iss != nil {
			q.Set("iss", *tc.iss)
		}
		c, err := f.checkCallback(d, cb, q, "st", "verifier")
		switch {
		case tc.wantCode == "" && (err != nil || c == nil || c.value != "the-code"):
			t.Errorf("%s: refused: %v", tc.name, err)
		case tc.wantCode != "" && (err == nil || !strings.Contains(err.Error(), tc.wantCode)):
			t.Errorf("%s: %v, want %s", tc.name, err, tc.wantCode)
		}
	}
	d := &Discovery{AS: &ServerMetadata{Issuer: issuer}}
	if _, err := f.checkCallback(d, cb, url.Values{"code": {"x"}, "state": {"other"}}, "st", "v"); err == nil || !strings.Contains(err.Error(), protocol.FindAuthState) {
		t.Errorf("another state: %v", err)
	}
	// On a mismatch the error the response carries is not acted on or shown.
	q := url.Values{"error": {"access_denied"}, "error_description": {"shown?"}, "state": {"st"}, "iss": {"https://evil.example.com"}}
	if _, err := f.checkCallback(d, cb, q, "st", "v"); err == nil || strings.Contains(err.Error(), "shown?") {
		t.Errorf("error response with a wrong iss: %v", err)
	}
}

func ptr(s string) *string { return &s }

func TestFileStore(t *testing.T) {
	st := NewFileStore(filepath.Join(t.TempDir(), "state"))
	path := st.Path()
	k1 := Key{Resource: "https://a.example.com/mcp", Issuer: "https://as.example.com"}
	k2 := Key{Resource: "https://b.example.com/mcp", Issuer: "https://as.example.com"}
	if _, ok, err := st.Get(k1); ok || err != nil {
		t.Fatalf("empty store: %v %v", ok, err)
	}
	for _, k := range []Key{k1, k2} {
		if err := st.Put(&Record{Key: k, ClientID: "c-" + k.Resource, AccessToken: "tok"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Put(&Record{Key: k1, ClientID: "replaced"}); err != nil {
		t.Fatal(err)
	}
	if r, ok, _ := st.Get(k1); !ok || r.ClientID != "replaced" {
		t.Errorf("get k1: %+v %v", r, ok)
	}
	if keys, _ := st.List(); len(keys) != 2 {
		t.Errorf("list: %v", keys)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the file's mode: %v %v, want 0600", fi.Mode(), err)
	}
	if err := st.Delete(k1); err != nil {
		t.Fatal(err)
	}
	if keys, _ := st.List(); !slices.Equal(keys, []Key{k2}) {
		t.Errorf("after delete: %v", keys)
	}
}
