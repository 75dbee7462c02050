package auth

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/mcpscope/mcpscope/session/transport"
)

// DPoP modes (Options.DPoP, --dpop).
const (
	DPoPAuto = "auto" // bind tokens when the MCP server offers DPoP and its authorization server takes ES256
	DPoPOn   = "on"   // always send proofs
	DPoPOff  = "off"  // never
)

// dpopKeyFor returns the key the flow binds tokens to at the authorization server d names,
// creating it on first use; nil when DPoP is off, or auto and either the MCP server's 401
// offered no DPoP challenge (RFC 9449 §7.1) or its authorization server does not list
// ES256 in dpop_signing_alg_values_supported. Auto asks both, because a server that does
// not take DPoP tokens would refuse the bound token, and an authorization code is spent
// by the token request that obtains it.
func (f *Flow) dpopKeyFor(d *Discovery) (*DPoPKey, error) {
	mode := f.opts.DPoP
	if mode == DPoPOff {
		return nil, nil
	}
	if mode != DPoPOn {
		f.mu.Lock()
		offered, have := f.dpopOffered, f.dpop != nil
		f.mu.Unlock()
		if have {
			return f.dpopKey(), nil // a stored token's key: keep binding to it
		}
		if !offered || d == nil || d.AS == nil {
			return nil, nil
		}
		var algs []string
		if v, ok := d.AS.Raw["dpop_signing_alg_values_supported"]; ok {
			_ = json.Unmarshal(v, &algs)
		}
		if !slices.Contains(algs, "ES256") {
			return nil, nil
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.dpop == nil {
		k, err := NewDPoPKey()
		if err != nil {
			return nil, err
		}
		f.dpop = k
	}
	return f.dpop, nil
}

// dpopKey is the flow's key (nil when it has none).
func (f *Flow) dpopKey() *DPoPKey {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.dpop
}

// restoreDPoP takes the key a stored record's token is bound to.
func (f *Flow) restoreDPoP(rec *Record) {
	if len(rec.DPoPKey) == 0 {
		return
	}
	k, err := ParseDPoPKey(rec.DPoPKey)
	if err != nil {
		f.note("the stored DPoP key cannot be used: " + err.Error())
		return
	}
	f.mu.Lock()
	f.dpop = k
	f.mu.Unlock()
}

// keepDPoP records in rec the key its token is bound to (a DPoP token only).
func (f *Flow) keepDPoP(rec *Record) {
	rec.DPoPKey = nil
	if k := f.dpopKey(); k != nil && strings.EqualFold(rec.TokenType, TokenTypeDPoP) {
		rec.DPoPKey, _ = k.Marshal()
	}
}

// presentToken sets the access token on a request to the MCP server: a DPoP token with a
// fresh proof, any other as a bearer token.
func (f *Flow) presentToken(req *http.Request, tokenType, accessToken string) error {
	if strings.EqualFold(tokenType, TokenTypeDPoP) {
		k := f.dpopKey()
		if k == nil {
			return fmt.Errorf("the token is DPoP-bound but its key is gone; run mcpscope auth login")
		}
		return k.Authorize(req, accessToken)
	}
	req.Header.Set("Authorization", TokenTypeBearer+" "+accessToken)
	return nil
}

// dpopUnauthorized looks at a 401 for DPoP: it notes whether the MCP server offers the
// DPoP scheme, and reports whether the request is worth sending again because the server
// asks for a nonce (RFC 9449 §9), a new one, and a DPoP token was sent.
func (f *Flow) dpopUnauthorized(resp *http.Response) bool {
	for _, c := range ParseWWWAuthenticate(resp.Header.Values("WWW-Authenticate")) {
		if strings.EqualFold(c.Scheme, TokenTypeDPoP) {
			f.mu.Lock()
			f.dpopOffered = true
			f.mu.Unlock()
		}
	}
	k := f.dpopKey()
	if k == nil || !sentDPoP(resp) || !IsNonceChallenge(resp.StatusCode, resp.Header, nil) {
		return false
	}
	if !k.NoteNonce(resp.Request.URL.String(), resp.Header) {
		return false
	}
	f.note("the MCP server asks for a DPoP nonce (use_dpop_nonce): the request is sent again with a proof carrying it")
	return true
}

// Answered implements transport.AuthAnswer: a new DPoP nonce on an answer to a request that
// carried a DPoP token is kept for the next proof (RFC 9449 §9), which saves the 401 that
// would ask for it.
func (f *Flow) Answered(resp *http.Response) {
	if k := f.dpopKey(); k != nil && sentDPoP(resp) {
		k.NoteNonce(resp.Request.URL.String(), resp.Header)
	}
}

// sentDPoP reports whether resp answers a request that carried a DPoP token.
func sentDPoP(resp *http.Response) bool {
	return resp.Request != nil && strings.HasPrefix(resp.Request.Header.Get("Authorization"), TokenTypeDPoP+" ")
}

// dpopProof puts a proof for a token request on req (nothing without a key).
func dpopProof(k *DPoPKey, req *http.Request) error {
	if k == nil {
		return nil
	}
	proof, err := k.Proof(http.MethodPost, req.URL.String(), ProofOptions{})
	if err != nil {
		return err
	}
	req.Header.Set(HeaderDPoP, proof)
	return nil
}

// dpopTokenRetry reports whether a token endpoint answer is a DPoP nonce challenge worth
// one more attempt, keeping the nonce; it notes the check on the reply.
func dpopTokenRetry(k *DPoPKey, endpoint string, reply *transport.AuthReply) bool {
	if k == nil {
		return false
	}
	k.NoteNonce(endpoint, reply.Header)
	if !IsNonceChallenge(reply.Status, reply.Header, reply.Body) {
		return false
	}
	reply.Check("use_dpop_nonce: the token request is sent again with the server's DPoP nonce (RFC 9449 §8)")
	return true
}

// dpopTokenCheck notes on a token reply whether the token is bound to the key.
func dpopTokenCheck(reply *transport.AuthReply, tokenType string, k *DPoPKey) {
	if strings.EqualFold(tokenType, TokenTypeDPoP) {
		reply.Check("token_type DPoP: the token is bound to the DPoP key " + k.Thumbprint())
		return
	}
	reply.Check(fmt.Sprintf("token_type %s: the token is not bound to the DPoP key; it is sent as a bearer token", tokenType))
}
