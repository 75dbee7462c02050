package demo

import (
	"html/template"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// authCode is an issued authorization code, kept (by the hash of the code)
// until it expires, used or not, so that a second redemption is recognised.
type authCode struct {
	hash          secretHash
	clientID      string
	redirectURI   string
	redirectGiven bool // redirect_uri was in the request, so the token request must repeat it
	challenge     string
	resource      string
	scopes        []string
	expires       time.Time
	used          bool // a second redemption revokes the tokens of its family (grant.family)
}

// serveAuthorize is the authorization endpoint. A valid request shows the
// approve page; the same request with approve=1 redirects to the client with
// code, state and iss (RFC 9207), and with deny=1 with access_denied.
//
// Until the client and its redirect URI are known to be valid, errors are
// shown here and never redirected (RFC 6749 §4.1.2.1).
func (as *authServer) serveAuthorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	for k, v := range q {
		if len(v) > 1 && (k == "client_id" || k == "redirect_uri") {
			as.errorPage(w, "The parameter "+k+" is given more than once.")
			return
		}
	}
	c, err := as.lookupClient(r.Context(), q.Get("client_id"))
	if err != nil {
		as.errorPage(w, "Unknown client: "+err.Error())
		return
	}
	redirectURI, given := q.Get("redirect_uri"), true
	switch {
	case redirectURI == "" && len(c.redirectURIs) == 1:
		redirectURI, given = c.redirectURIs[0], false
	case redirectURI == "":
		as.errorPage(w, "redirect_uri is missing, and the client registered more than one.")
		return
	case !redirectAllowed(c.redirectURIs, redirectURI):
		as.log.printf("auth: authorization refused: redirect_uri %q is not registered for %s", redirectURI, c.id)
		as.errorPage(w, "The redirect_uri "+redirectURI+" is not one the client registered: "+strings.Join(c.redirectURIs, ", ")+".")
		return
	}
	state := q.Get("state")
	fail := func(code, description string) {
		as.log.printf("auth: authorization for %s refused: %s (%s)", c.id, code, description)
		as.redirect(w, r, redirectURI, url.Values{"error": {code}, "error_description": {description}}, state)
	}
	for k, v := range q {
		if len(v) > 1 {
			fail("invalid_request", "the parameter "+strconv.Quote(k)+" is given more than once")
			return
		}
	}
	if rt := q.Get("response_type"); rt != "code" {
		fail("unsupported_response_type", "response_type must be code, not "+quoteOrMissing(rt))
		return
	}
	if m := q.Get("code_challenge_method"); m != "S256" {
		fail("invalid_request", "PKCE with code_challenge_method S256 is required, not "+quoteOrMissing(m))
		return
	}
	challenge := q.Get("code_challenge")
	if len(challenge) != 43 || strings.Trim(challenge, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") != "" {
		fail("invalid_request", "code_challenge must be the base64url SHA-256 of the verifier (43 characters)")
		return
	}
	resource, ok := as.matchResource(q.Get("resource"))
	if !ok {
		fail("invalid_target", "resource must be "+as.resources["/mcp"]+" or "+as.resources["/sse"]+", not "+quoteOrMissing(q.Get("resource")))
		return
	}
	scopes := grantableScopes(q.Get("scope"))
	if q.Get("deny") != "" {
		fail("access_denied", "the user denied the request")
		return
	}
	if q.Get("approve") != "1" && !as.opts.AutoApprove {
		as.approvePage(w, r, c, redirectURI, resource, scopes)
		return
	}
	code := newSecret()
	ac := &authCode{
		hash:          hashSecret(code),
		clientID:      c.id,
		redirectURI:   redirectURI,
		redirectGiven: given,
		challenge:     challenge,
		resource:      resource,
		scopes:        scopes,
		expires:       time.Now().Add(as.opts.CodeTTL),
	}
	as.mu.Lock()
	evicted := as.codes.put(ac.hash.key(), ac, ac.expires, time.Now())
	as.mu.Unlock()
	if evicted > 0 {
		as.log.printf("auth: code store full (%d): dropped the oldest code", maxCodes)
	}
	as.log.printf("auth: approved %s for %s, scopes %s; code valid for %s", c.id, resource, strings.Join(scopes, " "), as.opts.CodeTTL)
	as.redirect(w, r, redirectURI, url.Values{"code": {code}}, state)
}

// redirect sends the user agent back to the client with params, the state
// (when the request had one) and iss.
func (as *authServer) redirect(w http.ResponseWriter, r *http.Request, redirectURI string, params url.Values, state string) {
	u, _ := url.Parse(redirectURI) // checked when it was registered
	q := u.Query()
	for k, v := range params {
		q[k] = v
	}
	if state != "" {
		q.Set("state", state)
	}
	q.Set("iss", as.issuer)
	u.RawQuery = q.Encode()
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, u.String(), http.StatusFound)
}

// matchResource finds the demo's resource a resource parameter names. The
// scheme and host may differ in case; nothing else may.
func (as *authServer) matchResource(given string) (string, bool) {
	u, err := url.Parse(given)
	if err != nil || given == "" {
		return "", false
	}
	u.Scheme, u.Host = strings.ToLower(u.Scheme), strings.ToLower(u.Host)
	for _, res := range as.resources {
		if u.String() == res {
			return res, true
		}
	}
	return "", false
}

// grantableScopes is what the demo grants for a requested scope: the scopes
// it knows (others are left out, and the token response says what was
// granted), or ScopeDemo when none is asked for.
func grantableScopes(scope string) []string {
	var out []string
	for _, s := range strings.Fields(scope) {
		if (s == ScopeDemo || s == ScopeAdmin || s == scopeOffline) && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	if len(out) == 0 || (len(out) == 1 && out[0] == scopeOffline) {
		out = append([]string{ScopeDemo}, out...)
	}
	return out
}

func quoteOrMissing(s string) string {
	if s == "" {
		return "missing"
	}
	return strconv.Quote(s) // control characters escaped: the text reaches the log
}

var approveTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("approve").Parse(`<!doctype html>
<html><head><meta charset="utf-8"><title>Authorize {{.Client}} – mcpscope demo</title>
<style>body{font-family:sans-serif;max-width:40em;margin:3em auto;line-height:1.5}
a.button{display:inline-block;padding:.5em 1.5em;margin-right:1em;border-radius:4px;text-decoration:none;color:#fff;background:#2a7}
a.deny{background:#a33}code{background:#eee;padding:0 .2em}</style></head>
<body><h1>Authorize {{.Client}}?</h1>
<p><b>{{.Client}}</b> (<code>{{.ClientID}}</code>, {{.Source}}) asks for access to
<code>{{.Resource}}</code> with the scopes <code>{{.Scopes}}</code>.</p>
<p>After approval the browser goes back to <code>{{.Redirect}}</code> (host <b>{{.RedirectHost}}</b>).</p>
{{if .LoopbackOnly}}<p id="warning"><b>Note:</b> this client's metadata document lists only loopback redirect URIs, so any
program on this machine could present the same client_id. Approve only if you started it.</p>{{end}}
<p><a class="button" id="approve" href="{{.Approve}}">Approve</a>
<a class="button deny" id="deny" href="{{.Deny}}">Deny</a></p>
<p><small>This is the mcpscope demo's authorization server: there is no user to sign in, and a plain
GET of the Approve link approves, so a script can complete the flow. A real server asks who you are
and protects its consent page.</small></p></body></html>
`))
})

// approvePage shows what the client asks for with Approve and Deny links: the
// same request with approve=1 or deny=1.
func (as *authServer) approvePage(w http.ResponseWriter, r *http.Request, c *authClient, redirectURI, resource string, scopes []string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Frame-Options", "DENY")
	loopbackOnly := c.source == sourceMetadata
	for _, u := range c.redirectURIs {
		if p, err := url.Parse(u); err != nil || p.Scheme != "http" || !isLoopbackHost(p.Hostname()) {
			loopbackOnly = false
		}
	}
	host := redirectURI
	if p, err := url.Parse(redirectURI); err == nil && p.Host != "" {
		host = p.Hostname()
	}
	approveTemplate().Execute(w, map[string]any{
		"Client":       c.name,
		"ClientID":     c.id,
		"Source":       c.source,
		"Resource":     resource,
		"Scopes":       strings.Join(scopes, " "),
		"Redirect":     redirectURI,
		"RedirectHost": host,
		"LoopbackOnly": loopbackOnly,
		"Approve":      r.URL.RequestURI() + "&approve=1",
		"Deny":         r.URL.RequestURI() + "&deny=1",
	})
}

var errorTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("error").Parse(`<!doctype html>
<html><head><meta charset="utf-8"><title>Authorization error – mcpscope demo</title></head>
<body><h1>Authorization error</h1><p>{{.}}</p></body></html>
`))
})

// errorPage answers a request that cannot be redirected back to the client.
func (as *authServer) errorPage(w http.ResponseWriter, msg string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusBadRequest)
	errorTemplate().Execute(w, msg)
}
