package card

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/session/secret"
	"github.com/mcpscope/mcpscope/session/transport"
)

// Defaults of Options.
const (
	DefaultMaxBytes     = 1 << 20
	DefaultTimeout      = 10 * time.Second
	DefaultMaxRedirects = 5
	// bodyHead is the part of a fetched body kept in the exchange (recordings, HAR).
	bodyHead = 64 << 10
)

// Options bound and report the fetches.
type Options struct {
	// Client makes the requests; nil: a client of its own. Its redirect policy is replaced:
	// Discover follows redirects itself.
	Client *http.Client
	// MaxBytes bounds each body read; a longer one is cut there and not read as a card.
	MaxBytes int64
	// Timeout bounds each location's fetch, its redirects and its body together.
	Timeout time.Duration
	// MaxRedirects bounds the redirects followed for one location (a loop ends there).
	MaxRedirects int
	// Report receives every exchange (one per hop), its headers masked; nil: none.
	Report func(*transport.HTTPExchange)
}

func (o *Options) fill() {
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxRedirects <= 0 {
		o.MaxRedirects = DefaultMaxRedirects
	}
	c := http.Client{}
	if o.Client != nil {
		c = *o.Client
	}
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	o.Client = &c
}

// fetched is one location's answer: the last hop's status and body.
type fetched struct {
	url         string // the URL that answered (after redirects)
	status      int
	contentType string
	body        []byte
	size        int64 // bytes read; more than len(body) never
	cut         bool  // the body was longer than MaxBytes
	redirects   []string
	err         error
}

// errCrossOrigin is a redirect to another origin, which a card fetch does not follow.
var errCrossOrigin = errors.New("redirects to another origin")

// fetch GETs u with accept, following same-origin redirects, within o's bounds. It sends no
// credentials: cards and catalogs are public by design.
func fetch(ctx context.Context, o *Options, u, accept, step string) fetched {
	ctx, cancel := context.WithTimeoutCause(ctx, o.Timeout, fmt.Errorf("no complete answer within %v", o.Timeout))
	defer cancel()
	out := fetched{url: u}
	cur, err := url.Parse(u)
	if err != nil {
		out.err = err
		return out
	}
	for hop := 0; ; hop++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, cur.String(), nil)
		if err != nil {
			out.err = err
			return out
		}
		req.Header.Set("Accept", accept)
		req.Header.Set("User-Agent", "mcpscope")
		ex := &transport.HTTPExchange{ID: transport.NextExchangeID(), Purpose: "card", Step: step, Method: http.MethodGet,
			URL: secret.URL(cur.String()), Hop: hop, Started: time.Now(), ReqHeaders: secret.Headers(req.Header)}
		resp, err := o.Client.Do(req)
		ex.Duration = time.Since(ex.Started)
		if err != nil {
			out.err = cause(ctx, err)
			ex.Err = out.err.Error()
			o.report(ex)
			return out
		}
		out.url, out.status, out.contentType = cur.String(), resp.StatusCode, resp.Header.Get("Content-Type")
		ex.Status, ex.RespHeaders, ex.ContentType = resp.StatusCode, secret.Headers(resp.Header), out.contentType
		if isRedirect(resp.StatusCode) {
			next, rd := redirect(cur, resp, hop, o.MaxRedirects)
			ex.Redirect = rd
			o.report(ex)
			resp.Body.Close()
			if next == nil {
				if rd.CrossOrigin {
					out.err = fmt.Errorf("%w (%s): not followed", errCrossOrigin, rd.Location)
				} else {
					out.err = fmt.Errorf("redirect not followed: %s", rd.NotFollowed)
				}
				return out
			}
			out.redirects = append(out.redirects, next.String())
			cur = next
			continue
		}
		out.body, out.size, out.cut, err = readBounded(resp.Body, o.MaxBytes)
		resp.Body.Close()
		ex.RespBody = secret.Body(out.contentType, out.body[:min(len(out.body), bodyHead)], bodyHead)
		if err != nil {
			out.err = cause(ctx, err)
			ex.Err = "reading the body: " + out.err.Error()
		} else if out.cut {
			ex.Err = fmt.Sprintf("the body is longer than %d bytes; cut there", o.MaxBytes)
		}
		o.report(ex)
		return out
	}
}

func (o *Options) report(ex *transport.HTTPExchange) {
	if o.Report != nil {
		o.Report(ex)
	}
}

// readBounded reads at most max bytes of r; cut says there was more.
func readBounded(r io.Reader, max int64) (body []byte, size int64, cut bool, err error) {
	body, err = io.ReadAll(io.LimitReader(r, max+1))
	if int64(len(body)) > max {
		return body[:max], max, true, nil
	}
	return body, int64(len(body)), false, err
}

// cause names the deadline when err came from it.
func cause(ctx context.Context, err error) error {
	if ctx.Err() != nil && context.Cause(ctx) != ctx.Err() {
		return fmt.Errorf("%w (%v)", context.Cause(ctx), err)
	}
	return err
}

func isRedirect(status int) bool {
	switch status {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther, http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		return true
	}
	return false
}

// redirect decides where a redirect leads: the same origin (or the same host moving from
// http to https) within max hops; nil with the reason otherwise.
func redirect(from *url.URL, resp *http.Response, hop, max int) (*url.URL, *transport.Redirect) {
	rd := &transport.Redirect{}
	loc := resp.Header.Get("Location")
	if loc == "" {
		rd.NotFollowed = "the answer has no Location header"
		return nil, rd
	}
	to, err := from.Parse(loc)
	rd.Location = secret.URL(loc)
	if err != nil || (to.Scheme != "http" && to.Scheme != "https") || to.Host == "" {
		rd.NotFollowed = "Location is not an http(s) URL"
		return nil, rd
	}
	rd.Location = secret.URL(to.String())
	upgrade := from.Scheme == "http" && to.Scheme == "https" && strings.EqualFold(from.Hostname(), to.Hostname())
	if !upgrade && !sameOrigin(from, to) {
		rd.CrossOrigin = true
		rd.NotFollowed = "a card fetch follows redirects within its origin only; a card on another origin is named by an AI Catalog"
		return nil, rd
	}
	if hop >= max {
		rd.NotFollowed = fmt.Sprintf("more than %d redirects", max)
		return nil, rd
	}
	rd.Followed = true
	return to, rd
}

func sameOrigin(a, b *url.URL) bool {
	return a.Scheme == b.Scheme && strings.EqualFold(hostPort(a), hostPort(b))
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

// mediaType is a Content-Type's type and subtype, in lower case.
func mediaType(ct string) string {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return strings.ToLower(strings.TrimSpace(ct))
	}
	return mt
}

func parseURL(s string) (*url.URL, error) { return url.Parse(s) }
