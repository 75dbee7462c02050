package transport

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/session/secret"
)

// DefaultMaxRedirects bounds the redirects followed for one request.
const DefaultMaxRedirects = 10

// redirectDrain bounds the bytes of a redirect's body read (to reuse the connection)
// before it is closed.
const redirectDrain = 64 << 10

// Redirect describes the redirect an exchange was answered with.
type Redirect struct {
	// Location is the resolved target (secrets masked); "" when the answer had none.
	Location string
	// CrossOrigin: the target's origin (scheme, host and port) differs from the origin the
	// request was first made to.
	CrossOrigin bool
	// Followed: the next exchange of the request goes to Location.
	Followed bool
	// Withheld names what was not sent to the other origin: the -H header names,
	// "Authorization" (the bearer token) and the authorizer's credentials.
	Withheld []string
	// Forwarded names the credentials sent to another origin because
	// FollowRedirectsWithCredentials allowed it.
	Forwarded []string
	// NotFollowed says why the redirect was not followed, when it was not.
	NotFollowed string
}

// noAutoRedirect makes the client hand every redirect back, so that each hop is decided,
// built and reported here.
func noAutoRedirect(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// TooManyRedirectsError ends a request that was redirected more than the bound allows.
type TooManyRedirectsError struct {
	Method, URL string // the request as first made (URL masked)
	Max         int
	Last        string // the Location not followed (masked)
}

func (e *TooManyRedirectsError) Error() string {
	return fmt.Sprintf("%s %s: stopped after %d redirects (the next was to %s); raise --max-redirects if this is expected",
		e.Method, e.URL, e.Max, e.Last)
}

// isRedirect reports the statuses that carry a Location to follow.
func isRedirect(status int) bool {
	switch status {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		return true
	}
	return false
}

// sameOrigin compares scheme, host and port (default ports made explicit).
func sameOrigin(a, b *url.URL) bool {
	return a.Scheme == b.Scheme && hostPort(a) == hostPort(b)
}

func hostPort(u *url.URL) string {
	if u.Port() != "" {
		return u.Host
	}
	if u.Scheme == "https" {
		return u.Hostname() + ":443"
	}
	return u.Hostname() + ":80"
}

// hop is one request of a redirect chain.
type hop struct {
	n           int // 0 for the request as made
	url         *url.URL
	credentials bool // the user's headers, bearer token and authorizer go on this hop
	cross       bool // the hop is on another origin than the first
}

// send makes r, following redirects: 307 and 308 for any method (with the body), 301,
// 302 and 303 only for GET (a POST's JSON-RPC message would be lost as a GET). Every hop
// is reported as its own exchange. Credentials (the -H headers, the bearer token, the
// authorizer's headers) go to the request's own origin; on another origin only with
// FollowRedirectsWithCredentials. A redirect not followed is returned as the response it is.
// The Redirect returned is the one on the way that withheld credentials, if any.
func (c *httpCore) send(ctx context.Context, r request) (*http.Response, uint64, *Redirect, error) {
	first, err := url.Parse(r.url)
	if err != nil {
		return nil, 0, nil, fmt.Errorf("%s %s: %w", r.method, secret.URL(r.url), err)
	}
	h := hop{url: first, credentials: true}
	var withheld *Redirect
	for {
		resp, ex, err := c.sendHop(ctx, r, h)
		if err != nil {
			return nil, 0, nil, err
		}
		if !isRedirect(resp.StatusCode) {
			c.sink.HTTP(ex)
			return resp, ex.ID, withheld, nil
		}
		next, rd := c.redirect(r, h, resp)
		ex.Redirect = rd
		if rd.NotFollowed == tooMany {
			c.sink.HTTP(ex)
			drain(resp)
			return nil, 0, nil, &TooManyRedirectsError{Method: r.method, URL: secret.URL(r.url), Max: c.maxRedirects, Last: rd.Location}
		}
		c.sink.HTTP(ex)
		if next == nil {
			return resp, ex.ID, withheld, nil
		}
		if len(rd.Withheld) > 0 {
			withheld = rd
		}
		drain(resp)
		h = *next
	}
}

// hint explains a 401 or 403 from an origin a redirect led to without the credentials.
func (r *response) hint() string {
	if r.withheld == nil || (r.StatusCode != http.StatusUnauthorized && r.StatusCode != http.StatusForbidden) {
		return r.stored
	}
	return fmt.Sprintf("the request was redirected to %s, which was not sent %s; --follow-redirects-with-credentials sends them",
		r.withheld.Location, strings.Join(r.withheld.Withheld, ", "))
}

const tooMany = "too many redirects"

// redirect decides where a redirect answer leads: the next hop, or nil when it is not
// followed (with the reason in the Redirect).
func (c *httpCore) redirect(r request, h hop, resp *http.Response) (*hop, *Redirect) {
	rd := &Redirect{}
	loc := resp.Header.Get("Location")
	if loc == "" {
		rd.NotFollowed = "the answer has no Location header"
		return nil, rd
	}
	target, err := h.url.Parse(loc)
	if err != nil || (target.Scheme != "http" && target.Scheme != "https") {
		rd.Location = secret.URL(loc)
		rd.NotFollowed = "Location is not an http(s) URL"
		return nil, rd
	}
	first, _ := url.Parse(r.url)
	rd.Location, rd.CrossOrigin = secret.URL(target.String()), !sameOrigin(first, target)
	switch {
	case h.n >= c.maxRedirects:
		rd.NotFollowed = tooMany
		return nil, rd
	case resp.StatusCode != http.StatusTemporaryRedirect && resp.StatusCode != http.StatusPermanentRedirect && r.method != http.MethodGet:
		rd.NotFollowed = fmt.Sprintf("a %d answer to %s would be followed as a GET without the body, losing the message; a server that moves its endpoint should answer 307 or 308, which keep the method and body",
			resp.StatusCode, r.method)
		return nil, rd
	}
	rd.Followed = true
	next := &hop{n: h.n + 1, url: target, cross: rd.CrossOrigin, credentials: !rd.CrossOrigin || c.opts.FollowRedirectsWithCredentials}
	if names := c.credentialNames(); rd.CrossOrigin && len(names) > 0 {
		if next.credentials {
			rd.Forwarded = names
		} else {
			rd.Withheld = names
		}
	}
	return next, rd
}

// credentialNames lists what the user's credentials consist of, for a Redirect.
func (c *httpCore) credentialNames() []string {
	var out []string
	for name := range c.opts.Headers {
		out = append(out, http.CanonicalHeaderKey(name))
	}
	if c.opts.BearerToken != "" && !slices.Contains(out, "Authorization") {
		out = append(out, "Authorization")
	}
	slices.Sort(out)
	if c.opts.Auth != nil {
		out = append(out, "the authorizer's credentials")
	}
	return out
}

// drain reads a little of a redirect's body, so the connection can be reused, and closes it.
func drain(resp *http.Response) {
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, redirectDrain))
	_ = resp.Body.Close()
}

// sendHop builds, authorizes and sends one request of a chain. The exchange is returned
// for the caller to complete and report, except on failure, where it is reported here.
func (c *httpCore) sendHop(ctx context.Context, r request, h hop) (*http.Response, *HTTPExchange, error) {
	shown := secret.URL(h.url.String())
	var body io.Reader
	if r.body != nil {
		body = bytes.NewReader(r.body)
	}
	if r.wrote != nil {
		ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{WroteRequest: func(httptrace.WroteRequestInfo) { r.wrote() }})
	}
	req, err := http.NewRequestWithContext(ctx, r.method, h.url.String(), body)
	if err != nil {
		return nil, nil, fmt.Errorf("%s %s: %w", r.method, shown, maskURLError(err))
	}
	req.Header = r.header.Clone()
	if req.Header == nil {
		req.Header = http.Header{}
	}
	req.Header.Set("User-Agent", userAgent)
	if h.credentials {
		for name, values := range c.opts.Headers {
			req.Header[http.CanonicalHeaderKey(name)] = append([]string(nil), values...)
		}
		if host := req.Header.Get("Host"); host != "" && !h.cross {
			req.Host = host // Go sends Host from req.Host, not from the header map
		}
		if c.opts.BearerToken != "" {
			req.Header.Set("Authorization", "Bearer "+c.opts.BearerToken)
		}
	}
	ex := &HTTPExchange{ID: exchangeIDs.Add(1), Purpose: r.purpose, Method: r.method, URL: shown, Hop: h.n, Started: time.Now()}
	if c.opts.Auth != nil && h.credentials {
		if err := c.opts.Auth.Authorize(req); err != nil {
			ex.ReqHeaders, ex.Err = secret.Headers(req.Header), "authorize: "+err.Error()
			c.sink.HTTP(ex)
			return nil, nil, fmt.Errorf("%s %s: authorize: %w", r.method, shown, err)
		}
	}
	ex.ReqHeaders = secret.Headers(req.Header)
	resp, err := c.client.Do(req)
	ex.Duration = time.Since(ex.Started)
	if err != nil {
		err = maskURLError(err)
		ex.Err = err.Error()
		c.sink.HTTP(ex)
		return nil, nil, err
	}
	ex.Status = resp.StatusCode
	ex.RespHeaders = secret.Headers(resp.Header)
	if loc := ex.RespHeaders.Get("Location"); loc != "" {
		ex.RespHeaders.Set("Location", secret.URL(loc))
	}
	ex.ContentType = resp.Header.Get("Content-Type")
	return resp, ex, nil
}

// maskURLError masks the URL a *url.Error carries (the client's errors name the URL).
func maskURLError(err error) error {
	if ue, ok := err.(*url.Error); ok {
		c := *ue
		c.URL = secret.URL(ue.URL)
		return &c
	}
	return err
}
