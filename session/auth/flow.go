package auth

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mcpscope/mcpscope/session/secret"
	"github.com/mcpscope/mcpscope/session/transport"
)

// Options configure the authorization of one server.
type Options struct {
	// ServerURL is the MCP endpoint.
	ServerURL string
	// Store keeps tokens and registered clients; nil keeps them in memory for the process.
	Store Store
	// ClientID and ClientSecret are a pre-registered client (--client-id, --client-secret).
	ClientID     string
	ClientSecret string
	// ClientMetadataURL is the client's Client ID Metadata Document URL
	// (--client-metadata-url), used as client_id where the server supports it.
	ClientMetadataURL string
	// Scopes, when set, replace the scope selection (--scope).
	Scopes []string
	// Eager authorizes before the first request instead of on the first 401 (--auth).
	Eager bool
	// NoPrompt never starts an authorization that needs the user (--no-auth-prompt): a
	// stored token is used and refreshed, nothing more.
	NoPrompt bool
	// NoBrowser prints the authorization URL instead of opening a browser (--no-browser);
	// it is also printed when SSH_CONNECTION is set.
	NoBrowser bool
	// Unattended: no person is at a terminal (stdin or stderr is not one). An authorization
	// that needs the user then fails at once (ErrUnattended) unless the login was asked for
	// (Asked), $BROWSER names the program that opens the address, or NoBrowser asks for the
	// address to be printed; and a browser that does not open ends it at once
	// (ErrBrowserFailed) instead of waiting for a person who is not there.
	Unattended bool
	// Asked: the user asked for this login (auth login), so it is started even unattended.
	Asked bool
	// CallbackPort is the loopback listener's port; 0 picks a free one (--callback-port).
	CallbackPort int
	// Out receives what the user must read (the URL to open); nil discards it.
	Out io.Writer
	// In is read for a pasted code when no loopback listener can be opened; nil: none.
	In io.Reader
	// OpenBrowser opens a URL; nil uses browser.Open ($BROWSER, then xdg-open or open).
	OpenBrowser func(url string) error
	// ClientName is the client_name registered; default "mcpscope".
	ClientName string
	// MaxStepUps bounds the step-up authorizations for one scope set (default 2).
	MaxStepUps int
	// Grant, when set, obtains tokens instead of the authorization code flow (the
	// extension grants: client credentials, enterprise-managed, workload identity).
	Grant Grant
	// TokenAuth, when set, authenticates the client at the token endpoint instead of the
	// built-in client_secret_basic, client_secret_post and none (private_key_jwt).
	TokenAuth TokenAuth
	// DPoP is DPoPAuto (default: bind tokens when the authorization server supports
	// DPoP), DPoPOn or DPoPOff (--dpop).
	DPoP string
	// Now is the clock; nil is time.Now.
	Now func() time.Time
}

// Grant obtains a token without the user, for the extension grants.
type Grant interface {
	Token(ctx context.Context, f *Flow, d *Discovery) (*Token, error)
}

// TokenAuth authenticates the client at the token endpoint: it may set headers of req and
// members of form (client_assertion, ...).
type TokenAuth interface {
	Apply(req *http.Request, form map[string][]string, d *Discovery, rec *Record) error
}

// Flow is the authorization of one server: it implements transport.Authorizer (and
// AuthBinder) for the HTTP transports, and Controller for the user.
type Flow struct {
	opts  Options
	store Store

	mu          sync.Mutex
	x           transport.AuthExchanger
	rec         *Record    // the current client and tokens; nil before any
	disc        *Discovery // the last discovery
	status      Status
	ch          Challenge // the last challenge
	asked       []string  // scopes requested by the last authorization
	stepUps     map[string]int
	looked      bool          // the store was searched for this server
	running     *run          // the authorization in progress
	refreshing  *run          // the refresh in progress
	cancelW     func()        // ends the wait for the browser
	held        bool          // the user stopped a wait: no new login until Login
	changed     chan struct{} // capacity 1
	triedPre    bool          // Eager: the authorization before the first request ran
	dpop        *DPoPKey      // the key tokens are bound to (DPoP); nil when none
	dpopOffered bool          // a 401 offered the DPoP scheme
	logins      int           // authorizations that succeeded
	stepUpsAll  int           // step-up authorizations, whatever their scope set
	// freshRefused counts, in a row, tokens the server refused with 401 right after they
	// were issued; a server that refuses every new token is not authorized again for ever.
	freshRefused int
	// challenged: the server has answered 401 or 403 (so a server without resource
	// metadata is a 2025-03-26 one, not one without authorization).
	challenged bool
	// stored is the access token lookupStored found in the store, while it is the current
	// one ("" once a token of this process replaced it), for StoredHint.
	stored string
	// fresh: register a dynamically registered client again instead of reusing the stored
	// registration (Fresh, or the authorization server refused it as invalid_client).
	fresh bool
	prior *Record // the stored record Fresh set aside: its scopes are asked for again
	// stopped is the failure that ended the last authorization (denied, an error of the
	// authorization server, ...): no other starts until Login, so one command asks once.
	stopped  *Error
	failStep Step // the step the last failure happened at

	// life ends with the transport (CloseAuth): an authorization under way stops with it,
	// and none starts after; working counts the authorization goroutines, which CloseAuth
	// waits for, so no login writes to the store once the session is gone (a refresh or a
	// logout the user asked for is the caller's to wait for).
	life    context.Context
	end     context.CancelFunc
	working sync.WaitGroup
}

// Logins counts the authorizations that succeeded in this process.
func (f *Flow) Logins() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.logins
}

// run is one authorization in progress; callers wait on done.
type run struct {
	done chan struct{}
	err  error
	step Step // the step err happened at
}

var (
	_ transport.Authorizer  = (*Flow)(nil)
	_ transport.AuthBinder  = (*Flow)(nil)
	_ transport.AuthRefusal = (*Flow)(nil)
	_ Controller            = (*Flow)(nil)
)

// ErrNoMetadata: authorization was asked for before the server asked, and it publishes no
// protected resource metadata at the well-known locations.
var ErrNoMetadata = errors.New("the server publishes no protected resource metadata at the well-known locations and has not asked for authorization")

// ErrClosed: the session the authorization was for has closed.
var ErrClosed = errors.New("the session closed before it was authorized")

// ErrNoPrompt: authorization is needed and --no-auth-prompt forbids asking the user.
var ErrNoPrompt = errors.New("the server requires authorization and --no-auth-prompt is set (run mcpscope auth login)")

// ErrUnattended: authorization is needed, and no one is at a terminal to complete it.
var ErrUnattended = errors.New("the server requires authorization and no one is at a terminal to log in: " + loginHint)

// ErrBrowserFailed: the browser could not be opened on the authorization address, and no
// one is at a terminal to open it by hand.
var ErrBrowserFailed = errors.New("the browser did not open to authorize, and no one is at a terminal to open the address")

// loginHint is what to do when a login is needed and cannot happen here.
const loginHint = "log in first with mcpscope auth login; in scripts, --no-auth-prompt never waits for a login"

// NeedsLogin reports whether err is an authorization that needed a login no one could give
// (--no-auth-prompt, no terminal, no browser): the server is fine, a login is missing.
func NeedsLogin(err error) bool {
	return errors.Is(err, ErrNoPrompt) || errors.Is(err, ErrUnattended) || errors.Is(err, ErrBrowserFailed)
}

// New returns the flow of a server.
func New(o Options) *Flow {
	if o.ClientName == "" {
		o.ClientName = "mcpscope"
	}
	if o.MaxStepUps <= 0 {
		o.MaxStepUps = 2
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	st := o.Store
	if st == nil {
		st = NewMemStore()
	}
	f := &Flow{opts: o, store: st, changed: make(chan struct{}, 1), stepUps: map[string]int{}}
	f.life, f.end = context.WithCancel(context.Background())
	f.status = Status{State: StateNone, Store: st.Describe()}
	return f
}

// BindAuth implements transport.AuthBinder.
func (f *Flow) BindAuth(x transport.AuthExchanger) {
	f.mu.Lock()
	f.x = x
	f.mu.Unlock()
}

// exchange makes one request of the flow through the transport, labelled with step.
func (f *Flow) exchange(ctx context.Context, step Step, req *http.Request) (*transport.AuthReply, error) {
	f.mu.Lock()
	x := f.x
	f.mu.Unlock()
	if x == nil {
		return nil, errors.New("authorization: the transport has not started")
	}
	return x.AuthExchange(ctx, string(step), req)
}

// note reports a step of the flow that is not an HTTP exchange.
func (f *Flow) note(text string) {
	f.mu.Lock()
	x := f.x
	f.mu.Unlock()
	if x != nil {
		x.AuthNote(text)
	}
}

// Authorize implements transport.Authorizer: it adds the access token, refreshing it
// first when it is about to expire, and with Eager authorizes before the first request.
func (f *Flow) Authorize(req *http.Request) error {
	f.lookupStored()
	f.mu.Lock()
	eager := f.opts.Eager && !f.triedPre && (f.rec == nil || f.rec.AccessToken == "")
	if eager {
		f.triedPre = true
	}
	f.mu.Unlock()
	if eager {
		if err := f.authorize(req.Context(), Challenge{}, nil, false); errors.Is(err, ErrNoMetadata) {
			f.note("--auth: " + err.Error() + "; authorizing when the server asks")
			f.update(func(s *Status) { s.State, s.LastError = StateNone, "" })
		} else if err != nil {
			return err
		}
	}
	f.mu.Lock()
	rec := f.rec
	due := rec != nil && rec.RefreshToken != "" && !rec.Expiry.IsZero() && f.opts.Now().After(rec.Expiry.Add(-refreshMargin(rec)))
	f.mu.Unlock()
	if due {
		if err := f.refreshFrom(req.Context(), rec.AccessToken); err != nil {
			f.note("refresh before expiry failed: " + err.Error())
		}
	}
	f.mu.Lock()
	rec = f.rec
	f.mu.Unlock()
	if rec != nil && rec.AccessToken != "" {
		return f.presentToken(req, rec.TokenType, rec.AccessToken)
	}
	return nil
}

// Unauthorized implements transport.Authorizer: on a 401 it refreshes the token when it
// can, else authorizes (unless NoPrompt), and asks for the request to be retried.
func (f *Flow) Unauthorized(ctx context.Context, resp *http.Response) (bool, error) {
	if f.dpopUnauthorized(resp) {
		return true, nil
	}
	ch, _ := BearerChallenge(resp.Header)
	sent := ""
	if resp.Request != nil {
		_, sent, _ = strings.Cut(resp.Request.Header.Get("Authorization"), " ")
	}
	f.mu.Lock()
	f.ch = ch
	cur, running := "", f.running != nil
	if f.rec != nil {
		cur = f.rec.AccessToken
	}
	canRefresh := sent != "" && !running && f.rec != nil && f.rec.RefreshToken != ""
	f.mu.Unlock()
	if sent != "" && cur != "" && cur != sent && !running {
		return true, nil // another request renewed the token meanwhile
	}
	if err := f.refusedFresh(sent, ch); err != nil {
		return false, err
	}
	if canRefresh {
		err := f.refreshFrom(ctx, sent)
		if err == nil {
			return true, nil
		}
		f.note("refresh failed, authorizing again: " + err.Error())
	}
	if err := f.heldErr(); err != nil {
		return false, err
	}
	if err := f.authorize(ctx, ch, nil, true); err != nil {
		return false, err
	}
	return true, nil
}

// ErrHeld: the user stopped the wait for the browser, and the server asked again.
var ErrHeld = errors.New("the login was stopped; log in again from the Auth page (l) or with mcpscope auth login")

// heldErr is ErrHeld, as an authorization failure, while the user's stop holds.
func (f *Flow) heldErr() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.held {
		return &Error{Err: ErrHeld, Step: StepAuthorize}
	}
	return nil
}

// Forbidden implements transport.Authorizer: on a 403 insufficient_scope it authorizes
// again for the union of the scopes asked before and the challenged ones, at most
// MaxStepUps times for one scope set.
func (f *Flow) Forbidden(ctx context.Context, resp *http.Response) (bool, error) {
	ch, ok := BearerChallenge(resp.Header)
	if !ok || ch.Error() != "insufficient_scope" {
		return false, nil
	}
	sent := ""
	if resp.Request != nil {
		_, sent, _ = strings.Cut(resp.Request.Header.Get("Authorization"), " ")
	}
	f.mu.Lock()
	if f.rec != nil && sent != "" && f.rec.AccessToken != sent && f.running == nil {
		f.mu.Unlock()
		return true, nil // another request stepped up meanwhile
	}
	want := union(f.asked, ch.Scopes())
	if f.rec != nil {
		want = union(union(f.rec.Scopes, f.asked), ch.Scopes())
	}
	key := strings.Join(want, " ")
	f.stepUps[key]++
	n := f.stepUps[key]
	f.stepUpsAll++
	all := f.stepUpsAll
	f.ch = ch
	f.mu.Unlock()
	if all > maxStepUpsAll {
		err := fmt.Errorf("the server has answered 403 insufficient_scope %d times, asking for ever more scope (now %q); giving up", all, ch.Params["scope"])
		f.fail(err)
		return false, &Error{Err: err, Step: StepStepUp}
	}
	if n > f.opts.MaxStepUps {
		err := fmt.Errorf("the server still answers 403 insufficient_scope (scope %q) after %d step-up authorizations; giving up", ch.Params["scope"], f.opts.MaxStepUps)
		f.fail(err)
		return false, &Error{Err: err, Step: StepStepUp}
	}
	if err := f.heldErr(); err != nil {
		return false, err
	}
	f.note(fmt.Sprintf("403 insufficient_scope: stepping up to scope %q (attempt %d of %d)", key, n, f.opts.MaxStepUps))
	if err := f.authorize(ctx, ch, want, true); err != nil {
		return false, err
	}
	return true, nil
}

// authorize runs (or joins) an authorization for the challenge; scopes, when set, are
// requested instead of the selection (step-up). challenged: the server answered 401 or 403
// (without, a server publishing no resource metadata is not authorized). A flow already
// running is joined.
func (f *Flow) authorize(ctx context.Context, ch Challenge, scopes []string, challenged bool) error {
	f.mu.Lock()
	if challenged {
		f.challenged = true
	}
	r := f.running
	if r == nil {
		if err := f.life.Err(); err != nil {
			f.mu.Unlock()
			return &Error{Err: ErrClosed}
		}
		if st := f.stopped; st != nil {
			f.mu.Unlock()
			return &Error{Err: stoppedError{st.Err}, Step: st.Step}
		}
		if f.opts.NoPrompt && f.opts.Grant == nil {
			f.mu.Unlock()
			f.fail(ErrNoPrompt)
			return &Error{Err: ErrNoPrompt, Step: StepAuthorize}
		}
		if f.unattended() {
			f.mu.Unlock()
			f.fail(ErrUnattended)
			return &Error{Err: ErrUnattended, Step: StepAuthorize}
		}
		r = &run{done: make(chan struct{})}
		f.running = r
		// The authorization outlives the request that needed it (a short probe, say): the
		// next request joins it instead of starting over.
		f.working.Add(1)
		go func() {
			defer f.working.Done()
			ctx, cancel := context.WithTimeout(f.life, 10*time.Minute)
			defer cancel()
			r.err = f.login(ctx, ch, scopes, challenged)
			if r.err != nil && f.life.Err() != nil {
				r.err = ErrClosed // whatever step the close cut short
			}
			f.mu.Lock()
			if r.err == nil {
				f.logins++
			} else {
				r.step = f.failStep
				if stops(r.err) {
					f.stopped = &Error{Err: r.err, Step: r.step}
				}
			}
			f.running = nil
			f.mu.Unlock()
			close(r.done)
		}()
	}
	f.mu.Unlock()
	select {
	case <-r.done:
		if r.err != nil {
			return &Error{Err: r.err, Step: r.step}
		}
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// unattended: an authorization that needs the user would wait for no one (Unattended),
// so it does not start: not asked for, no grant, no $BROWSER to open the address, and no
// --no-browser asking for it to be printed.
func (f *Flow) unattended() bool {
	o := f.opts
	return o.Unattended && !o.Asked && o.Grant == nil && !o.NoBrowser && os.Getenv("BROWSER") == ""
}

// CloseAuth implements transport.AuthCloser: the transport is closing, so an
// authorization under way stops (its browser wait, its listener, its requests) and none
// starts after. It returns once the authorization's goroutine is over, or when ctx ends.
func (f *Flow) CloseAuth(ctx context.Context) error {
	f.mu.Lock() // authorize checks life and counts a goroutine under the lock
	f.end()
	f.mu.Unlock()
	done := make(chan struct{})
	go func() { f.working.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("close: waiting for the authorization to stop: %w", ctx.Err())
	}
}

// lookupStored loads, once, the stored record of this server: the one whose resource
// covers the server URL most specifically.
func (f *Flow) lookupStored() {
	f.mu.Lock()
	if f.looked {
		f.mu.Unlock()
		return
	}
	f.looked = true
	f.mu.Unlock()
	keys, err := f.store.List()
	if err != nil {
		return
	}
	var rec *Record
	for _, k := range keys {
		if !ResourceMatches(k.Resource, f.opts.ServerURL) {
			continue
		}
		r, ok, err := f.store.Get(k)
		if err != nil || !ok || r.AccessToken == "" {
			continue
		}
		// The most specific resource; of equals, the latest saved (after a migration).
		if rec == nil || len(k.Resource) > len(rec.Resource) || (len(k.Resource) == len(rec.Resource) && r.Saved.After(rec.Saved)) {
			rec = r
		}
	}
	if rec == nil {
		return
	}
	f.restoreDPoP(rec)
	f.mu.Lock()
	if f.rec == nil {
		f.rec, f.stored = rec, rec.AccessToken
	}
	f.mu.Unlock()
	f.setAuthorized(rec, nil)
}

// setAuthorized records rec as current in the status.
func (f *Flow) setAuthorized(rec *Record, asked []string) {
	f.update(func(s *Status) {
		s.State, s.Step, s.AuthorizeURL, s.LastError = StateAuthorized, "", "", ""
		s.Resource, s.Issuer, s.ClientID, s.ClientSource = rec.Resource, rec.Issuer, rec.ClientID, rec.ClientSource
		s.ScopesGranted, s.TokenType, s.Expiry, s.HasRefresh = slices.Clone(rec.Scopes), rec.TokenType, rec.Expiry, rec.RefreshToken != ""
		s.TokenMasked = MaskToken(rec.AccessToken)
		if asked != nil {
			s.ScopesRequested = slices.Clone(asked)
		}
	})
}

// MaskToken shows a token as its first four characters and its length.
func MaskToken(tok string) string {
	if tok == "" {
		return ""
	}
	if len(tok) <= 12 {
		return secret.Mask + fmt.Sprintf("(%d bytes)", len(tok))
	}
	return tok[:4] + "…" + fmt.Sprintf("(%d bytes)", len(tok))
}

// union is a ∪ b, in order of first appearance.
func union(a, b []string) []string {
	var out []string
	for _, s := range append(slices.Clone(a), b...) {
		if s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// refreshMargin is how long before its expiry a token is refreshed: 30 seconds, or a
// quarter of the token's lifetime when that is shorter, so a token that lives only
// seconds is still used for most of them.
func refreshMargin(rec *Record) time.Duration {
	margin := 30 * time.Second
	if life := rec.Expiry.Sub(rec.Saved); !rec.Saved.IsZero() && life > 0 && life/4 < margin {
		margin = life / 4
	}
	return margin
}
