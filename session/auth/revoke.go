package auth

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/mcpscope/mcpscope/session/transport"
)

// StepRevocation labels the requests to the revocation endpoint (RFC 7009).
const StepRevocation Step = "revocation"

// Revocation is what a logout did at the authorization server (RFC 7009).
type Revocation struct {
	Endpoint string   `json:"endpoint,omitempty"`
	Revoked  []string `json:"revoked,omitempty"` // the token types the server accepted to revoke
	// Skipped says why nothing was sent: the server offers no revocation, there was no
	// token, --no-revoke.
	Skipped string `json:"skipped,omitempty"`
	Error   string `json:"error,omitempty"` // why a revocation failed; the record is removed anyway
}

// Revoke revokes rec's tokens at its authorization server when the server's metadata names
// a revocation_endpoint (RFC 7009): the refresh token first (which revokes the access
// tokens of its grant at most servers), then the access token, each with the client's
// authentication as at the token endpoint. x makes the requests and reports them; the
// server's answer is 200 whether it knew the token or not (§2.2).
func Revoke(ctx context.Context, x transport.AuthExchanger, rec *Record) Revocation {
	if rec.AccessToken == "" && rec.RefreshToken == "" {
		return Revocation{Skipped: "no token stored"}
	}
	f := New(Options{ServerURL: rec.Resource})
	f.BindAuth(x)
	as, err := f.discoverServer(ctx, rec.Issuer, false)
	if err != nil {
		return Revocation{Error: err.Error()}
	}
	out := Revocation{Endpoint: as.RevocationEndpoint}
	if as.RevocationEndpoint == "" {
		out.Skipped = rec.Issuer + " offers no token revocation (no revocation_endpoint in its metadata)"
		return out
	}
	if why := endpointRefused(as.RevocationEndpoint, rec.Resource); why != "" {
		out.Error = "the revocation_endpoint " + why + "; not sent"
		return out
	}
	d := &Discovery{ServerURL: rec.Resource, Resource: rec.Resource, Issuer: as.Issuer, AS: as}
	var failed []string
	for _, t := range []struct{ hint, value string }{{"refresh_token", rec.RefreshToken}, {"access_token", rec.AccessToken}} {
		if t.value == "" {
			continue
		}
		if err := f.revokeOne(ctx, d, rec, t.hint, t.value); err != nil {
			failed = append(failed, t.hint+": "+err.Error())
			continue
		}
		out.Revoked = append(out.Revoked, t.hint)
	}
	out.Error = strings.Join(failed, "; ")
	return out
}

// revokeOne sends one revocation request (RFC 7009 §2.1).
func (f *Flow) revokeOne(ctx context.Context, d *Discovery, rec *Record, hint, token string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.AS.RevocationEndpoint, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	form := url.Values{"token": {token}, "token_type_hint": {hint}}
	if err := f.clientAuth(req, form, d, rec); err != nil {
		return err
	}
	body := form.Encode()
	req.Body, req.ContentLength = readCloser(body), int64(len(body))
	reply, err := f.exchange(ctx, StepRevocation, req)
	if err != nil {
		return err
	}
	defer reply.Report()
	if reply.Status != http.StatusOK {
		what := fmt.Sprintf("HTTP %d", reply.Status)
		if te := tokenErrorOf(reply); te != "" {
			what += ": " + te
		}
		reply.Check("the server did not revoke the " + hint + " (" + what + ")")
		return fmt.Errorf("%s", what)
	}
	reply.Check("the server revoked the " + hint + " (or did not know it)")
	return nil
}

// tokenErrorOf is an OAuth error answer's error and description (RFC 6749 §5.2), "" when
// the body is not one.
func tokenErrorOf(reply *transport.AuthReply) string {
	var got struct {
		Error            string `json:"error"`
		ErrorDescription string `json:"error_description"`
	}
	if json.Unmarshal(reply.Body, &got) != nil || got.Error == "" {
		return ""
	}
	s := quoteCode(got.Error)
	if got.ErrorDescription != "" {
		s += " (" + strconv.Quote(got.ErrorDescription) + ")"
	}
	return s
}
