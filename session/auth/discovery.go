package auth

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session/transport"
)

// ResourceMetadata is OAuth 2.0 Protected Resource Metadata (RFC 9728 §2).
type ResourceMetadata struct {
	Resource             string   `json:"resource"`
	AuthorizationServers []string `json:"authorization_servers"`
	ScopesSupported      []string `json:"scopes_supported"`
	// URL is where the document was read ("" when the server has none: 2025-03-26).
	URL string `json:"-"`
}

// ServerMetadata is OAuth 2.0 Authorization Server Metadata (RFC 8414 §2), or the OpenID
// provider configuration, with the members MCP uses. Raw keeps every member, for the
// extensions.
type ServerMetadata struct {
	Issuer                                     string   `json:"issuer"`
	AuthorizationEndpoint                      string   `json:"authorization_endpoint"`
	TokenEndpoint                              string   `json:"token_endpoint"`
	RegistrationEndpoint                       string   `json:"registration_endpoint"`
	RevocationEndpoint                         string   `json:"revocation_endpoint,omitempty"` // RFC 7009
	ScopesSupported                            []string `json:"scopes_supported"`
	ResponseTypesSupported                     []string `json:"response_types_supported"`
	ResponseModesSupported                     []string `json:"response_modes_supported,omitempty"`
	GrantTypesSupported                        []string `json:"grant_types_supported"`
	CodeChallengeMethodsSupported              []string `json:"code_challenge_methods_supported"`
	TokenEndpointAuthMethodsSupported          []string `json:"token_endpoint_auth_methods_supported"`
	ClientIDMetadataDocumentSupported          bool     `json:"client_id_metadata_document_supported"`
	AuthorizationResponseIssParameterSupported bool     `json:"authorization_response_iss_parameter_supported"`

	Raw map[string]json.RawMessage `json:"-"`
	// URL is where the document was read; "" for the 2025-03-26 default endpoints.
	URL string `json:"-"`
	// Defaults: no metadata was found and the 2025-03-26 default endpoints (/authorize,
	// /token, /register at the server's origin) are used.
	Defaults bool `json:"-"`
}

// Discovery is what the discovery steps found: the resource, its authorization server and
// that server's metadata.
type Discovery struct {
	ServerURL string
	PRM       *ResourceMetadata // nil when the server publishes none (2025-03-26)
	// Resource is the resource indicator sent (RFC 8707): PRM's resource exactly as
	// published, else the server URL.
	Resource string
	Issuer   string // the authorization server chosen (its issuer identifier)
	AS       *ServerMetadata
}

// ProtectedResourceURLs are the locations of the protected resource metadata in the order
// the spec tries them: the WWW-Authenticate resource_metadata URL when given, else the
// well-known URI with the server URL's path inserted, then at the root.
func ProtectedResourceURLs(serverURL, fromHeader string) []string {
	if fromHeader != "" {
		return []string{fromHeader}
	}
	u, err := url.Parse(serverURL)
	if err != nil {
		return nil
	}
	origin := u.Scheme + "://" + u.Host
	var out []string
	if p := strings.TrimSuffix(u.EscapedPath(), "/"); p != "" {
		out = append(out, origin+"/.well-known/oauth-protected-resource"+p)
	}
	return append(out, origin+"/.well-known/oauth-protected-resource")
}

// ServerMetadataURLs are the locations of an authorization server's metadata in the order
// the spec tries them: for an issuer with a path, OAuth with the path inserted, OpenID
// with the path inserted, OpenID with the path appended; without one, OAuth then OpenID.
func ServerMetadataURLs(issuer string) []string {
	u, err := url.Parse(issuer)
	if err != nil || u.Host == "" {
		return nil
	}
	origin := u.Scheme + "://" + u.Host
	p := strings.TrimSuffix(u.EscapedPath(), "/")
	if p == "" {
		return []string{origin + "/.well-known/oauth-authorization-server", origin + "/.well-known/openid-configuration"}
	}
	return []string{
		origin + "/.well-known/oauth-authorization-server" + p,
		origin + "/.well-known/openid-configuration" + p,
		origin + p + "/.well-known/openid-configuration",
	}
}

// ResourceMatches reports whether the resource a server's metadata names covers the server
// URL: the same origin (scheme and host compared without case, default ports made
// explicit), and a path that is the server's path or a parent of it.
func ResourceMatches(resource, serverURL string) bool {
	r, err1 := url.Parse(resource)
	s, err2 := url.Parse(serverURL)
	if err1 != nil || err2 != nil || r.Fragment != "" {
		return false
	}
	if !strings.EqualFold(r.Scheme, s.Scheme) || !strings.EqualFold(hostPort(r), hostPort(s)) {
		return false
	}
	rp, sp := strings.TrimSuffix(r.Path, "/"), strings.TrimSuffix(s.Path, "/")
	return rp == sp || rp == "" || strings.HasPrefix(sp, rp+"/")
}

func hostPort(u *url.URL) string {
	if u.Port() != "" {
		return u.Host
	}
	if strings.EqualFold(u.Scheme, "https") {
		return u.Hostname() + ":443"
	}
	return u.Hostname() + ":80"
}

// getJSON GETs a metadata document; found is false on a 4xx/5xx answer or one that is not
// a JSON object (the caller tries the next location).
func (f *Flow) getJSON(ctx context.Context, step Step, u string, into any) (reply *transport.AuthReply, found bool, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, false, err
	}
	req.Header.Set("Accept", "application/json")
	reply, err = f.exchange(ctx, step, req)
	if err != nil {
		return nil, false, err
	}
	if reply.Status < 200 || reply.Status > 299 {
		reply.Check(fmt.Sprintf("HTTP %d: not here", reply.Status))
		return reply, false, nil
	}
	if err := json.Unmarshal(reply.Body, into); err != nil {
		reply.Problem(protocol.FindAuthMetadata, "the document is not a JSON object: "+err.Error())
		return reply, false, nil
	}
	return reply, true, nil
}

// discoverResource reads the protected resource metadata from the header's URL or the
// well-known locations, and checks its resource. It returns nil (and no error) when the
// server publishes none.
func (f *Flow) discoverResource(ctx context.Context, fromHeader string) (*ResourceMetadata, error) {
	urls := ProtectedResourceURLs(f.opts.ServerURL, fromHeader)
	for _, u := range urls {
		var prm ResourceMetadata
		reply, found, err := f.getJSON(ctx, StepResourceMetadata, u, &prm)
		if err != nil {
			return nil, err
		}
		if !found {
			reply.Report()
			continue
		}
		prm.URL = u
		switch {
		case prm.Resource == "":
			reply.Problem(protocol.FindAuthMetadata, "no resource member")
			reply.Report()
			return nil, fmt.Errorf("protected resource metadata at %s has no resource", u)
		case !ResourceMatches(prm.Resource, f.opts.ServerURL):
			reply.Problem(protocol.FindAuthResourceMismatch, fmt.Sprintf("resource %q is not the server %s", prm.Resource, f.opts.ServerURL))
			reply.Report()
			return nil, fmt.Errorf("%s: the protected resource metadata names resource %q, not this server (%s); refusing to authorize", protocol.FindAuthResourceMismatch, prm.Resource, f.opts.ServerURL)
		case len(prm.AuthorizationServers) == 0:
			reply.Problem(protocol.FindAuthMetadata, "no authorization_servers")
			reply.Report()
			return nil, fmt.Errorf("protected resource metadata at %s lists no authorization server", u)
		}
		reply.Check(fmt.Sprintf("resource %s matches the server URL", prm.Resource))
		reply.Check("authorization servers: " + strings.Join(prm.AuthorizationServers, ", "))
		reply.Report()
		return &prm, nil
	}
	if fromHeader != "" {
		return nil, fmt.Errorf("%s: no protected resource metadata at %s (named by WWW-Authenticate)", protocol.FindAuthMetadata, fromHeader)
	}
	return nil, nil
}

// discoverServer reads the metadata of the authorization server issuer from the locations
// the spec lists, in order, and validates it. With legacy (no protected resource metadata:
// 2025-03-26) the 2025-03-26 default endpoints stand in when no document is found.
func (f *Flow) discoverServer(ctx context.Context, issuer string, legacy bool) (*ServerMetadata, error) {
	for _, u := range ServerMetadataURLs(issuer) {
		var raw map[string]json.RawMessage
		reply, found, err := f.getJSON(ctx, StepASMetadata, u, &raw)
		if err != nil {
			return nil, err
		}
		if !found {
			reply.Report()
			continue
		}
		var md ServerMetadata
		body, _ := json.Marshal(raw)
		_ = json.Unmarshal(body, &md)
		md.Raw, md.URL = raw, u
		if legacy && md.Issuer != issuer && md.Issuer != "" {
			// 2025-03-26 derives the metadata's location from the server URL: there is no
			// issuer identifier to compare with, and the document's own is the one to expect.
			reply.Check(fmt.Sprintf("issuer %s (2025-03-26: looked up at the server's origin, not by issuer)", md.Issuer))
			issuer = md.Issuer
		}
		if err := f.checkServerMetadata(reply, issuer, &md); err != nil {
			reply.Report()
			return nil, err
		}
		reply.Report()
		return &md, nil
	}
	if !legacy {
		return nil, fmt.Errorf("%s: no authorization server metadata for %s at %s", protocol.FindAuthMetadata, issuer, strings.Join(ServerMetadataURLs(issuer), ", "))
	}
	f.note("no authorization server metadata: using the 2025-03-26 default endpoints /authorize, /token and /register at " + issuer)
	return &ServerMetadata{Issuer: issuer, AuthorizationEndpoint: issuer + "/authorize", TokenEndpoint: issuer + "/token",
		RegistrationEndpoint: issuer + "/register", Defaults: true}, nil
}

// checkServerMetadata validates a metadata document: its issuer is the identifier it was
// looked up with (RFC 8414 §3.3), it has the endpoints the flow needs, and PKCE S256.
func (f *Flow) checkServerMetadata(reply *transport.AuthReply, issuer string, md *ServerMetadata) error {
	if md.Issuer != issuer {
		reply.Problem(protocol.FindAuthIssuerMismatch, fmt.Sprintf("issuer %q, looked up as %q", md.Issuer, issuer))
		return fmt.Errorf("%s: the authorization server metadata's issuer %q is not %q, the identifier it was looked up with; not using it", protocol.FindAuthIssuerMismatch, md.Issuer, issuer)
	}
	reply.Check("issuer " + md.Issuer + " matches")
	if md.TokenEndpoint == "" {
		reply.Problem(protocol.FindAuthMetadata, "no token_endpoint")
		return fmt.Errorf("%s: the authorization server metadata has no token_endpoint", protocol.FindAuthMetadata)
	}
	for _, ep := range []struct{ name, u string }{{"authorization_endpoint", md.AuthorizationEndpoint},
		{"token_endpoint", md.TokenEndpoint}, {"registration_endpoint", md.RegistrationEndpoint}} {
		if why := endpointRefused(ep.u, f.opts.ServerURL); ep.u != "" && why != "" {
			reply.Problem(protocol.FindAuthMetadata, ep.name+" "+why)
			return fmt.Errorf("%s: the authorization server metadata's %s %q %s; refusing to authorize", protocol.FindAuthMetadata, ep.name, ep.u, why)
		}
	}
	if f.opts.Grant == nil {
		if md.AuthorizationEndpoint == "" {
			reply.Problem(protocol.FindAuthMetadata, "no authorization_endpoint")
			return fmt.Errorf("%s: the authorization server metadata has no authorization_endpoint", protocol.FindAuthMetadata)
		}
		if !slices.Contains(md.CodeChallengeMethodsSupported, "S256") {
			what := "code_challenge_methods_supported is absent, so the server does not support PKCE"
			if md.CodeChallengeMethodsSupported != nil {
				what = "code_challenge_methods_supported lists " + strings.Join(md.CodeChallengeMethodsSupported, ", ") + ", not S256"
			}
			reply.Problem(protocol.FindAuthNoS256, what)
			return fmt.Errorf("%s: %s; MCP requires PKCE with S256, refusing to authorize", protocol.FindAuthNoS256, what)
		}
		reply.Check("PKCE S256 supported")
	}
	return nil
}

// discover runs the discovery steps for a challenge (zero when authorizing before any
// 401): protected resource metadata, the authorization server, its metadata. Without
// resource metadata, a server that challenged is a 2025-03-26 one; one that did not is
// ErrNoMetadata.
func (f *Flow) discover(ctx context.Context, ch Challenge, challenged bool) (*Discovery, error) {
	f.setStep(StepResourceMetadata)
	prm, err := f.discoverResource(ctx, ch.ResourceMetadata())
	if err != nil {
		return nil, err
	}
	if prm == nil && !challenged {
		return nil, ErrNoMetadata
	}
	d := &Discovery{ServerURL: f.opts.ServerURL, PRM: prm, Resource: f.opts.ServerURL}
	legacy := prm == nil
	if legacy {
		// 2025-03-26: the authorization base URL is the server URL without its path.
		u, _ := url.Parse(f.opts.ServerURL)
		d.Issuer = u.Scheme + "://" + u.Host
		f.note("no protected resource metadata: the server's origin " + d.Issuer + " is the authorization server (2025-03-26)")
	} else {
		d.Resource, d.Issuer = prm.Resource, prm.AuthorizationServers[0]
	}
	f.setStep(StepASMetadata)
	if d.AS, err = f.discoverServer(ctx, d.Issuer, legacy); err != nil {
		return nil, err
	}
	d.Issuer = d.AS.Issuer
	return d, nil
}

// endpointRefused says why an endpoint the metadata names is not used ("" when it is). The
// security considerations ask for HTTPS on every authorization server endpoint: plain http
// is taken only on a loopback host, or on the MCP server's own host when the user reaches
// that server over plain http already (a local demo, a test). Anything but http(s) is
// refused: the authorization endpoint is handed to the browser opener.
func endpointRefused(endpoint, serverURL string) string {
	u, err := url.Parse(endpoint)
	switch {
	case err != nil:
		return "is not a URL"
	case u.Scheme == "https" && u.Host != "":
		return ""
	case u.Scheme != "http" || u.Host == "":
		return "is not an https URL"
	case isLoopback(u.Hostname()):
		return ""
	}
	if s, err := url.Parse(serverURL); err == nil && s.Scheme == "http" && strings.EqualFold(s.Hostname(), u.Hostname()) {
		return ""
	}
	return "is plain http on a host that is not loopback (codes, secrets and tokens would cross the network unencrypted)"
}

// isLoopback reports whether host is localhost or a loopback address.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
