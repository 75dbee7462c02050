package transport

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/mcpscope/mcpscope/session/secret"
)

// authBodyLimit bounds the bytes of an authorization answer read; authBodyHead the bytes
// of each body shown in the exchange.
const (
	authBodyLimit = 1 << 20
	authBodyHead  = 2048
)

// AuthTimeout bounds one authorization request, its redirects and the reading of its
// answer: an authorization server that stalls fails the step instead of hanging it.
var AuthTimeout = 30 * time.Second

// AuthReply is the answer to an authorization request, its body read.
type AuthReply struct {
	Status int
	Header http.Header
	Body   []byte
	URL    string // the URL that answered (after redirects)

	once sync.Once
	ex   *HTTPExchange
	sink Sink
}

// Check records something verified of the answer, shown with the exchange.
func (r *AuthReply) Check(text string) { r.ex.Checks = append(r.ex.Checks, text) }

// Problem records something off in the answer; the session turns it into a finding.
func (r *AuthReply) Problem(code, text string) {
	r.ex.Problems = append(r.ex.Problems, AuthProblem{Code: code, Text: text})
}

// Report reports the exchange (once; later calls do nothing).
func (r *AuthReply) Report() { r.once.Do(func() { r.sink.HTTP(r.ex) }) }

// bindAuth hands the authorizer this core, when it makes requests of its own.
func (c *httpCore) bindAuth() {
	if b, ok := c.opts.Auth.(AuthBinder); ok {
		b.BindAuth(c)
	}
}

// closeAuth ends the authorizer's work, when it has work of its own and the transport
// owns it.
func (c *httpCore) closeAuth(ctx context.Context) error {
	if c.opts.authShared {
		return nil
	}
	return closeAuth(ctx, c.opts.Auth)
}

// closeAuth ends a's work, when it has work of its own.
func closeAuth(ctx context.Context, a Authorizer) error {
	if ac, ok := a.(AuthCloser); ok {
		return ac.CloseAuth(ctx)
	}
	return nil
}

// AuthExchange implements AuthExchanger: the request goes through the transport's client,
// without the user's credentials; redirects are followed as for MCP requests (307 and 308
// for any method, the others only for GET), each hop reported with the step.
func (c *httpCore) AuthExchange(ctx context.Context, step string, req *http.Request) (*AuthReply, error) {
	ctx, cancel := context.WithTimeoutCause(ctx, AuthTimeout, fmt.Errorf("no complete answer within %v", AuthTimeout))
	defer cancel()
	var body []byte
	if req.Body != nil {
		var err error
		if body, err = io.ReadAll(req.Body); err != nil {
			return nil, err
		}
		_ = req.Body.Close()
	}
	reqCT := req.Header.Get("Content-Type")
	u := req.URL
	for hop := 0; ; hop++ {
		r := req.Clone(ctx)
		r.URL, r.Host = u, ""
		if body != nil {
			r.Body = io.NopCloser(bytes.NewReader(body))
			r.ContentLength = int64(len(body))
		}
		if r.Header.Get("User-Agent") == "" {
			r.Header.Set("User-Agent", userAgent)
		}
		ex := &HTTPExchange{ID: exchangeIDs.Add(1), Purpose: "auth", Step: step, Method: r.Method,
			URL: secret.URL(u.String()), Hop: hop, Started: time.Now(), ReqHeaders: secret.Headers(r.Header),
			ReqBody: secret.Body(reqCT, body, authBodyHead)}
		resp, err := c.client.Do(r)
		ex.Duration = time.Since(ex.Started)
		if err != nil {
			err = timedOut(ctx, maskURLError(err))
			ex.Err = err.Error()
			c.sink.HTTP(ex)
			return nil, fmt.Errorf("%s %s: %w", r.Method, ex.URL, err)
		}
		ex.Status, ex.RespHeaders, ex.ContentType = resp.StatusCode, secret.Headers(resp.Header), resp.Header.Get("Content-Type")
		if isRedirect(resp.StatusCode) {
			next, rd := c.authRedirect(r.Method, body != nil, hop, u, resp)
			ex.Redirect = rd
			c.sink.HTTP(ex)
			drain(resp)
			if next == nil {
				return nil, fmt.Errorf("%s %s: %d redirect not followed: %s", r.Method, ex.URL, resp.StatusCode, rd.NotFollowed)
			}
			if rd.CrossOrigin {
				req.Header.Del("Authorization") // a client secret goes only where it was meant to
				req.Header.Del("DPoP")
			}
			u = next
			continue
		}
		data, err := io.ReadAll(io.LimitReader(resp.Body, authBodyLimit+1))
		_ = resp.Body.Close()
		if err == nil && len(data) > authBodyLimit {
			data, err = data[:authBodyLimit], fmt.Errorf("the answer is longer than %d bytes; not read further", authBodyLimit)
		}
		ex.RespBody = secret.Body(ex.ContentType, data, authBodyHead)
		if err != nil {
			err = timedOut(ctx, err)
			ex.Err = err.Error()
			c.sink.HTTP(ex)
			return nil, fmt.Errorf("%s %s: reading the answer: %w", r.Method, ex.URL, err)
		}
		return &AuthReply{Status: resp.StatusCode, Header: resp.Header, Body: data, URL: u.String(), ex: ex, sink: c.sink}, nil
	}
}

// timedOut names the cause when err came from the request's deadline.
func timedOut(ctx context.Context, err error) error {
	if ctx.Err() != nil && context.Cause(ctx) != ctx.Err() {
		return fmt.Errorf("%w (%v)", context.Cause(ctx), err)
	}
	return err
}

// AuthReport implements AuthExchanger.
func (c *httpCore) AuthReport(ex *HTTPExchange) {
	ex.ID, ex.Purpose = exchangeIDs.Add(1), "auth"
	c.sink.HTTP(ex)
}

// AuthNote implements AuthExchanger.
func (c *httpCore) AuthNote(text string) { c.sink.Note(Note{Kind: "auth", Text: text}) }

// authRedirect decides where a redirect of an authorization request leads (nil: not
// followed, with the reason in the Redirect).
func (c *httpCore) authRedirect(method string, hasBody bool, hop int, from *url.URL, resp *http.Response) (*url.URL, *Redirect) {
	rd := &Redirect{}
	loc := resp.Header.Get("Location")
	if loc == "" {
		rd.NotFollowed = "the answer has no Location header"
		return nil, rd
	}
	target, err := from.Parse(loc)
	rd.Location = secret.URL(loc)
	if err != nil || (target.Scheme != "http" && target.Scheme != "https") {
		rd.NotFollowed = "Location is not an http(s) URL"
		return nil, rd
	}
	rd.Location, rd.CrossOrigin = secret.URL(target.String()), !sameOrigin(from, target)
	switch {
	case hop >= c.maxRedirects:
		rd.NotFollowed = tooMany
		return nil, rd
	case resp.StatusCode != http.StatusTemporaryRedirect && resp.StatusCode != http.StatusPermanentRedirect && method != http.MethodGet:
		rd.NotFollowed = fmt.Sprintf("a %d answer to %s would lose the request body", resp.StatusCode, method)
		return nil, rd
	case hasBody && rd.CrossOrigin:
		// An authorization request's body holds the code, the verifier, a refresh token or
		// the client secret: it goes only to the endpoint the metadata names.
		rd.NotFollowed = "a redirect to another origin would send the request body (codes, verifiers, secrets) there"
		return nil, rd
	}
	rd.Followed = true
	return target, rd
}

// NewAuthExchanger is an AuthExchanger outside any session, for an authorization request a
// command makes on its own (auth logout revoking tokens): a client of its own with o's
// redirect limits; each exchange goes to sink (nil: nowhere).
func NewAuthExchanger(o HTTPOptions, sink Sink) AuthExchanger {
	c := newHTTPCore(o)
	if sink != nil {
		c.sink = sink
	}
	return c
}
