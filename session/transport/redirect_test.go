package transport

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// redirectSecret is the token, the -H value and the query value the redirect tests send.
const redirectSecret = "SECRET-redirect-0123456789"

// redirector answers every request with status, pointing to target plus the request's path.
func redirector(t *testing.T, status int, target func() string) (*requestLogServer, *requestLog) {
	t.Helper()
	ts, log := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target()+r.URL.Path, status)
	}))
	return &requestLogServer{url: ts.URL}, log
}

// requestLogServer is a test server's base URL.
type requestLogServer struct{ url string }

// mcpBackend is a real MCP server (JSON responses) that records the requests it gets.
func mcpBackend(t *testing.T) (string, *requestLog) {
	t.Helper()
	srv := newMCPServer()
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{JSONResponse: true})
	ts, log := serve(t, h)
	return ts.URL, log
}

// credentialOptions are options that carry a bearer token and a custom secret header.
func credentialOptions(url string) HTTPOptions {
	return HTTPOptions{URL: url + "/mcp?api_key=" + redirectSecret, BearerToken: redirectSecret,
		Headers: http.Header{"X-Api-Key": {redirectSecret}, "X-Trace": {"trace-1"}}}
}

// TestRedirectOtherOriginWithholdsCredentials: a 307 to another port is followed with the
// POST body, without the token, the -H headers or anything else the user gave, and the
// redirect exchange says what was withheld; every hop is an exchange.
func TestRedirectOtherOriginWithholdsCredentials(t *testing.T) {
	backend, blog := mcpBackend(t)
	front, flog := redirector(t, http.StatusTemporaryRedirect, func() string { return backend })
	tr := NewStreamableHTTP(credentialOptions(front.url))
	sink := startHTTP(t, tr)
	mustSend(t, tr, outInitialize())
	sink.waitFrame(t, `"protocolVersion"`)

	if got := flog.list(); len(got) != 1 || got[0].header.Get("Authorization") != "Bearer "+redirectSecret || got[0].header.Get("X-Api-Key") != redirectSecret {
		t.Fatalf("the origin named did not get the credentials: %+v", got)
	}
	posts := blog.byMethod(http.MethodPost)
	if len(posts) != 1 {
		t.Fatalf("other origin saw %d POSTs, want 1", len(posts))
	}
	for name, vs := range posts[0].header {
		for _, v := range vs {
			if strings.Contains(v, redirectSecret) || name == "X-Trace" {
				t.Errorf("other origin received %s: %s", name, v)
			}
		}
	}
	exs := exchangesFor(sink, "post")
	if len(exs) != 2 || exs[0].Status != 307 || exs[0].Hop != 0 || exs[1].Hop != 1 || exs[1].Status != 200 {
		t.Fatalf("exchanges = %+v, want the 307 and the 200", exs)
	}
	rd := exs[0].Redirect
	if rd == nil || !rd.CrossOrigin || !rd.Followed || strings.Join(rd.Withheld, ",") != "Authorization,X-Api-Key,X-Trace" {
		t.Fatalf("redirect = %+v", rd)
	}
	if !strings.HasPrefix(rd.Location, backend) || exs[1].ReqHeaders.Get("Authorization") != "" {
		t.Errorf("location %q, second hop headers %v", rd.Location, exs[1].ReqHeaders)
	}
	for _, ex := range exs {
		if strings.Contains(ex.URL, redirectSecret) || strings.Contains(ex.RespHeaders.Get("Location"), redirectSecret) ||
			strings.Contains(ex.ReqHeaders.Get("Authorization"), redirectSecret) {
			t.Errorf("exchange shows the secret: %+v", ex)
		}
	}
}

// TestRedirectWithCredentialsFlag: FollowRedirectsWithCredentials sends everything to the
// other origin, and says so.
func TestRedirectWithCredentialsFlag(t *testing.T) {
	backend, blog := mcpBackend(t)
	front, _ := redirector(t, http.StatusPermanentRedirect, func() string { return backend })
	o := credentialOptions(front.url)
	o.FollowRedirectsWithCredentials = true
	tr := NewStreamableHTTP(o)
	sink := startHTTP(t, tr)
	mustSend(t, tr, outInitialize())
	sink.waitFrame(t, `"protocolVersion"`)
	p := blog.byMethod(http.MethodPost)
	if len(p) != 1 || p[0].header.Get("Authorization") != "Bearer "+redirectSecret || p[0].header.Get("X-Api-Key") != redirectSecret || p[0].header.Get("X-Trace") != "trace-1" {
		t.Fatalf("other origin got %+v, want the credentials", p)
	}
	if rd := exchangesFor(sink, "post")[0].Redirect; rd == nil || len(rd.Withheld) != 0 || len(rd.Forwarded) != 3 {
		t.Fatalf("redirect = %+v, want three forwarded", rd)
	}
}

// TestRedirectSameOriginKeepsCredentials: a redirect to another path of the same origin
// keeps the bearer token and the headers, for POST (307) and for the GET stream (302).
func TestRedirectSameOriginKeepsCredentials(t *testing.T) {
	srv := newMCPServer()
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	mux := http.NewServeMux()
	mux.Handle("/new", h)
	mux.HandleFunc("/old", func(w http.ResponseWriter, r *http.Request) {
		status := http.StatusTemporaryRedirect
		if r.Method == http.MethodGet {
			status = http.StatusFound
		}
		w.Header().Set("Location", "/new")
		w.WriteHeader(status)
	})
	ts, log := serve(t, mux)
	o := credentialOptions(ts.URL)
	o.URL = ts.URL + "/old"
	tr := NewStreamableHTTP(o)
	sink := startHTTP(t, tr)
	mustSend(t, tr, outInitialize())
	sink.waitFrame(t, `"protocolVersion"`)
	mustSend(t, tr, outNotify(initializedMsg, "notifications/initialized", "2025-11-25"))
	ctx, cancel := context.WithTimeout(context.Background(), httpWait)
	defer cancel()
	if err := tr.Listen(ctx); err != nil {
		t.Fatalf("Listen: %v", err)
	}
	reqs := log.list()
	if len(reqs) < 6 {
		t.Fatalf("server saw %d requests, want 3 redirected ones and their 3 hops", len(reqs))
	}
	for i, r := range reqs {
		if r.header.Get("Authorization") != "Bearer "+redirectSecret || r.header.Get("X-Api-Key") != redirectSecret {
			t.Errorf("request %d (%s): credentials missing: %v", i, r.method, r.header)
		}
	}
	for _, ex := range sink.exchangeList() {
		if rd := ex.Redirect; rd != nil && (rd.CrossOrigin || len(rd.Withheld) > 0 || !rd.Followed) {
			t.Errorf("same-origin redirect reported as %+v", rd)
		}
	}
}

// TestRedirectLimitsAndMethodChange: a redirect loop ends after MaxRedirects with a clear
// error, and a 302 answering a POST is not followed (it would lose the message).
func TestRedirectLimitsAndMethodChange(t *testing.T) {
	var loop *requestLogServer
	loop, _ = redirector(t, http.StatusTemporaryRedirect, func() string { return loop.url })
	o := credentialOptions(loop.url)
	o.MaxRedirects = 3
	tr := NewStreamableHTTP(o)
	sink := startHTTP(t, tr)
	ctx, cancel := context.WithTimeout(context.Background(), httpWait)
	defer cancel()
	err := tr.Send(ctx, outInitialize())
	var tm *TooManyRedirectsError
	if !errors.As(err, &tm) || tm.Max != 3 || !strings.Contains(err.Error(), "stopped after 3 redirects") || strings.Contains(err.Error(), redirectSecret) {
		t.Fatalf("err = %v, want a TooManyRedirectsError without the secret", err)
	}
	if n := len(exchangesFor(sink, "post")); n != 4 {
		t.Errorf("%d exchanges, want 4 (the request and 3 hops)", n)
	}

	backend, blog := mcpBackend(t)
	moved, _ := redirector(t, http.StatusFound, func() string { return backend })
	tr2 := NewStreamableHTTP(HTTPOptions{URL: moved.url + "/mcp"})
	sink2 := startHTTP(t, tr2)
	err = tr2.Send(ctx, outInitialize())
	if statusOf(err) != http.StatusFound {
		t.Fatalf("err = %v, want the 302 as an HTTP status error", err)
	}
	if len(blog.list()) != 0 {
		t.Errorf("the 302 was followed: %+v", blog.list())
	}
	exs := exchangesFor(sink2, "post")
	if len(exs) != 1 || exs[0].Redirect == nil || exs[0].Redirect.Followed || !strings.Contains(exs[0].Redirect.NotFollowed, "307 or 308") {
		t.Fatalf("exchanges = %+v, want one 302 not followed", exs)
	}
}

// TestRedirectWithheldThen401: when the other origin refuses the request without the
// credentials, the error says a redirect withheld them and how to send them.
func TestRedirectWithheldThen401(t *testing.T) {
	guarded, _ := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+redirectSecret {
			http.Error(w, "token required", http.StatusUnauthorized)
			return
		}
		w.WriteHeader(http.StatusAccepted)
	}))
	front, _ := redirector(t, http.StatusTemporaryRedirect, func() string { return guarded.URL })
	tr := NewStreamableHTTP(credentialOptions(front.url))
	startHTTP(t, tr)
	ctx, cancel := context.WithTimeout(context.Background(), httpWait)
	defer cancel()
	err := tr.Send(ctx, outInitialize())
	if statusOf(err) != http.StatusUnauthorized || !strings.Contains(err.Error(), "was not sent Authorization, X-Api-Key, X-Trace; --follow-redirects-with-credentials") ||
		strings.Contains(err.Error(), redirectSecret) {
		t.Fatalf("err = %v, want a 401 that names the withheld credentials", err)
	}
}
