package auth

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/mcpscope/mcpscope/session/transport"
)

var _ transport.StoredCredential = (*Flow)(nil)

// tokenAnswerError is a token endpoint's refusal as reported, with its error code.
type tokenAnswerError struct {
	msg string
	te  *TokenError
}

func (e *tokenAnswerError) Error() string { return e.msg }
func (e *tokenAnswerError) Unwrap() error { return e.te }

// Fresh makes the next authorization start from nothing: the stored token is neither
// loaded nor presented, so the server's 401 starts a new authorization, and a
// dynamically registered client is registered again, since an authorization server that
// forgot the token (restarted with its state in memory, say) forgot the client too. The
// stored record is replaced when the authorization succeeds. It is what auth login does.
// The stored token's scopes are still asked for (the spec's scope union).
func (f *Flow) Fresh() {
	f.lookupStored()
	f.mu.Lock()
	defer f.mu.Unlock()
	f.prior = f.rec
	f.rec, f.stored, f.fresh = nil, "", true
}

// registerAgain reports whether a stored dynamic registration must not be reused.
func (f *Flow) registerAgain() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.fresh
}

// clientRefused notes a token request refused with invalid_client for rec's dynamically
// registered client: the authorization server no longer knows it, so the next
// authorization registers a new one instead of sending the browser to an error page.
func (f *Flow) clientRefused(rec *Record, err error) {
	var te *TokenError
	if !errors.As(err, &te) || te.Code != "invalid_client" || rec.ClientSource != ClientDynamic {
		return
	}
	f.mu.Lock()
	f.fresh = true
	f.mu.Unlock()
	f.note(fmt.Sprintf("the authorization server refused client %s (invalid_client): it is registered again at the next authorization", rec.ClientID))
}

// StoredHint implements transport.StoredCredential: when req carried the access token
// found in the store (from an earlier run), it says so and how to start afresh.
func (f *Flow) StoredHint(req *http.Request) string {
	_, sent, _ := strings.Cut(req.Header.Get("Authorization"), " ")
	f.mu.Lock()
	defer f.mu.Unlock()
	if sent == "" || f.stored == "" || sent != f.stored || f.rec == nil || f.rec.AccessToken != f.stored {
		return ""
	}
	when := ""
	if !f.rec.Saved.IsZero() {
		when = " on " + f.rec.Saved.Local().Format("2006-01-02 15:04")
	}
	return fmt.Sprintf("the request carried the access token stored%s; if the server no longer knows it (it restarted, say), run mcpscope auth login --url %s to authorize afresh",
		when, f.opts.ServerURL)
}
