package demo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Client sources, as the approve page and the log name them.
const (
	sourceDynamic  = "dynamic registration"
	sourceMetadata = "client ID metadata document"
	sourcePre      = "pre-registered"
)

// PreRegisteredClient is the client_id of the public client every demo
// authorization server knows from the start, for trying a client's
// pre-registered mode: its redirect URI is http://127.0.0.1/callback (or
// localhost, or [::1]) on any port, and it may use refresh tokens.
const PreRegisteredClient = "mcpscope-demo-client"

// preRegistered is the client PreRegisteredClient names.
var preRegistered = &authClient{
	id:           PreRegisteredClient,
	name:         "pre-registered demo client",
	source:       sourcePre,
	authMethod:   "none",
	redirectURIs: []string{"http://127.0.0.1/callback", "http://localhost/callback", "http://[::1]/callback"},
	grantTypes:   []string{"authorization_code", "refresh_token"},
}

// Limits on what a client may register or publish.
const (
	maxRegistrationBody = 64 << 10
	maxRedirectURIs     = 10
	maxURILength        = 2048
	maxClientName       = 200
	defaultMetadocTTL   = 5 * time.Minute
	maxMetadocTTL       = time.Hour
)

// authClient is a client the authorization server knows, registered
// dynamically or described by a Client ID Metadata Document.
type authClient struct {
	id, name     string
	source       string
	authMethod   string     // none, client_secret_basic or client_secret_post
	secret       secretHash // set unless authMethod is none
	regToken     secretHash // the registration access token (RFC 7592), dynamic clients only
	redirectURIs []string
	grantTypes   []string
}

// public reports whether the client has no secret.
func (c *authClient) public() bool { return c.authMethod == "none" }

// refreshAllowed reports whether the client may use refresh tokens: it
// listed the refresh_token grant type.
func (c *authClient) refreshAllowed() bool { return slices.Contains(c.grantTypes, "refresh_token") }

// clientMetadata is the client metadata of a registration request (RFC 7591
// §2) or a Client ID Metadata Document: the members the demo uses.
type clientMetadata struct {
	ClientID                string   `json:"client_id,omitempty"`
	RedirectURIs            []string `json:"redirect_uris"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method,omitempty"`
	GrantTypes              []string `json:"grant_types,omitempty"`
	ResponseTypes           []string `json:"response_types,omitempty"`
	ClientName              string   `json:"client_name,omitempty"`
	ApplicationType         string   `json:"application_type,omitempty"`
	Scope                   string   `json:"scope,omitempty"`
}

// registrationError is an error of client registration (RFC 7591 §3.2.2).
type registrationError struct{ code, description string }

func (e *registrationError) Error() string { return e.code + ": " + e.description }

func badMetadata(format string, args ...any) error {
	return &registrationError{"invalid_client_metadata", fmt.Sprintf(format, args...)}
}

// check validates metadata and fills in the defaults of RFC 7591 §2.
func (m *clientMetadata) check() error {
	if len(m.RedirectURIs) == 0 {
		return &registrationError{"invalid_redirect_uri", "redirect_uris is required"}
	}
	if len(m.RedirectURIs) > maxRedirectURIs {
		return &registrationError{"invalid_redirect_uri", fmt.Sprintf("at most %d redirect_uris", maxRedirectURIs)}
	}
	for _, u := range m.RedirectURIs {
		if err := checkRedirectURI(u); err != nil {
			return &registrationError{"invalid_redirect_uri", err.Error()}
		}
	}
	if len(m.GrantTypes) == 0 {
		m.GrantTypes = []string{"authorization_code"}
	}
	for _, g := range m.GrantTypes {
		if g != "authorization_code" && g != "refresh_token" {
			return badMetadata("grant type %q is not supported (authorization_code, refresh_token)", g)
		}
	}
	if len(m.ResponseTypes) == 0 {
		m.ResponseTypes = []string{"code"}
	}
	if len(m.ResponseTypes) != 1 || m.ResponseTypes[0] != "code" {
		return badMetadata("response_types must be [\"code\"]")
	}
	if len(m.ClientName) > maxClientName {
		return badMetadata("client_name is longer than %d bytes", maxClientName)
	}
	switch m.ApplicationType {
	case "", "native", "web":
	default:
		return badMetadata("application_type %q is neither native nor web", m.ApplicationType)
	}
	return nil
}

// checkRedirectURI accepts an absolute URI without a fragment that is https,
// http on a loopback host (RFC 8252 §7.3), or a private-use scheme with a
// dot in it (RFC 8252 §7.1, such as com.example.app:/callback).
func checkRedirectURI(raw string) error {
	if len(raw) > maxURILength {
		return fmt.Errorf("redirect URI longer than %d bytes", maxURILength)
	}
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() {
		return fmt.Errorf("redirect URI %q is not an absolute URI", raw)
	}
	if u.Fragment != "" || strings.Contains(raw, "#") {
		return fmt.Errorf("redirect URI %q has a fragment", raw)
	}
	switch {
	case u.Scheme == "https" && u.Host != "":
	case u.Scheme == "http" && isLoopbackHost(u.Hostname()):
	case u.Scheme == "http":
		return fmt.Errorf("redirect URI %q: http is allowed for loopback hosts only", raw)
	case strings.Contains(u.Scheme, "."):
	default:
		return fmt.Errorf("redirect URI %q: scheme %q is neither https, loopback http nor a private-use scheme", raw, u.Scheme)
	}
	return nil
}

// isLoopbackHost reports whether host is localhost or a loopback IP literal.
func isLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// redirectAllowed reports whether given is one of the registered redirect
// URIs: the same string, except that for loopback http URIs the port may
// differ (RFC 8252 §7.3), since a native client listens on any free port.
func redirectAllowed(registered []string, given string) bool {
	g, err := url.Parse(given)
	if err != nil {
		return false
	}
	for _, r := range registered {
		if r == given {
			return true
		}
		u, err := url.Parse(r)
		if err != nil || u.Scheme != "http" || g.Scheme != "http" || !isLoopbackHost(u.Hostname()) {
			continue
		}
		if u.Hostname() == g.Hostname() && u.User == nil && g.User == nil && u.EscapedPath() == g.EscapedPath() &&
			u.RawQuery == g.RawQuery && g.Fragment == "" {
			return true
		}
	}
	return false
}

// serveRegister is the dynamic client registration endpoint (RFC 7591).
func (as *authServer) serveRegister(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxRegistrationBody+1))
	if err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_client_metadata", "reading the request: "+err.Error())
		return
	}
	if len(body) > maxRegistrationBody {
		oauthError(w, http.StatusRequestEntityTooLarge, "invalid_client_metadata", fmt.Sprintf("registration requests are limited to %d bytes", maxRegistrationBody))
		return
	}
	var m clientMetadata
	if err := json.Unmarshal(body, &m); err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_client_metadata", "the body is not client metadata JSON: "+err.Error())
		return
	}
	if m.TokenEndpointAuthMethod == "" {
		m.TokenEndpointAuthMethod = "client_secret_basic" // RFC 7591 §2
	}
	switch m.TokenEndpointAuthMethod {
	case "none", "client_secret_basic", "client_secret_post":
	default:
		oauthError(w, http.StatusBadRequest, "invalid_client_metadata", fmt.Sprintf("token_endpoint_auth_method %q is not supported (none, client_secret_basic, client_secret_post)", m.TokenEndpointAuthMethod))
		return
	}
	if err := m.check(); err != nil {
		var re *registrationError
		errors.As(err, &re)
		oauthError(w, http.StatusBadRequest, re.code, re.description)
		return
	}
	if m.ClientName == "" {
		m.ClientName = "unnamed client"
	}
	c := &authClient{
		id:           "demo-" + newSecret()[:22],
		name:         m.ClientName,
		source:       sourceDynamic,
		authMethod:   m.TokenEndpointAuthMethod,
		redirectURIs: m.RedirectURIs,
		grantTypes:   m.GrantTypes,
	}
	now := time.Now()
	resp := map[string]any{
		"client_id":                  c.id,
		"client_id_issued_at":        now.Unix(),
		"client_name":                c.name,
		"redirect_uris":              c.redirectURIs,
		"grant_types":                c.grantTypes,
		"response_types":             m.ResponseTypes,
		"token_endpoint_auth_method": c.authMethod,
	}
	if m.ApplicationType != "" {
		resp["application_type"] = m.ApplicationType
	}
	regToken := newSecret()
	c.regToken = hashSecret(regToken)
	resp["registration_client_uri"] = as.issuer + "/register/" + c.id
	resp["registration_access_token"] = regToken
	if !c.public() {
		secret := newSecret()
		c.secret = hashSecret(secret)
		resp["client_secret"] = secret
		resp["client_secret_expires_at"] = 0
	}
	as.mu.Lock()
	evicted := as.clients.put(c.id, c, time.Time{}, now)
	as.mu.Unlock()
	if evicted > 0 {
		as.log.printf("auth: client store full (%d): forgot the oldest client", maxClients)
	}
	as.log.printf("auth: registered client %s %q (%s, %s, grant types %s)", c.id, c.name, sourceDynamic, c.authMethod, strings.Join(c.grantTypes, " "))
	writeJSON(w, http.StatusCreated, resp)
}

// isMetadataURL reports whether a client_id is a Client ID Metadata Document
// URL: https with a path. The demo also takes http on a loopback host, so a
// document can be tried locally without a certificate.
func isMetadataURL(id string) bool {
	u, err := url.Parse(id)
	if err != nil || u.Host == "" || u.Path == "" || u.Path == "/" || u.Fragment != "" || u.User != nil {
		return false
	}
	return u.Scheme == "https" || (u.Scheme == "http" && isLoopbackHost(u.Hostname()))
}

// lookupClient finds a client: a registered one by id, or the one a Client
// ID Metadata Document describes, fetched (or taken from the cache).
func (as *authServer) lookupClient(ctx context.Context, id string) (*authClient, error) {
	if id == "" {
		return nil, errors.New("client_id is missing")
	}
	if id == PreRegisteredClient {
		return preRegistered, nil
	}
	now := time.Now()
	as.mu.Lock()
	c, ok := as.clients.get(id, now)
	if !ok && isMetadataURL(id) {
		c, ok = as.metadocs.get(id, now)
	}
	as.mu.Unlock()
	if ok {
		return c, nil
	}
	if !isMetadataURL(id) {
		return nil, fmt.Errorf("%w %q (register first, or use a client ID metadata document URL)", errNoClient, id)
	}
	c, ttl, err := as.fetchMetadoc(ctx, id)
	if err != nil {
		as.log.printf("auth: client ID metadata document %s refused: %v", id, err)
		return nil, fmt.Errorf("client ID metadata document %s: %w", id, err)
	}
	if ttl > 0 {
		as.mu.Lock()
		as.metadocs.put(id, c, time.Now().Add(ttl), time.Now())
		as.mu.Unlock()
	}
	as.log.printf("auth: fetched client ID metadata document %s: %q", id, c.name)
	return c, nil
}

// fetchMetadoc fetches and checks a Client ID Metadata Document. ttl is how
// long it may be cached, from its Cache-Control header.
func (as *authServer) fetchMetadoc(ctx context.Context, id string) (*authClient, time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, id, nil)
	if err != nil {
		return nil, 0, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := as.fetcher.Do(req)
	if err != nil {
		return nil, 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, 0, fmt.Errorf("GET answered %s", resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxRegistrationBody+1))
	if err != nil {
		return nil, 0, err
	}
	if len(body) > maxRegistrationBody {
		return nil, 0, fmt.Errorf("the document is larger than %d bytes", maxRegistrationBody)
	}
	var m clientMetadata
	if err := json.Unmarshal(body, &m); err != nil {
		return nil, 0, fmt.Errorf("not a JSON client metadata document: %w", err)
	}
	if m.ClientID != id {
		return nil, 0, fmt.Errorf("its client_id %q is not the document's URL", m.ClientID)
	}
	if m.ClientName == "" {
		return nil, 0, errors.New("client_name is missing")
	}
	switch m.TokenEndpointAuthMethod {
	case "", "none":
	default:
		return nil, 0, fmt.Errorf("token_endpoint_auth_method %q is not supported here (none)", m.TokenEndpointAuthMethod)
	}
	if err := m.check(); err != nil {
		return nil, 0, err
	}
	return &authClient{
		id:           id,
		name:         m.ClientName,
		source:       sourceMetadata,
		authMethod:   "none",
		redirectURIs: m.RedirectURIs,
		grantTypes:   m.GrantTypes,
	}, cacheTTL(resp.Header.Get("Cache-Control")), nil
}

// cacheTTL reads how long a response may be cached from Cache-Control:
// max-age (at most an hour), none for no-store or no-cache, else 5 minutes.
func cacheTTL(cc string) time.Duration {
	ttl := defaultMetadocTTL
	for _, d := range strings.Split(cc, ",") {
		d = strings.ToLower(strings.TrimSpace(d))
		switch {
		case d == "no-store" || d == "no-cache":
			return 0
		case strings.HasPrefix(d, "max-age="):
			if n, err := strconv.Atoi(strings.TrimPrefix(d, "max-age=")); err == nil && n >= 0 {
				ttl = min(time.Duration(n)*time.Second, maxMetadocTTL)
			}
		}
	}
	return ttl
}
