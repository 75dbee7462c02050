package auth

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// maxStepUpsAll bounds the step-up authorizations of one flow when each 403 asks for a
// scope set not seen before.
const maxStepUpsAll = 5

// maxFreshRefused is how many tokens in a row the server may refuse as soon as they are
// issued before mcpscope stops authorizing again (Login, the user's own, starts afresh).
const maxFreshRefused = 2

// freshWindow: a token refused within this time of being issued is a fresh one refused.
const freshWindow = time.Minute

// refusedFresh counts a 401 for the token sent, and returns an error once the server has
// refused maxFreshRefused tokens in a row just after they were issued (no refresh, no
// new authorization, no browser: they would be refused as well).
func (f *Flow) refusedFresh(sent string, ch Challenge) error {
	f.mu.Lock()
	rec := f.rec
	fresh := sent != "" && rec != nil && rec.AccessToken == sent && !rec.Saved.IsZero() && f.opts.Now().Sub(rec.Saved) < freshWindow
	if !fresh {
		f.freshRefused = 0
		f.mu.Unlock()
		return nil
	}
	f.freshRefused++
	n := f.freshRefused
	f.mu.Unlock()
	if n < maxFreshRefused {
		return nil
	}
	err := fmt.Errorf("the server refused %d tokens in a row as soon as %s issued them%s; not authorizing again (the token may be for another resource or audience; mcpscope auth login tries anew)", n, rec.Issuer, challengeWhy(ch))
	f.fail(err)
	return &Error{Err: err}
}

// Refused implements transport.AuthRefusal: a 401 to the request retried with new
// credentials. When the token sent was issued just now, the refusal is counted (see
// refusedFresh) and explained.
func (f *Flow) Refused(resp *http.Response) error {
	sent := ""
	if resp.Request != nil {
		_, sent, _ = strings.Cut(resp.Request.Header.Get("Authorization"), " ")
	}
	ch, _ := BearerChallenge(resp.Header)
	if err := f.refusedFresh(sent, ch); err != nil {
		return err
	}
	f.mu.Lock()
	n, issuer := f.freshRefused, ""
	if f.rec != nil {
		issuer = f.rec.Issuer
	}
	f.mu.Unlock()
	if n == 0 {
		return nil
	}
	err := fmt.Errorf("the server refused the token %s has just issued%s", issuer, challengeWhy(ch))
	f.fail(err)
	return &Error{Err: err}
}

// challengeWhy is a challenge's error and description, quoted, for a message.
func challengeWhy(ch Challenge) string {
	if e := ch.Error(); e != "" {
		return " (" + strconv.Quote(strings.TrimSpace(e+" "+ch.Params["error_description"])) + ")"
	}
	return ""
}
