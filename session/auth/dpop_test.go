package auth

import (
	"bytes"
	"crypto"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
)

// verifyProof checks a proof as a server does (RFC 9449 §4.3) and returns its claims.
func verifyProof(t *testing.T, proof string) (map[string]any, jose.JSONWebKey) {
	t.Helper()
	jws, err := jose.ParseSignedCompact(proof, []jose.SignatureAlgorithm{jose.ES256})
	if err != nil {
		t.Fatalf("parse proof: %v", err)
	}
	h := jws.Signatures[0].Protected
	if h.ExtraHeaders["typ"] != "dpop+jwt" {
		t.Errorf("typ = %v, want dpop+jwt", h.ExtraHeaders["typ"])
	}
	if h.JSONWebKey == nil || !h.JSONWebKey.IsPublic() {
		t.Fatalf("jwk header missing or not public: %+v", h.JSONWebKey)
	}
	payload, err := jws.Verify(h.JSONWebKey)
	if err != nil {
		t.Fatalf("proof does not verify with its jwk: %v", err)
	}
	var claims map[string]any
	if err := json.Unmarshal(payload, &claims); err != nil {
		t.Fatal(err)
	}
	return claims, *h.JSONWebKey
}

func TestDPoPProof(t *testing.T) {
	k, err := NewDPoPKey()
	if err != nil {
		t.Fatal(err)
	}
	body := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	proof, err := k.Proof("POST", "https://mcp.example.com/mcp?x=1#frag", ProofOptions{AccessToken: "tok-123", Body: body})
	if err != nil {
		t.Fatal(err)
	}
	c, jwk := verifyProof(t, proof)
	if c["htm"] != "POST" || c["htu"] != "https://mcp.example.com/mcp" {
		t.Errorf("htm/htu = %v %v", c["htm"], c["htu"])
	}
	if iat, _ := c["iat"].(float64); time.Since(time.Unix(int64(iat), 0)).Abs() > time.Minute {
		t.Errorf("iat = %v", c["iat"])
	}
	sum := sha256.Sum256([]byte("tok-123"))
	if c["ath"] != base64.RawURLEncoding.EncodeToString(sum[:]) {
		t.Errorf("ath = %v", c["ath"])
	}
	bsum := sha256.Sum256(body)
	if want := "sha-256=:" + base64.StdEncoding.EncodeToString(bsum[:]) + ":"; c["content_digest"] != want {
		t.Errorf("content_digest = %v, want %s", c["content_digest"], want)
	}
	if _, ok := c["nonce"]; ok {
		t.Errorf("nonce without one given: %v", c["nonce"])
	}
	tp, _ := jwk.Thumbprint(crypto.SHA256)
	if k.Thumbprint() != base64.RawURLEncoding.EncodeToString(tp) || k.Thumbprint() == "" {
		t.Errorf("thumbprint %q does not match the proof's jwk", k.Thumbprint())
	}

	// A second proof is fresh (jti), and a token request proof has no ath or digest.
	p2, _ := k.Proof("POST", "https://as.example.com/token", ProofOptions{})
	c2, _ := verifyProof(t, p2)
	if c2["jti"] == c["jti"] || c2["jti"] == "" {
		t.Errorf("jti reused or empty: %v %v", c["jti"], c2["jti"])
	}
	if _, ok := c2["ath"]; ok {
		t.Error("ath on a proof without a token")
	}
	if _, ok := c2["content_digest"]; ok {
		t.Error("content_digest on a proof without a body")
	}
}

func TestDPoPKeyRoundTrip(t *testing.T) {
	k, _ := NewDPoPKey()
	data, err := k.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"d"`) {
		t.Fatalf("marshalled key has no private part: %s", data)
	}
	k2, err := ParseDPoPKey(data)
	if err != nil {
		t.Fatal(err)
	}
	if k2.Thumbprint() != k.Thumbprint() || k2.Algorithm() != "ES256" {
		t.Errorf("round trip: %s/%s vs %s", k2.Thumbprint(), k2.Algorithm(), k.Thumbprint())
	}
	pub, _ := json.Marshal(k.public)
	if _, err := ParseDPoPKey(pub); err == nil {
		t.Error("a public key was accepted as a DPoP key")
	}
}

func TestDPoPNonce(t *testing.T) {
	k, _ := NewDPoPKey()
	resp := &http.Response{StatusCode: 401, Header: http.Header{}}
	resp.Header.Set("WWW-Authenticate", `DPoP error="use_dpop_nonce", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"`)
	resp.Header.Set("DPoP-Nonce", "n-1")
	if !IsNonceChallenge(resp.StatusCode, resp.Header, nil) {
		t.Fatal("401 use_dpop_nonce not recognised")
	}
	if !k.NoteNonce("https://mcp.example.com/mcp", resp.Header) || k.NoteNonce("https://mcp.example.com/mcp?again", resp.Header) {
		t.Error("NoteNonce: the first is new, the same again is not")
	}
	p, _ := k.Proof("POST", "https://mcp.example.com/mcp", ProofOptions{})
	if c, _ := verifyProof(t, p); c["nonce"] != "n-1" {
		t.Errorf("nonce = %v, want n-1", c["nonce"])
	}
	for _, other := range []string{"https://as.example.com/token", "https://mcp.example.com/token"} {
		p, _ = k.Proof("POST", other, ProofOptions{})
		if c, _ := verifyProof(t, p); c["nonce"] != nil {
			t.Errorf("a proof for %s carries the MCP endpoint's nonce %v", other, c["nonce"])
		}
	}

	as := &http.Response{StatusCode: 400, Header: http.Header{"Dpop-Nonce": {"n-2"}}}
	if !IsNonceChallenge(as.StatusCode, as.Header, []byte(`{"error":"use_dpop_nonce"}`)) {
		t.Error("400 use_dpop_nonce not recognised")
	}
	if IsNonceChallenge(as.StatusCode, as.Header, []byte(`{"error":"invalid_dpop_proof"}`)) {
		t.Error("another error taken for a nonce challenge")
	}
	bearer := &http.Response{StatusCode: 401, Header: http.Header{"Dpop-Nonce": {"n"}, "Www-Authenticate": {`Bearer error="invalid_token"`}}}
	if IsNonceChallenge(bearer.StatusCode, bearer.Header, nil) {
		t.Error("a Bearer challenge taken for a nonce challenge")
	}
}

func TestDPoPAuthorize(t *testing.T) {
	k, _ := NewDPoPKey()
	body := []byte(`{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	req, _ := http.NewRequest("POST", "http://127.0.0.1:9/mcp", bytes.NewReader(body))
	if err := k.Authorize(req, "at-xyz"); err != nil {
		t.Fatal(err)
	}
	if got := req.Header.Get("Authorization"); got != "DPoP at-xyz" {
		t.Errorf("Authorization = %q", got)
	}
	c, _ := verifyProof(t, req.Header.Get("DPoP"))
	if c["ath"] != TokenHash("at-xyz") || c["htu"] != "http://127.0.0.1:9/mcp" || c["content_digest"] == nil {
		t.Errorf("claims %v", c)
	}
}

// TestDPoPAuto: in auto mode the flow binds tokens only when the MCP server's 401 offered
// the DPoP scheme and the authorization server takes ES256; on and off decide alone.
func TestDPoPAuto(t *testing.T) {
	withDPoP := &Discovery{AS: &ServerMetadata{Raw: map[string]json.RawMessage{"dpop_signing_alg_values_supported": json.RawMessage(`["ES256","PS256"]`)}}}
	without := &Discovery{AS: &ServerMetadata{}}
	bearer401 := &http.Response{StatusCode: 401, Header: http.Header{"Www-Authenticate": {`Bearer resource_metadata="https://x/prm"`}}}
	both401 := &http.Response{StatusCode: 401, Header: http.Header{"Www-Authenticate": {`Bearer resource_metadata="https://x/prm", DPoP algs="ES256"`}}}
	key := func(mode string, resp *http.Response, d *Discovery) bool {
		f := New(Options{ServerURL: "https://x/mcp", DPoP: mode})
		if resp != nil && f.dpopUnauthorized(resp) {
			t.Errorf("%s: a 401 without a nonce asked for a retry", mode)
		}
		k, err := f.dpopKeyFor(d)
		if err != nil {
			t.Fatal(err)
		}
		return k != nil
	}
	for _, c := range []struct {
		name string
		mode string
		resp *http.Response
		d    *Discovery
		want bool
	}{
		{"auto, no 401 yet", DPoPAuto, nil, withDPoP, false},
		{"auto, Bearer only", DPoPAuto, bearer401, withDPoP, false},
		{"auto, DPoP offered", DPoPAuto, both401, withDPoP, true},
		{"auto, AS without DPoP", DPoPAuto, both401, without, false},
		{"on", DPoPOn, nil, without, true},
		{"off", DPoPOff, both401, withDPoP, false},
	} {
		if got := key(c.mode, c.resp, c.d); got != c.want {
			t.Errorf("%s: key %v, want %v", c.name, got, c.want)
		}
	}
}
