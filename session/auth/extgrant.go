package auth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/mcpscope/mcpscope/session/transport"
)

// The extension grants, as --grant names them.
const (
	GrantNameClientCredentials = "client-credentials" // OAuth client credentials extension
	GrantNameJWTBearer         = "jwt-bearer"         // workload identity federation (RFC 7523 §2.1)
	GrantNameEnterprise        = "enterprise"         // enterprise-managed authorization (ID-JAG)
)

// GrantNames are the --grant values, the authorization code flow ("") aside.
var GrantNames = []string{GrantNameClientCredentials, GrantNameJWTBearer, GrantNameEnterprise}

// ExtGrant obtains a token without the user: client credentials (with a client secret or a
// private key), a JWT bearer grant with a workload identity JWT, or enterprise-managed
// authorization (an ID token exchanged at the identity provider for an ID-JAG, presented
// to the MCP server's authorization server as a JWT bearer grant). The client is the
// flow's --client-id and --client-secret.
type ExtGrant struct {
	// Name is one of GrantNames.
	Name string
	// Key signs client assertions (private_key_jwt) instead of a client secret.
	Key *AssertionKey
	// Assertion is the workload identity JWT (jwt-bearer).
	Assertion string
	// IDToken is the user's ID token from the identity provider (enterprise).
	IDToken string
	// IDPTokenEndpoint is the identity provider's token endpoint (enterprise).
	IDPTokenEndpoint string
	// IDPClientID and IDPClientSecret are the client at the identity provider (enterprise);
	// without a secret the client id is sent in the form (public client).
	IDPClientID     string
	IDPClientSecret string

	mu      sync.Mutex
	refused error // the authorization server's refusal: the same credentials are not sent again
}

// Secrets are the grant's credentials, for masking: the workload JWT, the ID token and the
// identity provider's client secret.
func (g *ExtGrant) Secrets() []string {
	var out []string
	for _, v := range []string{g.Assertion, g.IDToken, g.IDPClientSecret} {
		if v != "" {
			out = append(out, v)
		}
	}
	return out
}

// Check reports what a grant lacks, in words a user can act on.
func (g *ExtGrant) Check(clientID, clientSecret string) error {
	switch g.Name {
	case GrantNameClientCredentials:
		if clientID == "" || (clientSecret == "" && g.Key == nil) {
			return errors.New("--grant client-credentials needs --client-id and either --client-secret or --private-key")
		}
	case GrantNameJWTBearer:
		if g.Assertion == "" {
			return errors.New("--grant jwt-bearer needs --assertion FILE (the workload identity JWT)")
		}
	case GrantNameEnterprise:
		switch {
		case g.IDToken == "":
			return errors.New("--grant enterprise needs --id-token FILE (the ID token from your identity provider)")
		case g.IDPTokenEndpoint == "":
			return errors.New("--grant enterprise needs --idp-token-endpoint URL (the identity provider's token endpoint)")
		case clientID == "":
			return errors.New("--grant enterprise needs --client-id (the client at the MCP server's authorization server)")
		}
	default:
		return fmt.Errorf("--grant %q: want %s", g.Name, strings.Join(GrantNames, ", "))
	}
	return nil
}

// clientAuth is how the client authenticates at the authorization server d names: a
// private key means private_key_jwt, a secret the method the server supports.
func (g *ExtGrant) clientAuth(d *Discovery, clientID, clientSecret string) (ClientAuth, error) {
	var supported, algs []string
	issuer := d.Issuer
	if d.AS != nil {
		supported = d.AS.TokenEndpointAuthMethodsSupported
		algs = rawStrings(d.AS.Raw, "token_endpoint_auth_signing_alg_values_supported")
		if d.AS.Issuer != "" {
			issuer = d.AS.Issuer
		}
	}
	a := ClientAuth{Method: ChooseClientAuth(supported, clientSecret != "", g.Key != nil),
		ClientID: clientID, ClientSecret: clientSecret, Key: g.Key, Audience: issuer}
	if g.Key != nil {
		if len(supported) > 0 && !slices.Contains(supported, AuthPrivateKeyJWT) {
			return a, fmt.Errorf("the authorization server does not accept private_key_jwt (it supports %s)", strings.Join(supported, ", "))
		}
		if err := g.Key.CheckAlgorithm(algs); err != nil {
			return a, err
		}
	}
	return a, nil
}

// request obtains the token for the grant from the authorization server d names.
func (g *ExtGrant) request(ctx context.Context, x Exchanger, d *Discovery, clientID, clientSecret string, scopes []string, dpop *DPoPKey) (*Token, error) {
	if d.AS == nil || d.AS.TokenEndpoint == "" {
		return nil, errors.New("the authorization server's metadata names no token_endpoint")
	}
	if err := g.Check(clientID, clientSecret); err != nil {
		return nil, err
	}
	grantType := GrantJWTBearer
	if g.Name == GrantNameClientCredentials {
		grantType = GrantClientCredentials
	}
	if gts := d.AS.GrantTypesSupported; len(gts) > 0 && !slices.Contains(gts, grantType) {
		x.AuthNote(fmt.Sprintf("the authorization server's grant_types_supported (%s) does not list %s; trying it anyway", strings.Join(gts, ", "), grantType))
	}
	form := ClientCredentialsForm(scopes, d.Resource)
	client := ClientAuth{Method: AuthNone, ClientID: clientID}
	switch g.Name {
	case GrantNameClientCredentials:
		a, err := g.clientAuth(d, clientID, clientSecret)
		if err != nil {
			return nil, err
		}
		client = a
	case GrantNameJWTBearer:
		// The workload JWT is the credential; a client id goes along only when given.
		form = JWTBearerForm(g.Assertion, scopes, d.Resource)
		if clientSecret != "" || g.Key != nil {
			a, err := g.clientAuth(d, clientID, clientSecret)
			if err != nil {
				return nil, err
			}
			client = a
		}
	case GrantNameEnterprise:
		idp := ClientAuth{Method: AuthNone, ClientID: g.IDPClientID}
		if g.IDPClientSecret != "" {
			idp = ClientAuth{Method: AuthClientSecretBasic, ClientID: g.IDPClientID, ClientSecret: g.IDPClientSecret}
		}
		audience := d.Issuer
		if d.AS.Issuer != "" {
			audience = d.AS.Issuer
		}
		jag, err := RequestIDJAG(ctx, x, g.IDPTokenEndpoint, idp, TokenExchange{
			SubjectToken: g.IDToken, Audience: audience, Resource: d.Resource, Scope: scopes,
		})
		if err != nil {
			return nil, err
		}
		form = JWTBearerForm(jag, scopes, d.Resource)
		a, err := g.clientAuth(d, clientID, clientSecret)
		if err != nil {
			return nil, err
		}
		client = a
	}
	return RequestToken(ctx, x, TokenRequest{Step: StepToken, Endpoint: d.AS.TokenEndpoint, Form: form, Client: client, DPoP: dpop}, scopes)
}

// Token implements Grant: the grant's token from the authorization server d names, for the
// flow's client and scopes, bound to a DPoP key when the flow uses one.
func (g *ExtGrant) Token(ctx context.Context, f *Flow, d *Discovery) (*Token, error) {
	g.mu.Lock()
	refused := g.refused
	g.mu.Unlock()
	if refused != nil {
		// A grant's refusal is final for these credentials (SEP-1933: surface it, do not
		// retry); a new run with other credentials tries again.
		return nil, fmt.Errorf("%w (refused before; not sent again)", refused)
	}
	f.setStep(StepToken)
	key, err := f.dpopKeyFor(d)
	if err != nil {
		return nil, err
	}
	scopes := f.opts.Scopes
	if scopes == nil {
		f.mu.Lock()
		ch := f.ch
		f.mu.Unlock()
		scopes = SelectScopes(ch, d.PRM, nil) // no offline_access: a grant needs no refresh token
	}
	f.update(func(s *Status) {
		s.ClientID, s.ScopesRequested = f.opts.ClientID, slices.Clone(scopes)
	})
	tok, err := g.request(ctx, flowExchanger{f}, d, f.opts.ClientID, f.opts.ClientSecret, scopes, key)
	var te *TokenError
	if errors.As(err, &te) {
		g.mu.Lock()
		g.refused = err
		g.mu.Unlock()
	}
	return tok, err
}

// flowExchanger makes a grant's requests through the flow's transport.
type flowExchanger struct{ f *Flow }

func (x flowExchanger) AuthExchange(ctx context.Context, step string, req *http.Request) (*transport.AuthReply, error) {
	return x.f.exchange(ctx, Step(step), req)
}

func (x flowExchanger) AuthNote(text string) { x.f.note(text) }

// rawStrings reads a string array member of raw metadata (nil when absent or not one).
func rawStrings(raw map[string]json.RawMessage, name string) []string {
	var out []string
	if v, ok := raw[name]; ok {
		_ = json.Unmarshal(v, &out)
	}
	return out
}
