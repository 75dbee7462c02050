package auth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session/transport"
)

// Token is a token endpoint's answer.
type Token struct {
	AccessToken  string
	TokenType    string
	RefreshToken string
	Expiry       time.Time // zero: no expires_in
	Scopes       []string  // nil: no scope member (the scopes requested were granted)
	// Raw keeps every member of the answer, for the extensions.
	Raw map[string]json.RawMessage
}

// exchangeCode trades the authorization code for a token.
func (f *Flow) exchangeCode(ctx context.Context, d *Discovery, rec *Record, c *code, redirectURI string, scopes []string) (*Token, error) {
	f.setStep(StepToken)
	form := url.Values{
		"grant_type":    {"authorization_code"},
		"code":          {c.value},
		"redirect_uri":  {redirectURI},
		"code_verifier": {c.verifier},
		"resource":      {d.Resource},
	}
	return f.TokenRequest(ctx, StepToken, d, rec, form, scopes)
}

// Refresh implements Controller: it uses the refresh token now.
func (f *Flow) Refresh(ctx context.Context) error { return f.refreshFrom(ctx, "") }

// refreshFrom refreshes the token, one refresh at a time (a refresh token may be rotated
// and refused when used twice); with tok set, only while tok is still the current token.
func (f *Flow) refreshFrom(ctx context.Context, tok string) error {
	f.mu.Lock()
	if r := f.refreshing; r != nil {
		f.mu.Unlock()
		select {
		case <-r.done:
			return r.err
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	if tok != "" && f.rec != nil && f.rec.AccessToken != tok {
		f.mu.Unlock()
		return nil // refreshed meanwhile
	}
	r := &run{done: make(chan struct{})}
	f.refreshing = r
	f.mu.Unlock()
	r.err = f.refresh(ctx)
	f.mu.Lock()
	f.refreshing = nil
	f.mu.Unlock()
	close(r.done)
	return r.err
}

func (f *Flow) refresh(ctx context.Context) error {
	f.mu.Lock()
	rec, d := f.rec, f.disc
	f.mu.Unlock()
	if rec == nil || rec.RefreshToken == "" {
		return errors.New("no refresh token")
	}
	if d == nil || d.AS.Issuer != rec.Issuer {
		// A stored token from an earlier run: find the token endpoint again.
		var err error
		if d, err = f.rediscover(ctx, rec); err != nil {
			f.fail(err)
			return err
		}
	}
	f.setStep(StepRefresh)
	form := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {rec.RefreshToken}, "resource": {rec.Resource}}
	tok, err := f.TokenRequest(ctx, StepRefresh, d, rec, form, rec.Scopes)
	if err != nil {
		f.clientRefused(rec, err)
		f.refreshRefused(rec, err)
		f.fail(err)
		return err
	}
	if tok.RefreshToken == "" {
		tok.RefreshToken = rec.RefreshToken // RFC 6749 §6: the old one stays valid
	}
	if tok.Scopes == nil {
		tok.Scopes = rec.Scopes
	}
	nr := *rec
	f.mu.Lock()
	asked := f.asked
	f.mu.Unlock()
	return f.save(&nr, tok, asked)
}

// rediscover reads the metadata of a stored record's authorization server.
func (f *Flow) rediscover(ctx context.Context, rec *Record) (*Discovery, error) {
	f.setStep(StepASMetadata)
	as, err := f.discoverServer(ctx, rec.Issuer, false)
	if err != nil {
		return nil, err
	}
	d := &Discovery{ServerURL: f.opts.ServerURL, Resource: rec.Resource, Issuer: rec.Issuer, AS: as}
	f.mu.Lock()
	f.disc = d
	f.mu.Unlock()
	return d, nil
}

// TokenRequest POSTs form to the token endpoint with the client's authentication and
// reads the token. asked are the scopes the token is expected to carry (checked against
// the answer); nil checks nothing.
func (f *Flow) TokenRequest(ctx context.Context, step Step, d *Discovery, rec *Record, form url.Values, asked []string) (*Token, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.AS.TokenEndpoint, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	if err := f.clientAuth(req, form, d, rec); err != nil {
		return nil, err
	}
	key, err := f.dpopKeyFor(d)
	if err != nil {
		return nil, err
	}
	body := form.Encode()
	var reply *transport.AuthReply
	for attempt := 0; ; attempt++ {
		req.Body = http.NoBody
		if body != "" {
			req.Body, req.ContentLength = readCloser(body), int64(len(body))
		}
		if err := dpopProof(key, req); err != nil {
			return nil, err
		}
		if reply, err = f.exchange(ctx, step, req); err != nil {
			return nil, err
		}
		if attempt > 0 || !dpopTokenRetry(key, d.AS.TokenEndpoint, reply) {
			break
		}
		reply.Report()
	}
	defer reply.Report()
	reply.Check("client authentication: " + authMethodName(f.opts.TokenAuth, rec.TokenEndpointAuthMethod))
	if step == StepRefresh {
		// A refresh keeps the refresh token it used when it gets no new one (RFC 6749 §6):
		// offline_access is not lost for the want of one.
		asked = slices.DeleteFunc(slices.Clone(asked), func(s string) bool { return s == "offline_access" })
	}
	tok, err := parseToken(reply, asked, f.opts.Now())
	if err == nil && key != nil {
		dpopTokenCheck(reply, tok.TokenType, key)
	}
	return tok, err
}

// clientAuth authenticates the client of a request to the token endpoint (or one that
// authenticates as there: revocation): the extension's, else client_secret_basic,
// client_secret_post or none (the client_id alone).
func (f *Flow) clientAuth(req *http.Request, form url.Values, d *Discovery, rec *Record) error {
	if f.opts.TokenAuth != nil {
		return f.opts.TokenAuth.Apply(req, form, d, rec)
	}
	switch rec.TokenEndpointAuthMethod {
	case "client_secret_basic":
		// RFC 6749 §2.3.1: the id and the secret are form-encoded before Base64.
		req.SetBasicAuth(url.QueryEscape(rec.ClientID), url.QueryEscape(rec.ClientSecret))
	case "client_secret_post":
		form.Set("client_id", rec.ClientID)
		form.Set("client_secret", rec.ClientSecret)
	default:
		form.Set("client_id", rec.ClientID)
	}
	return nil
}

func readCloser(s string) io.ReadCloser { return io.NopCloser(strings.NewReader(s)) }

func authMethodName(ta TokenAuth, m string) string {
	if ta != nil {
		return "extension"
	}
	if m == "" {
		return "none"
	}
	return m
}

// maxExpiresIn is the longest token lifetime taken as one (ten years, in seconds).
const maxExpiresIn = 10 * 365 * 24 * 3600

// parseToken reads a token endpoint's answer (RFC 6749 §5.1, §5.2), recording what it
// checked on the reply.
func parseToken(reply *transport.AuthReply, asked []string, now time.Time) (*Token, error) {
	var raw map[string]json.RawMessage
	jsonErr := json.Unmarshal(reply.Body, &raw)
	var got struct {
		AccessToken      string          `json:"access_token"`
		TokenType        string          `json:"token_type"`
		ExpiresIn        json.Number     `json:"expires_in"`
		RefreshToken     string          `json:"refresh_token"`
		Scope            *string         `json:"scope"`
		Error            string          `json:"error"`
		ErrorDescription string          `json:"error_description"`
		Extra            json.RawMessage `json:"-"`
	}
	_ = json.Unmarshal(reply.Body, &got)
	if reply.Status < 200 || reply.Status > 299 || got.AccessToken == "" {
		what := fmt.Sprintf("HTTP %d", reply.Status)
		switch {
		case got.Error != "":
			what += ": " + strings.TrimSpace(got.Error+" "+got.ErrorDescription)
		case jsonErr != nil:
			what += ": the answer is not JSON"
		default:
			what += ": no access_token"
		}
		reply.Problem(protocol.FindAuthTokenError, what)
		return nil, &tokenAnswerError{msg: fmt.Sprintf("%s: token endpoint: %s", protocol.FindAuthTokenError, what),
			te: &TokenError{Status: reply.Status, Code: got.Error, Description: got.ErrorDescription}}
	}
	tok := &Token{AccessToken: got.AccessToken, TokenType: got.TokenType, RefreshToken: got.RefreshToken, Raw: raw}
	// RFC 6749 §5.1: token_type is case-insensitive; only Bearer (RFC 6750) and DPoP
	// (RFC 9449) are presented, anything else would be sent as what it is not.
	switch {
	case got.TokenType == "":
		reply.Problem(protocol.FindAuthTokenError, "no token_type: the token is sent as Bearer")
		tok.TokenType = TokenTypeBearer
	case strings.EqualFold(got.TokenType, TokenTypeBearer):
		tok.TokenType = TokenTypeBearer
	case strings.EqualFold(got.TokenType, TokenTypeDPoP):
		tok.TokenType = TokenTypeDPoP
	default:
		what := fmt.Sprintf("token_type %q is neither Bearer nor DPoP", got.TokenType)
		reply.Problem(protocol.FindAuthTokenError, what)
		return nil, fmt.Errorf("%s: token endpoint: %s; mcpscope cannot present such a token", protocol.FindAuthTokenError, what)
	}
	n, nErr := got.ExpiresIn.Int64()
	switch {
	case got.ExpiresIn == "" || nErr != nil:
		reply.Problem(protocol.FindAuthTokenNoExpiry, "no expires_in: the token is used until the server refuses it")
	case n <= 0:
		reply.Problem(protocol.FindAuthTokenNoExpiry, fmt.Sprintf("expires_in %d is not a positive number of seconds: the token is used until the server refuses it", n))
	case n > maxExpiresIn:
		// A lifetime beyond any clock's range (or a decade) is taken as no expiry rather
		// than one that overflows into the past.
		reply.Problem(protocol.FindAuthTokenNoExpiry, fmt.Sprintf("expires_in %d is more than ten years: taken as no expiry", n))
	default:
		tok.Expiry = now.Add(time.Duration(n) * time.Second)
		reply.Check(fmt.Sprintf("expires in %ds", n))
	}
	if got.Scope != nil {
		tok.Scopes = strings.Fields(*got.Scope)
		var missing []string
		for _, s := range asked {
			// offline_access is often granted without being echoed: it is missing only
			// when no refresh token came either.
			if !slices.Contains(tok.Scopes, s) && (s != "offline_access" || tok.RefreshToken == "") {
				missing = append(missing, s)
			}
		}
		if len(missing) > 0 {
			reply.Problem(protocol.FindAuthScopeNotGranted, "not granted: "+strings.Join(missing, " "))
		} else if len(asked) > 0 {
			reply.Check("granted the scopes requested")
		}
	}
	if tok.RefreshToken != "" {
		reply.Check("refresh token issued")
	}
	return tok, nil
}
