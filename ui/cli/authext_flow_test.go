package cli_test

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	jose "github.com/go-jose/go-jose/v4"
)

// Credentials of the enterprise fixture; each is long enough to be searched for in outputs.
const (
	entIDToken      = "eyJpZC10b2tlbi1vZi1hZGEifQ.e30.aWQtdG9rZW4tc2ln"
	entClientSecret = "enterprise-client-secret-1234"
	entJAG          = "eyJ0eXAiOiJvYXV0aC1pZC1qYWcrand0In0.e30.amFnLXNpZw"
	entAccessToken  = "dpop-bound-access-token-5678"
)

// enterpriseServer is an identity provider, an authorization server and an MCP server in
// one: the ID token is exchanged for an ID-JAG at /idp/token, the ID-JAG for a DPoP-bound
// token at /token (after a use_dpop_nonce challenge), and /mcp wants that token with a
// proof for it.
type enterpriseServer struct {
	url string

	mu        sync.Mutex
	exchanges int      // token exchanges at the identity provider
	tokens    int      // token requests at the authorization server
	nonces    []string // the nonce of each token request's proof
	mcp       int      // MCP requests carrying a valid DPoP token and proof
	rsNonce   int      // the MCP endpoint's latest nonce is rs-N; each answer gives the next
	rsUsed    []int    // the N of the nonce in each accepted MCP request's proof
	nonce401  int      // MCP requests refused for their proof's nonce (use_dpop_nonce)
	problems  []string
}

func newEnterpriseServer(t *testing.T) *enterpriseServer {
	e := &enterpriseServer{}
	srv := httptest.NewServer(http.HandlerFunc(e.serve))
	t.Cleanup(srv.Close)
	e.url = srv.URL
	return e
}

func (e *enterpriseServer) fail(format string, args ...any) {
	e.problems = append(e.problems, fmt.Sprintf(format, args...))
}

// proofClaims verifies a DPoP proof with the key it carries and returns its claims.
func proofClaims(proof string) (map[string]any, error) {
	jws, err := jose.ParseSignedCompact(proof, []jose.SignatureAlgorithm{jose.ES256})
	if err != nil {
		return nil, err
	}
	h := jws.Signatures[0].Protected
	if h.JSONWebKey == nil || h.ExtraHeaders["typ"] != "dpop+jwt" {
		return nil, fmt.Errorf("header %+v", h)
	}
	payload, err := jws.Verify(h.JSONWebKey)
	if err != nil {
		return nil, err
	}
	var c map[string]any
	return c, json.Unmarshal(payload, &c)
}

func (e *enterpriseServer) serve(w http.ResponseWriter, r *http.Request) {
	e.mu.Lock()
	defer e.mu.Unlock()
	reply := func(status int, v any) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(v)
	}
	_ = r.ParseForm()
	switch r.URL.Path {
	case "/.well-known/oauth-protected-resource/mcp":
		reply(200, map[string]any{"resource": e.url + "/mcp", "authorization_servers": []string{e.url}})
	case "/.well-known/oauth-authorization-server":
		reply(200, map[string]any{"issuer": e.url, "token_endpoint": e.url + "/token",
			"grant_types_supported":                 []string{"urn:ietf:params:oauth:grant-type:jwt-bearer"},
			"token_endpoint_auth_methods_supported": []string{"client_secret_basic"},
			"dpop_signing_alg_values_supported":     []string{"ES256"}})
	case "/idp/token":
		e.exchanges++
		f := r.PostForm
		if f.Get("subject_token") != entIDToken || f.Get("audience") != e.url || f.Get("resource") != e.url+"/mcp" ||
			f.Get("requested_token_type") != "urn:ietf:params:oauth:token-type:id-jag" || f.Get("client_id") != "idp-client" {
			e.fail("token exchange form %v", f)
			reply(400, map[string]any{"error": "invalid_request"})
			return
		}
		reply(200, map[string]any{"access_token": entJAG, "issued_token_type": "urn:ietf:params:oauth:token-type:id-jag", "token_type": "N_A"})
	case "/token":
		e.tokens++
		user, pass, _ := r.BasicAuth()
		if user != "mcp-client" || pass != entClientSecret || r.PostForm.Get("assertion") != entJAG ||
			r.PostForm.Get("grant_type") != "urn:ietf:params:oauth:grant-type:jwt-bearer" {
			e.fail("token request %v (basic %q)", r.PostForm, user)
			reply(401, map[string]any{"error": "invalid_client"})
			return
		}
		c, err := proofClaims(r.Header.Get("DPoP"))
		if err != nil || c["htu"] != e.url+"/token" || c["htm"] != "POST" {
			e.fail("token request proof %v: %v", c, err)
			reply(400, map[string]any{"error": "invalid_dpop_proof"})
			return
		}
		nonce, _ := c["nonce"].(string)
		e.nonces = append(e.nonces, nonce)
		if nonce != "as-nonce" {
			w.Header().Set("DPoP-Nonce", "as-nonce")
			reply(400, map[string]any{"error": "use_dpop_nonce"})
			return
		}
		reply(200, map[string]any{"access_token": entAccessToken, "token_type": "DPoP", "expires_in": 600})
	case "/mcp":
		e.serveMCP(w, r, reply)
	default:
		http.NotFound(w, r)
	}
}

func (e *enterpriseServer) serveMCP(w http.ResponseWriter, r *http.Request, reply func(int, any)) {
	if r.Method != http.MethodPost {
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	body, _ := io.ReadAll(r.Body)
	if r.Header.Get("Authorization") != "DPoP "+entAccessToken {
		// Both schemes offered (RFC 9449 §7.1): mcpscope binds the token since DPoP is one.
		w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer resource_metadata="%s/.well-known/oauth-protected-resource/mcp", DPoP algs="ES256"`, e.url))
		reply(401, map[string]any{"error": "invalid_token"})
		return
	}
	c, err := proofClaims(r.Header.Get("DPoP"))
	ath := sha256.Sum256([]byte(entAccessToken))
	digest := sha256.Sum256(body)
	if err != nil || c["ath"] != base64.RawURLEncoding.EncodeToString(ath[:]) || c["htu"] != e.url+"/mcp" ||
		c["content_digest"] != "sha-256=:"+base64.StdEncoding.EncodeToString(digest[:])+":" {
		e.fail("MCP request proof %v: %v", c, err)
		w.Header().Set("WWW-Authenticate", `DPoP error="invalid_dpop_proof"`)
		reply(401, map[string]any{"error": "invalid_dpop_proof"})
		return
	}
	// The MCP endpoint wants one of its nonces in the proof (RFC 9449 §9) and gives a new
	// one with every answer (requests may overlap, so any it gave is taken): mcpscope uses
	// the latest it got, so only the first request is refused.
	nonce, _ := c["nonce"].(string)
	n, err := strconv.Atoi(strings.TrimPrefix(nonce, "rs-"))
	if !strings.HasPrefix(nonce, "rs-") || err != nil || n < 0 || n > e.rsNonce {
		e.nonce401++
		w.Header().Set("DPoP-Nonce", fmt.Sprintf("rs-%d", e.rsNonce))
		w.Header().Set("WWW-Authenticate", `DPoP error="use_dpop_nonce", error_description="a nonce is required"`)
		reply(401, map[string]any{"error": "use_dpop_nonce"})
		return
	}
	e.rsUsed = append(e.rsUsed, n)
	e.rsNonce++
	w.Header().Set("DPoP-Nonce", fmt.Sprintf("rs-%d", e.rsNonce))
	e.mcp++
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	_ = json.Unmarshal(body, &msg)
	var result any = map[string]any{}
	switch msg.Method {
	case "initialize":
		result = map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{"tools": map[string]any{}},
			"serverInfo": map[string]any{"name": "enterprise-fixture", "version": "1"}}
	case "tools/list":
		result = map[string]any{"tools": []any{map[string]any{"name": "whoami", "inputSchema": map[string]any{"type": "object"}}}}
	}
	if len(msg.ID) == 0 {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	reply(200, map[string]any{"jsonrpc": "2.0", "id": msg.ID, "result": result})
}

// TestEnterpriseGrantDPoP runs --grant enterprise end to end with DPoP: the ID token is
// exchanged for an ID-JAG, the ID-JAG for a DPoP-bound token (the nonce challenge answered),
// and the tools are listed with a proof on every request. The trace labels each exchange
// with its step, and no credential reaches stderr, the trace or the recording.
func TestEnterpriseGrantDPoP(t *testing.T) {
	e := newEnterpriseServer(t)
	dir := t.TempDir()
	idToken := filepath.Join(dir, "id_token")
	if err := os.WriteFile(idToken, []byte(entIDToken+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	rec := filepath.Join(dir, "session.jsonl")
	stdout, stderr, code := runAuthEnv(t, []string{"XDG_STATE_HOME=" + filepath.Join(dir, "state"), "MCPSCOPE_CLIENT_SECRET=" + entClientSecret},
		"--protocol", "2025-11-25", "--no-listen", "--trace", "--record", rec,
		"--grant", "enterprise", "--client-id", "mcp-client", "--id-token", idToken,
		"--idp-token-endpoint", e.url+"/idp/token", "--idp-client-id", "idp-client",
		"list", "tools", "--url", e.url+"/mcp")
	e.mu.Lock()
	defer e.mu.Unlock()
	if code != 0 || !strings.Contains(stdout, `"whoami"`) {
		t.Fatalf("exit %d, stdout %s\nfixture saw: %q\nstderr:\n%s", code, stdout, e.problems, stderr)
	}
	if len(e.problems) > 0 || e.exchanges != 1 || e.tokens != 2 || strings.Join(e.nonces, ",") != ",as-nonce" || e.mcp < 2 {
		t.Errorf("fixture saw problems %q, %d exchanges, %d token requests (nonces %q), %d authorized MCP requests; want none, 1, 2 (\"\", as-nonce), at least 2",
			e.problems, e.exchanges, e.tokens, e.nonces, e.mcp)
	}
	// The first request meets the nonce challenge; every one after the first answer uses a
	// nonce an answer gave, none asks again.
	if e.nonce401 != 1 || len(e.rsUsed) < 2 || e.rsUsed[0] != 0 || slices.Min(e.rsUsed[1:]) < 1 {
		t.Errorf("%d MCP requests refused for their DPoP nonce, nonces used %v; want 1 refused, then rs-0, then the nonces the answers gave", e.nonce401, e.rsUsed)
	}
	steps := map[string]int{}
	for _, line := range strings.Split(stderr, "\n") {
		var ev struct {
			Kind string `json:"kind"`
			HTTP struct {
				Step string `json:"step"`
			} `json:"http"`
		}
		if json.Unmarshal([]byte(line), &ev) == nil && ev.Kind == "http" && ev.HTTP.Step != "" {
			steps[ev.HTTP.Step]++
		}
	}
	if steps["token exchange"] != 1 || steps["token"] != 2 || steps["resource metadata"] == 0 || steps["AS metadata"] == 0 {
		t.Errorf("trace steps %v; want resource metadata, AS metadata, 1 token exchange, 2 token", steps)
	}
	recorded, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{entIDToken, entClientSecret, entJAG, entAccessToken} {
		if strings.Contains(stderr, s) || strings.Contains(stdout, s) || strings.Contains(string(recorded), s) {
			t.Errorf("%q reached stderr, stdout or the recording unmasked", s)
		}
	}
}
