package auth

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session/browser"
	"github.com/mcpscope/mcpscope/session/secret"
	"github.com/mcpscope/mcpscope/session/transport"
)

// callbackPath is the loopback listener's path.
const callbackPath = "/callback"

// callback is the loopback listener that receives the authorization response, or, when
// none could be opened, the place a pasted response is read from.
type callback struct {
	redirectURI string
	ln          net.Listener // nil: paste mode
	capl        *capListener // ln's cap, which counts the connections it closed at once
	note        func(string) // the flow's note, for those
	srv         *http.Server
	got         chan url.Values

	mu       sync.Mutex
	state    string // the state sent; a response with another is refused
	taken    bool   // a response with the state was accepted: later ones are refused
	refusals int    // responses refused, the first few of which are reported
}

// maxRefusalsShown bounds the refused callback requests reported to the timeline (a flood
// of them is counted, not shown one by one).
const maxRefusalsShown = 3

// expect sets the state the authorization request carries.
func (c *callback) expect(state string) {
	c.mu.Lock()
	c.state = state
	c.mu.Unlock()
}

// accept takes one request to the listener: the first with the state sent is handed to
// the flow; one with another state (a forged or stale redirect) is refused and the flow
// keeps waiting; any after the accepted one is refused. It returns the page to show.
func (c *callback) accept(f *Flow, q url.Values) (int, string) {
	c.mu.Lock()
	state, taken := c.state, c.taken
	ok := !taken && state != "" && q.Get("state") == state
	if ok {
		c.taken = true
	} else {
		c.refusals++
	}
	n := c.refusals
	c.mu.Unlock()
	if ok {
		c.got <- q // capacity 1, and only one is ever accepted
		if e := q.Get("error"); e != "" {
			return http.StatusOK, "The authorization server answered " + e + ": " + explainAuthzError(e) + " mcpscope shows the details; you can close this window."
		}
		return http.StatusOK, "mcpscope received the authorization. You can close this window."
	}
	why := "its state is not the one mcpscope sent; mcpscope keeps waiting for the authorization it started"
	if taken {
		why = "mcpscope has already received the authorization"
	}
	if n <= maxRefusalsShown {
		ex := &transport.HTTPExchange{Step: string(StepCallback), Method: http.MethodGet, Status: http.StatusBadRequest, Started: time.Now(),
			URL:      (&url.URL{Scheme: "http", Host: strings.TrimPrefix(c.redirectURI[:strings.LastIndex(c.redirectURI, callbackPath)], "http://"), Path: callbackPath, RawQuery: secret.Params(q).Encode()}).String(),
			Problems: []transport.AuthProblem{{Code: protocol.FindAuthState, Text: "a redirect to the listener was refused: " + why}}}
		if n == maxRefusalsShown {
			ex.Problems[0].Text += " (further refusals are not shown)"
		}
		f.report(ex)
	}
	return http.StatusBadRequest, "This redirect was refused: " + why + "."
}

// explainAuthzError says in words what an authorization error code (RFC 6749 §4.1.2.1)
// means for the user.
func explainAuthzError(code string) string {
	switch code {
	case "access_denied":
		return "the authorization was denied (by you, or by the server's policy)."
	case "invalid_scope":
		return "the server does not accept the scopes requested (see --scope)."
	case "invalid_request", "unauthorized_client", "unsupported_response_type":
		return "the server refused the request of this client."
	case "server_error", "temporarily_unavailable":
		return "the server failed; try again later."
	}
	return "the authorization did not complete."
}

// close shuts the listener down, and notes how many connections its cap closed at once.
func (c *callback) close() {
	if c.srv == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = c.srv.Shutdown(ctx)
	if n := c.capl.shed.Load(); n > 0 {
		c.note(fmt.Sprintf("the callback listener closed %d connections at once, beyond the %d open", n, maxCallbackConns))
	}
}

// listen opens the loopback listener on 127.0.0.1: on the port of reuse (a redirect URI
// registered before) when it is free, else on CallbackPort, else on a random port. When
// no listener can be opened, the user pastes the response instead.
func (f *Flow) listen(ctx context.Context, reuse string) (*callback, error) {
	ports := []int{f.opts.CallbackPort}
	if u, err := url.Parse(reuse); err == nil && reuse != "" && f.opts.CallbackPort == 0 {
		if p, err := strconv.Atoi(u.Port()); err == nil {
			ports = []int{p, 0}
		}
	}
	var ln net.Listener
	var err error
	for _, p := range ports {
		if ln, err = net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p))); err == nil {
			break
		}
	}
	if err != nil {
		if f.opts.In == nil {
			return nil, fmt.Errorf("no loopback listener for the redirect (%v) and no terminal to paste the code into", err)
		}
		f.note(fmt.Sprintf("no loopback listener (%v): paste the address the browser ends on", err))
		port := "8080"
		if f.opts.CallbackPort != 0 {
			port = strconv.Itoa(f.opts.CallbackPort)
		}
		return &callback{redirectURI: "http://127.0.0.1:" + port + callbackPath}, nil
	}
	capl := &capListener{Listener: ln, max: maxCallbackConns, onShed: func() {
		f.note(fmt.Sprintf("the callback listener has %d connections open and closes more at once (a flood?): if the browser shows a connection error, reload its page once the flood ends", maxCallbackConns))
	}}
	ln = capl
	c := &callback{ln: ln, capl: capl, note: f.note, got: make(chan url.Values, 1),
		redirectURI: "http://" + ln.Addr().String() + callbackPath}
	mux := http.NewServeMux()
	mux.HandleFunc(callbackPath, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("Content-Security-Policy", "default-src 'none'")
		status, msg := c.accept(f, r.URL.Query())
		w.WriteHeader(status)
		_, _ = io.WriteString(w, "<!doctype html><title>mcpscope</title><p>"+html.EscapeString(msg)+"</p>")
	})
	// Only the browser's one redirect is expected: a slow or endless request is cut, header
	// size is bounded and so is the number of connections open at once (capListener), so a
	// flood of connections costs little.
	c.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second,
		WriteTimeout: 10 * time.Second, IdleTimeout: 5 * time.Second, MaxHeaderBytes: 16 << 10}
	go func() { _ = c.srv.Serve(ln) }()
	return c, nil
}

// randomString is n random bytes, base64url.
func randomString(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// AuthorizationURL builds the authorization request (PKCE S256, state, resource, scope).
func AuthorizationURL(endpoint, clientID, redirectURI, challenge, state, resource string, scopes []string) (string, error) {
	u, err := url.Parse(endpoint)
	if err != nil {
		return "", fmt.Errorf("authorization_endpoint %q: %w", endpoint, err)
	}
	q := u.Query()
	q.Set("response_type", "code")
	q.Set("client_id", clientID)
	q.Set("redirect_uri", redirectURI)
	q.Set("code_challenge", challenge)
	q.Set("code_challenge_method", "S256")
	q.Set("state", state)
	q.Set("resource", resource)
	if len(scopes) > 0 {
		q.Set("scope", strings.Join(scopes, " "))
	}
	u.RawQuery = q.Encode()
	return u.String(), nil
}

// code is an authorization code with the PKCE verifier it was obtained with.
type code struct {
	value, verifier string
}

// authorizeCode sends the user to the authorization endpoint and waits for the response.
func (f *Flow) authorizeCode(ctx context.Context, d *Discovery, rec *Record, cb *callback, scopes []string) (*code, error) {
	verifier := oauth2.GenerateVerifier()
	state := randomString(24)
	authURL, err := AuthorizationURL(d.AS.AuthorizationEndpoint, rec.ClientID, cb.redirectURI,
		oauth2.S256ChallengeFromVerifier(verifier), state, d.Resource, scopes)
	if err != nil {
		return nil, err
	}
	waitCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	f.mu.Lock()
	f.cancelW = cancel
	f.mu.Unlock()
	defer func() {
		f.mu.Lock()
		f.cancelW = nil
		f.mu.Unlock()
	}()
	cb.expect(state)
	f.update(func(s *Status) { s.State, s.Step, s.AuthorizeURL = StateWaiting, StepAuthorize, authURL })
	f.note(fmt.Sprintf("authorize: %s (client %s, scope %q, resource %s)", secret.URL(authURL), rec.ClientID, strings.Join(scopes, " "), d.Resource))
	if err := f.present(authURL, cb.ln == nil); err != nil {
		return nil, err
	}

	var q url.Values
	if cb.ln == nil {
		if q, err = f.readPasted(waitCtx); err != nil {
			return nil, err
		}
	} else {
		select {
		case q = <-cb.got:
		case <-waitCtx.Done():
			if ctx.Err() == nil {
				return nil, errors.New("the wait for the browser was cancelled")
			}
			return nil, fmt.Errorf("no answer from the browser: %w", ctx.Err())
		}
	}
	return f.checkCallback(d, cb, q, state, verifier)
}

// checkCallback validates the authorization response (state, then iss per RFC 9207,
// before anything else of it is used) and reports it as the callback step.
func (f *Flow) checkCallback(d *Discovery, cb *callback, q url.Values, state, verifier string) (*code, error) {
	shown := url.URL{Scheme: "http", Host: strings.TrimPrefix(strings.TrimPrefix(cb.redirectURI, "http://"), "https://")}
	shown.Host, _, _ = strings.Cut(shown.Host, "/")
	shown.Path, shown.RawQuery = callbackPath, secret.Params(q).Encode()
	ex := &transport.HTTPExchange{Step: string(StepCallback), Method: http.MethodGet, URL: shown.String(), Status: http.StatusOK, Started: time.Now()}
	defer func() { f.report(ex) }()
	problem := func(code, text string) error {
		ex.Problems = append(ex.Problems, transport.AuthProblem{Code: code, Text: text})
		return fmt.Errorf("%s: %s", code, text)
	}
	if q.Get("state") != state {
		return nil, problem(protocol.FindAuthState, "the state parameter is not the one sent")
	}
	ex.Checks = append(ex.Checks, "state matches")
	iss, hasIss := q.Get("iss"), q.Has("iss")
	switch {
	case hasIss && iss != d.AS.Issuer:
		return nil, problem(protocol.FindAuthIssuerMismatch, fmt.Sprintf("iss %q is not the authorization server's issuer %q; the response is ignored", iss, d.AS.Issuer))
	case hasIss:
		ex.Checks = append(ex.Checks, "iss matches the issuer")
	case d.AS.AuthorizationResponseIssParameterSupported:
		return nil, problem(protocol.FindAuthIssMissing, "the server advertises the iss parameter but the response has none; the response is ignored")
	default:
		ex.Checks = append(ex.Checks, "no iss (not advertised)")
	}
	if e := q.Get("error"); e != "" {
		desc := ""
		if d := q.Get("error_description"); d != "" {
			desc = " (" + strconv.Quote(d) + ")"
		}
		return nil, fmt.Errorf("the authorization server answered %s%s: %s", quoteCode(e), desc, explainAuthzError(e))
	}
	c := q.Get("code")
	if c == "" {
		return nil, errors.New("the authorization response has no code")
	}
	return &code{value: c, verifier: verifier}, nil
}

// report hands an exchange the flow did not make through the transport to the timeline.
func (f *Flow) report(ex *transport.HTTPExchange) {
	f.mu.Lock()
	x := f.x
	f.mu.Unlock()
	if x != nil {
		x.AuthReport(ex)
	}
}

// present opens the browser on the URL, or prints it (--no-browser, over ssh, or when no
// browser opens). A browser that does not open is said to have failed, never to have
// opened; unattended (no one at a terminal to open the address) that ends the
// authorization with ErrBrowserFailed.
func (f *Flow) present(authURL string, paste bool) error {
	out := f.opts.Out
	if out == nil {
		out = io.Discard
	}
	if !f.opts.NoBrowser && os.Getenv("SSH_CONNECTION") == "" {
		open := f.opts.OpenBrowser
		if open == nil {
			open = browser.Open
		}
		err := open(authURL)
		if err == nil {
			fmt.Fprintf(out, "mcpscope: opened the browser to authorize; if it did not open, visit:\n  %s\n", authURL)
			if paste {
				fmt.Fprintf(out, "mcpscope: then paste the address the browser ends on (or the code) here: ")
			}
			return nil
		}
		f.note("the browser did not open: " + err.Error())
		if f.opts.Unattended && !f.opts.NoBrowser {
			fmt.Fprintf(out, "mcpscope: could not open the browser (%v)\n", err)
			return fmt.Errorf("%w (%v): %s (--no-browser prints the address)", ErrBrowserFailed, err, loginHint)
		}
		fmt.Fprintf(out, "mcpscope: could not open the browser (%v)\n", err)
	} else if f.opts.Unattended && !f.opts.NoBrowser {
		return ErrUnattended // over ssh, with no one at a terminal to open the address
	}
	fmt.Fprintf(out, "mcpscope: to authorize, open this address in a browser:\n  %s\n", authURL)
	if paste {
		fmt.Fprintf(out, "mcpscope: then paste the address the browser ends on (or the code) here: ")
	}
	return nil
}

// readPasted reads the authorization response the user pastes: the address the browser
// ended on, its query, or the bare code.
func (f *Flow) readPasted(ctx context.Context) (url.Values, error) {
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(f.opts.In).ReadString('\n')
		line <- strings.TrimSpace(s)
	}()
	select {
	case s := <-line:
		if s == "" {
			return nil, errors.New("nothing was pasted")
		}
		if u, err := url.Parse(s); err == nil && u.RawQuery != "" {
			return u.Query(), nil
		}
		if q, err := url.ParseQuery(strings.TrimPrefix(s, "?")); err == nil && q.Has("code") {
			return q, nil
		}
		return url.Values{"code": {s}}, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
