package demo

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// maxTokenBody bounds a token request's form.
const maxTokenBody = 64 << 10

// grant is what an access or refresh token stands for. Tokens are opaque
// random strings; the server keeps only their hashes, with the grant.
type grant struct {
	hash     secretHash
	clientID string
	resource string
	scopes   []string
	expires  time.Time
	family   string // the code the first tokens of this line were issued for
}

// tokenError is an OAuth error of the token endpoint (RFC 6749 §5.2).
type tokenError struct {
	status            int
	code, description string
}

func (e *tokenError) Error() string { return e.code + ": " + e.description }

func invalidGrant(format string, args ...any) *tokenError {
	return &tokenError{http.StatusBadRequest, "invalid_grant", fmt.Sprintf(format, args...)}
}

// serveToken is the token endpoint: the authorization_code grant with PKCE
// and the refresh_token grant (with rotation).
func (as *authServer) serveToken(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, maxTokenBody)
	resp, err := as.token(r)
	if err != nil {
		var te *tokenError
		if !errors.As(err, &te) {
			te = &tokenError{http.StatusBadRequest, "invalid_request", err.Error()}
		}
		as.log.printf("auth: token request refused: %s", te)
		oauthError(w, te.status, te.code, te.description)
		return
	}
	writeJSON(w, http.StatusOK, resp)
}

func (as *authServer) token(r *http.Request) (map[string]any, error) {
	if err := r.ParseForm(); err != nil {
		return nil, fmt.Errorf("the body is not a form: %v", err)
	}
	form := r.PostForm
	for k, v := range form {
		if len(v) > 1 {
			return nil, fmt.Errorf("the parameter %q is given more than once", k)
		}
	}
	c, err := as.authenticate(r.Context(), r, form)
	if err != nil {
		return nil, err
	}
	switch gt := form.Get("grant_type"); gt {
	case "authorization_code":
		return as.redeemCode(c, form)
	case "refresh_token":
		return as.redeemRefresh(c, form)
	default:
		return nil, &tokenError{http.StatusBadRequest, "unsupported_grant_type", "grant_type must be authorization_code or refresh_token, not " + quoteOrMissing(gt)}
	}
}

// authenticate identifies the client of a token request: client_secret_basic
// (the Authorization header), client_secret_post (client_id and
// client_secret in the form) or none (client_id alone, for a public client).
func (as *authServer) authenticate(ctx context.Context, r *http.Request, form url.Values) (*authClient, error) {
	id, secret, basic := r.BasicAuth()
	if basic {
		var err1, err2 error
		id, err1 = url.QueryUnescape(id) // RFC 6749 §2.3.1
		secret, err2 = url.QueryUnescape(secret)
		if err1 != nil || err2 != nil {
			return nil, &tokenError{http.StatusUnauthorized, "invalid_client", "the Basic credentials are not form-encoded"}
		}
		if fid := form.Get("client_id"); fid != "" && fid != id {
			return nil, &tokenError{http.StatusBadRequest, "invalid_request", "client_id in the form is not the one in the Authorization header"}
		}
		if form.Has("client_secret") {
			return nil, &tokenError{http.StatusBadRequest, "invalid_request", "the client authenticated twice (header and form)"}
		}
	} else {
		id, secret = form.Get("client_id"), form.Get("client_secret")
	}
	c, err := as.lookupClient(ctx, id)
	if err != nil {
		return nil, &tokenError{http.StatusUnauthorized, "invalid_client", err.Error()}
	}
	if c.public() {
		if secret != "" {
			return nil, &tokenError{http.StatusUnauthorized, "invalid_client", "the client is public (token_endpoint_auth_method none) and has no secret"}
		}
		return c, nil
	}
	if secret == "" {
		return nil, &tokenError{http.StatusUnauthorized, "invalid_client", "client authentication (" + c.authMethod + ") is missing"}
	}
	if !hashSecret(secret).equal(c.secret) {
		return nil, &tokenError{http.StatusUnauthorized, "invalid_client", "wrong client secret"}
	}
	return c, nil
}

// redeemCode is the authorization_code grant. A code is redeemed once: a
// second redemption fails and revokes every token issued from the code.
func (as *authServer) redeemCode(c *authClient, form url.Values) (map[string]any, error) {
	code := form.Get("code")
	if code == "" {
		return nil, &tokenError{http.StatusBadRequest, "invalid_request", "code is missing"}
	}
	h := hashSecret(code)
	now := time.Now()
	as.mu.Lock()
	ac, ok := as.codes.get(h.key(), now)
	if ok && !ac.hash.equal(h) {
		ok = false
	}
	if !ok {
		as.mu.Unlock()
		return nil, invalidGrant("unknown or expired code (codes last %s)", as.opts.CodeTTL)
	}
	if ac.used {
		n := as.revokeFamilyLocked(ac.hash.key())
		as.mu.Unlock()
		return nil, invalidGrant("the code was already used; the %d tokens issued for it are revoked", n)
	}
	ac.used = true
	as.mu.Unlock()

	if ac.clientID != c.id {
		return nil, invalidGrant("the code was issued to another client")
	}
	if ru := form.Get("redirect_uri"); (ac.redirectGiven || ru != "") && ru != ac.redirectURI {
		return nil, invalidGrant("redirect_uri %s is not the one of the authorization request", quoteOrMissing(ru))
	}
	verifier := form.Get("code_verifier")
	if len(verifier) < 43 || len(verifier) > 128 || strings.Trim(verifier, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~") != "" {
		return nil, invalidGrant("code_verifier must be 43 to 128 unreserved characters (RFC 7636 §4.1)")
	}
	sum := sha256.Sum256([]byte(verifier))
	if subtle.ConstantTimeCompare([]byte(base64.RawURLEncoding.EncodeToString(sum[:])), []byte(ac.challenge)) != 1 {
		return nil, invalidGrant("PKCE verification failed: the code_verifier does not match the code_challenge")
	}
	if res := form.Get("resource"); res != "" {
		if got, ok := as.matchResource(res); !ok || got != ac.resource {
			return nil, &tokenError{http.StatusBadRequest, "invalid_target", "resource " + quoteOrMissing(res) + " is not the one authorized (" + ac.resource + ")"}
		}
	}
	return as.issue(c, ac.resource, ac.scopes, ac.hash.key(), "code"), nil
}

// redeemRefresh is the refresh_token grant. The refresh token is rotated:
// the one presented stops working and a new one comes with the new access
// token. A narrower scope may be asked for; a wider one may not.
func (as *authServer) redeemRefresh(c *authClient, form url.Values) (map[string]any, error) {
	rt := form.Get("refresh_token")
	if rt == "" {
		return nil, &tokenError{http.StatusBadRequest, "invalid_request", "refresh_token is missing"}
	}
	h := hashSecret(rt)
	now := time.Now()
	as.mu.Lock()
	g, ok := as.refresh.get(h.key(), now)
	if ok && !g.hash.equal(h) {
		ok = false
	}
	if !ok {
		as.mu.Unlock()
		return nil, invalidGrant("unknown, used or expired refresh token")
	}
	if g.clientID != c.id {
		as.mu.Unlock()
		return nil, invalidGrant("the refresh token was issued to another client")
	}
	scopes := g.scopes
	if s := form.Get("scope"); s != "" {
		scopes = strings.Fields(s)
		for _, sc := range scopes {
			if !slices.Contains(g.scopes, sc) {
				as.mu.Unlock()
				return nil, &tokenError{http.StatusBadRequest, "invalid_scope", "scope " + quoteOrMissing(sc) + " was not granted (granted: " + strings.Join(g.scopes, " ") + ")"}
			}
		}
	}
	if res := form.Get("resource"); res != "" {
		if got, ok := as.matchResource(res); !ok || got != g.resource {
			as.mu.Unlock()
			return nil, &tokenError{http.StatusBadRequest, "invalid_target", "resource " + quoteOrMissing(res) + " is not the one authorized (" + g.resource + ")"}
		}
	}
	as.refresh.del(h.key())
	as.mu.Unlock()
	return as.issue(c, g.resource, scopes, g.family, "refresh"), nil
}

// issue makes an access token, and a refresh token when the client listed
// the refresh_token grant type, and answers with them.
func (as *authServer) issue(c *authClient, resource string, scopes []string, family, how string) map[string]any {
	now := time.Now()
	access := newSecret()
	ag := &grant{hash: hashSecret(access), clientID: c.id, resource: resource, scopes: scopes, expires: now.Add(as.opts.TokenTTL), family: family}
	resp := map[string]any{
		"access_token": access,
		"token_type":   "Bearer",
		"expires_in":   int64(math.Ceil(as.opts.TokenTTL.Seconds())),
		"scope":        strings.Join(scopes, " "),
	}
	var rg *grant
	if c.refreshAllowed() {
		refresh := newSecret()
		rg = &grant{hash: hashSecret(refresh), clientID: c.id, resource: resource, scopes: scopes, expires: now.Add(as.opts.RefreshTTL), family: family}
		resp["refresh_token"] = refresh
	}
	as.mu.Lock()
	evicted := as.tokens.put(ag.hash.key(), ag, ag.expires, now)
	if rg != nil {
		evicted += as.refresh.put(rg.hash.key(), rg, rg.expires, now)
	}
	as.mu.Unlock()
	if evicted > 0 {
		as.log.printf("auth: token store full: forgot %d of the oldest tokens", evicted)
	}
	note := "with a refresh token"
	if rg == nil {
		note = "no refresh token (the client's grant_types lack refresh_token)"
	}
	as.log.printf("auth: issued a token (%s) to %s for %s, scopes %s, expires in %s; %s",
		how, c.id, resource, strings.Join(scopes, " "), as.opts.TokenTTL, note)
	return resp
}

// revokeFamilyLocked deletes every token issued from one code and reports
// how many there were. The caller holds as.mu.
func (as *authServer) revokeFamilyLocked(family string) int {
	n := 0
	for _, m := range []*bounded[*grant]{as.tokens, as.refresh} {
		for k, s := range m.m {
			if s.v.family == family {
				delete(m.m, k)
				n++
			}
		}
	}
	as.log.printf("auth: a code was redeemed twice: revoked the %d tokens issued for it", n)
	return n
}

// verify checks an access token for a resource: issued here, not expired,
// for this resource. The error says which check failed.
func (as *authServer) verify(token, resource string) (*grant, error) {
	h := hashSecret(token)
	as.mu.Lock()
	g, ok := as.tokens.get(h.key(), time.Now())
	as.mu.Unlock()
	if !ok || !g.hash.equal(h) {
		return nil, errors.New("the access token is unknown or expired")
	}
	if g.resource != resource {
		return nil, fmt.Errorf("the access token was issued for %s, not %s", g.resource, resource)
	}
	return g, nil
}
