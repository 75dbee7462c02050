package auth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
)

// clientKnown reports whether a stored dynamically registered client may be reused: the
// authorization server did not say it no longer knows it. When the registration gave a
// registration_client_uri and a registration_access_token, the registration is read back
// (RFC 7592 §2.1); a 401 there means the server no longer knows the client (it restarted
// with its clients in memory, say), and the browser would land on the server's error page
// instead of coming back, so the client is registered again. Any other answer, or none,
// keeps the client: the authorization tells.
func (f *Flow) clientKnown(ctx context.Context, rec *Record) bool {
	if rec.RegistrationClientURI == "" || rec.RegistrationAccessToken == "" {
		return true
	}
	if why := endpointRefused(rec.RegistrationClientURI, f.opts.ServerURL); why != "" {
		f.note("client: the stored registration_client_uri " + why + "; not read back")
		return true
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rec.RegistrationClientURI, nil)
	if err != nil {
		return true
	}
	req.Header.Set("Authorization", "Bearer "+rec.RegistrationAccessToken)
	req.Header.Set("Accept", "application/json")
	f.setStep(StepRegistration)
	reply, err := f.exchange(ctx, StepRegistration, req)
	if err != nil {
		return true
	}
	defer reply.Report()
	if reply.Status == http.StatusUnauthorized {
		reply.Check("the authorization server no longer knows client " + rec.ClientID + " (RFC 7592: 401): registering again")
		f.note(fmt.Sprintf("client: %s no longer knows client %s: registering again", rec.Issuer, rec.ClientID))
		return false
	}
	if reply.Status/100 == 2 {
		reply.Check("client " + rec.ClientID + " is still registered")
	}
	return true
}

// refreshRefused drops a refresh token the authorization server refused for good
// (invalid_grant, invalid_client, unauthorized_client: RFC 6749 §5.2) from memory and from
// the store, so it is not sent again: the next 401 authorizes instead of refreshing once
// more. A dynamically registered client refused as invalid_client is marked, so that no
// later run reuses it.
func (f *Flow) refreshRefused(rec *Record, err error) {
	var te *TokenError
	if !errors.As(err, &te) {
		return
	}
	switch te.Code {
	case "invalid_grant", "invalid_client", "unauthorized_client":
	default:
		return // server_error, a 5xx, no answer: it may work next time
	}
	nr := *rec
	nr.RefreshToken = ""
	if te.Code == "invalid_client" && rec.ClientSource == ClientDynamic {
		nr.ClientRefused = true
	}
	f.mu.Lock()
	if f.rec == rec {
		f.rec = &nr
	}
	f.mu.Unlock()
	f.update(func(s *Status) { s.HasRefresh = false })
	f.note(fmt.Sprintf("the authorization server refused the refresh token (%s): it is not sent again", quoteCode(te.Code)))
	if err := f.store.Put(&nr); err != nil {
		f.note("the refused refresh token could not be removed from the store: " + err.Error())
	}
}
