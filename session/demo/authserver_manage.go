package demo

import (
	"errors"
	"net/http"
	"strings"
	"time"
)

// serveClientRead is the client configuration endpoint's read (RFC 7592 §2.1): GET
// BaseURL/register/{id} with the registration access token the registration returned
// answers the client's registration; a client the server does not know (a restart forgets
// them all) answers 401, as the RFC asks, so a client learns it must register again.
func (as *authServer) serveClientRead(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	as.mu.Lock()
	c, known := as.clients.get(id, time.Now())
	as.mu.Unlock()
	if !ok || !known || !hashSecret(tok).equal(c.regToken) {
		as.log.printf("auth: registration read for %s refused: the client is unknown or the registration access token wrong", id)
		w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token"`)
		writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "invalid_token", "error_description": "no such client, or not its registration access token"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"client_id":                  c.id,
		"client_name":                c.name,
		"redirect_uris":              c.redirectURIs,
		"grant_types":                c.grantTypes,
		"token_endpoint_auth_method": c.authMethod,
		"registration_client_uri":    as.issuer + "/register/" + c.id,
	})
}

// serveRevoke is the revocation endpoint (RFC 7009). The client authenticates as at the
// token endpoint; a refresh token revokes every token of its grant, an access token
// itself. The answer is 200 whether the token was known or not (§2.2): a client learns
// nothing of other clients' tokens.
func (as *authServer) serveRevoke(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, maxTokenBody)
	if err := r.ParseForm(); err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_request", "the body is not a form: "+err.Error())
		return
	}
	form := r.PostForm
	c, err := as.authenticate(r.Context(), r, form)
	if err != nil {
		var te *tokenError
		if !errors.As(err, &te) {
			te = &tokenError{http.StatusBadRequest, "invalid_request", err.Error()}
		}
		as.log.printf("auth: revocation refused: %s", te)
		oauthError(w, te.status, te.code, te.description)
		return
	}
	tok := form.Get("token")
	if tok == "" {
		oauthError(w, http.StatusBadRequest, "invalid_request", "token is missing")
		return
	}
	h := hashSecret(tok)
	now := time.Now()
	as.mu.Lock()
	n := 0
	if g, ok := as.refresh.get(h.key(), now); ok && g.hash.equal(h) && g.clientID == c.id {
		for _, m := range []*bounded[*grant]{as.tokens, as.refresh} {
			for k, s := range m.m {
				if s.v.family == g.family {
					delete(m.m, k)
					n++
				}
			}
		}
	} else if g, ok := as.tokens.get(h.key(), now); ok && g.hash.equal(h) && g.clientID == c.id {
		as.tokens.del(h.key())
		n = 1
	}
	as.mu.Unlock()
	as.log.printf("auth: revocation by %s (token_type_hint %s): %d tokens revoked", c.id, quoteOrMissing(form.Get("token_type_hint")), n)
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
}
