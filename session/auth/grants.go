package auth

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session/transport"
)

// Grant types (grant_type) of the token requests mcpscope makes besides the authorization
// code and refresh.
const (
	GrantClientCredentials = "client_credentials"
	GrantJWTBearer         = "urn:ietf:params:oauth:grant-type:jwt-bearer"     // RFC 7523 §2.1
	GrantTokenExchange     = "urn:ietf:params:oauth:grant-type:token-exchange" // RFC 8693
)

// Token types of RFC 8693 (subject_token_type, requested_token_type, issued_token_type).
const (
	TokenTypeIDToken = "urn:ietf:params:oauth:token-type:id_token"
	TokenTypeSAML2   = "urn:ietf:params:oauth:token-type:saml2"
	TokenTypeIDJAG   = "urn:ietf:params:oauth:token-type:id-jag" // identity assertion JWT authorization grant
)

// Client authentication methods at a token endpoint (token_endpoint_auth_method).
const (
	AuthClientSecretBasic = "client_secret_basic"
	AuthClientSecretPost  = "client_secret_post"
	AuthPrivateKeyJWT     = "private_key_jwt"
	AuthNone              = "none"
)

// Exchanger is what the grants need of the transport (a transport.AuthExchanger has it):
// requests labelled with their step, and notes for the timeline.
type Exchanger interface {
	AuthExchange(ctx context.Context, step string, req *http.Request) (*transport.AuthReply, error)
	AuthNote(text string)
}

// ClientAuth is how the client authenticates at a token endpoint.
type ClientAuth struct {
	Method       string // AuthClientSecretBasic, AuthClientSecretPost, AuthPrivateKeyJWT, AuthNone
	ClientID     string // may be empty with AuthNone (a workload identity grant needs none)
	ClientSecret string
	Key          *AssertionKey // AuthPrivateKeyJWT
	Audience     string        // the assertion's aud: the authorization server's issuer
}

// ChooseClientAuth picks the method for a client with a secret and/or an assertion key,
// from the methods the server supports (token_endpoint_auth_methods_supported; absent
// means client_secret_basic, RFC 8414 §2). A key means private_key_jwt; a secret means
// client_secret_basic unless only client_secret_post is supported; neither means none.
func ChooseClientAuth(supported []string, hasSecret, hasKey bool) string {
	switch {
	case hasKey:
		return AuthPrivateKeyJWT
	case hasSecret:
		if len(supported) > 0 && !slices.Contains(supported, AuthClientSecretBasic) && slices.Contains(supported, AuthClientSecretPost) {
			return AuthClientSecretPost
		}
		return AuthClientSecretBasic
	}
	return AuthNone
}

// apply adds the client's authentication to a token request's form and headers.
func (a ClientAuth) apply(form url.Values, h http.Header) error {
	switch a.Method {
	case AuthClientSecretBasic:
		// RFC 6749 §2.3.1: both are form-encoded before Basic encoding.
		cred := url.QueryEscape(a.ClientID) + ":" + url.QueryEscape(a.ClientSecret)
		h.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(cred)))
	case AuthClientSecretPost:
		form.Set("client_id", a.ClientID)
		form.Set("client_secret", a.ClientSecret)
	case AuthPrivateKeyJWT:
		if a.Key == nil {
			return errors.New("private_key_jwt needs a private key (--private-key)")
		}
		assertion, err := a.Key.Assertion(a.ClientID, a.Audience, time.Time{})
		if err != nil {
			return fmt.Errorf("client assertion: %w", err)
		}
		// RFC 7523 §3: the client is identified by the assertion's sub; no client_id.
		form.Set("client_assertion_type", ClientAssertionType)
		form.Set("client_assertion", assertion)
	case AuthNone, "":
		if a.ClientID != "" {
			form.Set("client_id", a.ClientID)
		}
	default:
		return fmt.Errorf("client authentication %q is not supported", a.Method)
	}
	return nil
}

// describe names the authentication for the timeline ("private_key_jwt (ES256)").
func (a ClientAuth) describe() string {
	switch {
	case a.Method == AuthPrivateKeyJWT && a.Key != nil:
		return a.Method + " (" + a.Key.Algorithm() + ")"
	case a.Method == "":
		return AuthNone
	}
	return a.Method
}

// ClientCredentialsForm is a client credentials grant (OAuth 2.1 §4.2, the MCP OAuth client
// credentials extension) for resource, with scope when not empty.
func ClientCredentialsForm(scope []string, resource string) url.Values {
	return withScopeResource(url.Values{"grant_type": {GrantClientCredentials}}, scope, resource)
}

// JWTBearerForm is a JWT authorization grant (RFC 7523 §2.1): a workload identity JWT, or
// the ID-JAG of enterprise-managed authorization, presented as the assertion.
func JWTBearerForm(assertion string, scope []string, resource string) url.Values {
	return withScopeResource(url.Values{"grant_type": {GrantJWTBearer}, "assertion": {assertion}}, scope, resource)
}

// TokenExchange is an RFC 8693 request to an identity provider for an identity assertion
// JWT authorization grant (enterprise-managed authorization §4).
type TokenExchange struct {
	SubjectToken     string   // the ID token (or SAML assertion)
	SubjectTokenType string   // TokenTypeIDToken by default
	Audience         string   // the MCP server's authorization server issuer
	Resource         string   // the MCP server's resource identifier (RFC 9728)
	Scope            []string // optional
}

// Form is the token exchange request's form.
func (x TokenExchange) Form() url.Values {
	typ := x.SubjectTokenType
	if typ == "" {
		typ = TokenTypeIDToken
	}
	f := url.Values{
		"grant_type":           {GrantTokenExchange},
		"requested_token_type": {TokenTypeIDJAG},
		"audience":             {x.Audience},
		"subject_token":        {x.SubjectToken},
		"subject_token_type":   {typ},
	}
	return withScopeResource(f, x.Scope, x.Resource)
}

func withScopeResource(f url.Values, scope []string, resource string) url.Values {
	if len(scope) > 0 {
		f.Set("scope", strings.Join(scope, " "))
	}
	if resource != "" {
		f.Set("resource", resource)
	}
	return f
}

// TokenRequest is one POST to a token endpoint.
type TokenRequest struct {
	Step     Step // StepToken, StepRefresh, StepTokenExchange
	Endpoint string
	Form     url.Values
	Client   ClientAuth
	// DPoP, when set, puts a proof on the request, and the request is sent once more
	// with the nonce when the server answers with a use_dpop_nonce challenge.
	DPoP *DPoPKey
}

// TokenError is a token endpoint's error answer (RFC 6749 §5.2), or a status without one.
type TokenError struct {
	Step        Step
	Status      int
	Code        string // error
	Description string // error_description
}

func (e *TokenError) Error() string {
	s := fmt.Sprintf("%s: HTTP %d", e.Step, e.Status)
	if e.Code != "" {
		s += " " + e.Code
	}
	if e.Description != "" {
		s += ": " + e.Description
	}
	return s
}

// RequestToken sends tr through x (so the exchange is shown, labelled with tr.Step) and
// returns the token the server issued; asked are the scopes it should carry (checked, nil
// checks nothing). It is not retried, except once for a DPoP nonce challenge.
func RequestToken(ctx context.Context, x Exchanger, tr TokenRequest, asked []string) (*Token, error) {
	for attempt := 0; ; attempt++ {
		reply, err := postToken(ctx, x, tr)
		if err != nil {
			return nil, err
		}
		if attempt == 0 && dpopTokenRetry(tr.DPoP, tr.Endpoint, reply) {
			reply.Report()
			continue
		}
		defer reply.Report()
		reply.Check("grant " + tr.Form.Get("grant_type") + "; client authentication: " + tr.Client.describe())
		if tr.Step == StepTokenExchange {
			return parseExchange(reply)
		}
		tok, err := parseToken(reply, asked, time.Now())
		if err != nil && reply.Status >= 400 {
			return nil, tokenError(tr.Step, reply)
		}
		if err == nil && tr.DPoP != nil {
			dpopTokenCheck(reply, tok.TokenType, tr.DPoP)
		}
		return tok, err
	}
}

// postToken sends one attempt of tr.
func postToken(ctx context.Context, x Exchanger, tr TokenRequest) (*transport.AuthReply, error) {
	form := url.Values{}
	for k, v := range tr.Form {
		form[k] = slices.Clone(v)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, tr.Endpoint, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", tr.Step, err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	if err := tr.Client.apply(form, req.Header); err != nil {
		return nil, fmt.Errorf("%s: %w", tr.Step, err)
	}
	if err := dpopProof(tr.DPoP, req); err != nil {
		return nil, fmt.Errorf("%s: %w", tr.Step, err)
	}
	body := form.Encode()
	req.Body, req.ContentLength = readCloser(body), int64(len(body))
	reply, err := x.AuthExchange(ctx, string(tr.Step), req)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", tr.Step, err)
	}
	return reply, nil
}

// tokenError is a token endpoint's refusal (RFC 6749 §5.2).
func tokenError(step Step, reply *transport.AuthReply) *TokenError {
	var e struct {
		Error       string `json:"error"`
		Description string `json:"error_description"`
	}
	_ = json.Unmarshal(reply.Body, &e)
	return &TokenError{Step: step, Status: reply.Status, Code: e.Error, Description: e.Description}
}

// parseExchange reads a token exchange answer (RFC 8693 §2.2, §2.3): the issued token, or a
// *TokenError.
func parseExchange(reply *transport.AuthReply) (*Token, error) {
	var got struct {
		AccessToken     string `json:"access_token"`
		IssuedTokenType string `json:"issued_token_type"`
		TokenType       string `json:"token_type"`
		Error           string `json:"error"`
		Description     string `json:"error_description"`
	}
	jsonErr := json.Unmarshal(reply.Body, &got)
	if reply.Status != http.StatusOK || got.AccessToken == "" {
		te := &TokenError{Step: StepTokenExchange, Status: reply.Status, Code: got.Error, Description: got.Description}
		switch {
		case jsonErr != nil && te.Code == "":
			te.Description = "the answer is not JSON"
		case te.Code == "" && te.Description == "":
			te.Description = "no access_token"
		}
		reply.Problem(protocol.FindAuthTokenError, te.Error())
		return nil, te
	}
	reply.Check("issued_token_type " + got.IssuedTokenType)
	var raw map[string]json.RawMessage
	_ = json.Unmarshal(reply.Body, &raw)
	return &Token{AccessToken: got.AccessToken, TokenType: got.TokenType, Raw: raw}, nil
}

// RequestIDJAG exchanges an ID token for an identity assertion JWT authorization grant at
// the identity provider's token endpoint (enterprise-managed authorization §4) and
// returns the grant.
func RequestIDJAG(ctx context.Context, x Exchanger, endpoint string, client ClientAuth, tx TokenExchange) (string, error) {
	tok, err := RequestToken(ctx, x, TokenRequest{Step: StepTokenExchange, Endpoint: endpoint, Form: tx.Form(), Client: client}, nil)
	if err != nil {
		return "", err
	}
	var issued string
	_ = json.Unmarshal(tok.Raw["issued_token_type"], &issued)
	if issued != "" && issued != TokenTypeIDJAG {
		return "", fmt.Errorf("%s: the identity provider issued %s, not an ID-JAG", StepTokenExchange, issued)
	}
	return tok.AccessToken, nil
}
