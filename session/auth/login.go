package auth

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
)

// SelectScopes chooses the scopes of an authorization as the spec orders it: the
// challenge's scope, else the protected resource's scopes_supported, else none (the scope
// parameter is omitted); offline_access is added when the authorization server lists it.
func SelectScopes(ch Challenge, prm *ResourceMetadata, as *ServerMetadata) []string {
	var out []string
	switch {
	case len(ch.Scopes()) > 0:
		out = ch.Scopes()
	case prm != nil && len(prm.ScopesSupported) > 0:
		out = slices.Clone(prm.ScopesSupported)
	}
	if as != nil && slices.Contains(as.ScopesSupported, "offline_access") && !slices.Contains(out, "offline_access") {
		out = append(out, "offline_access")
	}
	return out
}

// login runs the whole flow: discovery, client identity, the authorization (or the
// extension grant), the token.
func (f *Flow) login(ctx context.Context, ch Challenge, scopes []string, challenged bool) (err error) {
	defer func() {
		if err != nil {
			f.fail(err)
		}
	}()
	d, err := f.discover(ctx, ch, challenged)
	if err != nil {
		return err
	}
	f.mu.Lock()
	f.disc = d
	f.mu.Unlock()
	f.update(func(s *Status) {
		s.Resource, s.Issuer = d.Resource, d.AS.Issuer
		if d.PRM != nil {
			s.ResourceMetadataURL = d.PRM.URL
		}
	})
	key := Key{Resource: d.Resource, Issuer: d.AS.Issuer}
	if f.opts.Grant != nil {
		tok, err := f.opts.Grant.Token(ctx, f, d)
		if err != nil {
			return err
		}
		rec := &Record{Key: key, ClientID: f.opts.ClientID, ClientSecret: f.opts.ClientSecret, ClientSource: ClientPreRegistered}
		return f.save(rec, tok, nil)
	}
	if scopes == nil {
		scopes = f.opts.Scopes
	}
	if scopes == nil {
		scopes = SelectScopes(ch, d.PRM, d.AS)
		// Authorizing again keeps what the token had (the spec's scope union).
		f.mu.Lock()
		had := f.rec
		if had == nil {
			had = f.prior
		}
		if had != nil && had.Resource == d.Resource {
			scopes = union(scopes, had.Scopes)
		}
		f.mu.Unlock()
	} else if slices.Contains(d.AS.ScopesSupported, "offline_access") && !slices.Contains(scopes, "offline_access") {
		scopes = append(slices.Clone(scopes), "offline_access")
	}
	f.update(func(s *Status) { s.ScopesRequested = slices.Clone(scopes) })

	cb, err := f.listen(ctx, f.storedRedirect(key))
	if err != nil {
		return err
	}
	defer cb.close()
	rec, err := f.client(ctx, d, key, cb.redirectURI)
	if err != nil {
		return err
	}
	f.update(func(s *Status) { s.ClientID, s.ClientSource = rec.ClientID, rec.ClientSource })
	code, err := f.authorizeCode(ctx, d, rec, cb, scopes)
	if err != nil {
		return err
	}
	tok, err := f.exchangeCode(ctx, d, rec, code, cb.redirectURI, scopes)
	if err != nil {
		return err
	}
	return f.save(rec, tok, scopes)
}

// save keeps the token with the client record, in memory and in the store.
func (f *Flow) save(rec *Record, tok *Token, asked []string) error {
	rec.AccessToken, rec.TokenType, rec.RefreshToken, rec.Expiry = tok.AccessToken, tok.TokenType, tok.RefreshToken, tok.Expiry
	f.keepDPoP(rec)
	rec.Scopes = tok.Scopes
	if rec.Scopes == nil {
		rec.Scopes = asked // RFC 6749 §5.1: no scope member means the scopes requested
	}
	rec.Saved = f.opts.Now()
	f.mu.Lock()
	f.rec, f.asked = rec, asked
	f.mu.Unlock()
	f.setAuthorized(rec, asked)
	if err := f.store.Put(rec); err != nil {
		f.note("the token could not be stored: " + err.Error())
	}
	return nil
}

// storedRedirect is the redirect URI a stored dynamically registered client of key was
// registered with, so the listener can take the same port.
func (f *Flow) storedRedirect(key Key) string {
	if f.opts.ClientID != "" {
		return ""
	}
	if rec, ok, err := f.store.Get(key); err == nil && ok && rec.ClientSource == ClientDynamic {
		return rec.RedirectURI
	}
	return ""
}

// client chooses the client identity in the spec's order: pre-registered, a client ID
// metadata document the server supports, a client registered before with this issuer,
// dynamic registration.
func (f *Flow) client(ctx context.Context, d *Discovery, key Key, redirectURI string) (*Record, error) {
	switch {
	case f.opts.ClientID != "":
		f.note("client: pre-registered client_id " + f.opts.ClientID)
		return &Record{Key: key, ClientID: f.opts.ClientID, ClientSecret: f.opts.ClientSecret, ClientSource: ClientPreRegistered,
			TokenEndpointAuthMethod: chooseAuthMethod(d.AS, f.opts.ClientSecret != "", "")}, nil
	case f.opts.ClientMetadataURL != "" && d.AS.ClientIDMetadataDocumentSupported:
		f.note("client: the authorization server supports client ID metadata documents; client_id " + f.opts.ClientMetadataURL)
		return &Record{Key: key, ClientID: f.opts.ClientMetadataURL, ClientSource: ClientMetadataDoc, TokenEndpointAuthMethod: "none"}, nil
	}
	if rec, ok, err := f.store.Get(key); err == nil && ok && rec.ClientID != "" && rec.ClientSource == ClientDynamic && !f.registerAgain() &&
		!rec.ClientRefused && rec.RedirectURI == redirectURI && (rec.ClientSecretExpiresAt.IsZero() || f.opts.Now().Before(rec.ClientSecretExpiresAt)) &&
		f.clientKnown(ctx, rec) {
		f.note("client: registered before with " + key.Issuer + ": client_id " + rec.ClientID)
		c := *rec
		return &c, nil
	}
	if d.AS.RegistrationEndpoint == "" {
		what := "the authorization server offers no dynamic client registration"
		if f.opts.ClientMetadataURL == "" && d.AS.ClientIDMetadataDocumentSupported {
			what += " (it supports client ID metadata documents: pass --client-metadata-url)"
		}
		return nil, fmt.Errorf("%s; pass --client-id (and --client-secret) of a client registered with %s", what, d.AS.Issuer)
	}
	rec, err := f.register(ctx, d, key, redirectURI)
	if err != nil {
		return nil, err
	}
	f.mu.Lock()
	f.fresh = false // this registration is the one to reuse
	f.mu.Unlock()
	// Kept at once, so a login the user stops, or one that fails later, does not register
	// another client next time.
	keep := *rec
	keep.Saved = f.opts.Now()
	if err := f.store.Put(&keep); err != nil {
		f.note("the registered client could not be stored: " + err.Error())
	}
	return rec, nil
}

// register performs dynamic client registration (RFC 7591).
func (f *Flow) register(ctx context.Context, d *Discovery, key Key, redirectURI string) (*Record, error) {
	f.setStep(StepRegistration)
	method := chooseAuthMethod(d.AS, false, "")
	body, _ := json.Marshal(map[string]any{
		"client_name":                f.opts.ClientName,
		"redirect_uris":              []string{redirectURI},
		"grant_types":                []string{"authorization_code", "refresh_token"},
		"response_types":             []string{"code"},
		"token_endpoint_auth_method": method,
		"application_type":           "native",
	})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.AS.RegistrationEndpoint, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	reply, err := f.exchange(ctx, StepRegistration, req)
	if err != nil {
		return nil, err
	}
	defer reply.Report()
	var got struct {
		ClientID                string `json:"client_id"`
		ClientSecret            string `json:"client_secret"`
		ClientSecretExpiresAt   int64  `json:"client_secret_expires_at"`
		TokenEndpointAuthMethod string `json:"token_endpoint_auth_method"`
		RegistrationClientURI   string `json:"registration_client_uri"`
		RegistrationAccessToken string `json:"registration_access_token"`
		Error                   string `json:"error"`
		ErrorDescription        string `json:"error_description"`
	}
	_ = json.Unmarshal(reply.Body, &got)
	if reply.Status < 200 || reply.Status > 299 || got.ClientID == "" {
		what := fmt.Sprintf("HTTP %d", reply.Status)
		if got.Error != "" {
			what += ": " + got.Error + " " + got.ErrorDescription
		} else if got.ClientID == "" && reply.Status/100 == 2 {
			what += ": no client_id in the answer"
		}
		reply.Problem(protocol.FindAuthRegistration, what)
		return nil, fmt.Errorf("%s: dynamic client registration at %s failed: %s", protocol.FindAuthRegistration, d.AS.RegistrationEndpoint, strings.TrimSpace(what))
	}
	reply.Check("registered client_id " + got.ClientID)
	rec := &Record{Key: key, ClientID: got.ClientID, ClientSecret: got.ClientSecret, ClientSource: ClientDynamic, RedirectURI: redirectURI,
		TokenEndpointAuthMethod: chooseAuthMethod(d.AS, got.ClientSecret != "", got.TokenEndpointAuthMethod)}
	if got.RegistrationClientURI != "" && got.RegistrationAccessToken != "" {
		rec.RegistrationClientURI, rec.RegistrationAccessToken = got.RegistrationClientURI, got.RegistrationAccessToken
	}
	if got.ClientSecretExpiresAt > 0 {
		rec.ClientSecretExpiresAt = time.Unix(got.ClientSecretExpiresAt, 0)
	}
	return rec, nil
}

// chooseAuthMethod is the token endpoint authentication of a client: the one it was
// registered with, else what the server supports (client_secret_basic by default, RFC
// 8414 §2) for a client with a secret, none for one without.
func chooseAuthMethod(as *ServerMetadata, hasSecret bool, registered string) string {
	if registered != "" {
		return registered
	}
	supported := as.TokenEndpointAuthMethodsSupported
	if !hasSecret {
		if len(supported) == 0 || slices.Contains(supported, "none") {
			return "none"
		}
		for _, m := range supported {
			if m == "client_secret_basic" || m == "client_secret_post" {
				return m // asked for at registration: the server then issues a secret
			}
		}
		return "none"
	}
	if len(supported) == 0 || slices.Contains(supported, "client_secret_basic") {
		return "client_secret_basic"
	}
	if slices.Contains(supported, "client_secret_post") {
		return "client_secret_post"
	}
	return "client_secret_basic"
}
