package auth

import (
	"net/http"
	"strings"
)

// Challenge is one challenge of a WWW-Authenticate header (RFC 9110 §11.6.1): a scheme and
// its auth-params, names lower-cased.
type Challenge struct {
	Scheme string
	Params map[string]string
}

// ResourceMetadata is the resource_metadata parameter (RFC 9728 §5.1): the URL of the
// protected resource metadata.
func (c Challenge) ResourceMetadata() string { return c.Params["resource_metadata"] }

// Scopes are the scope parameter's scopes (RFC 6750 §3).
func (c Challenge) Scopes() []string { return strings.Fields(c.Params["scope"]) }

// Error is the error parameter: invalid_token, insufficient_scope, ...
func (c Challenge) Error() string { return c.Params["error"] }

// ParseWWWAuthenticate parses every WWW-Authenticate value of a response into its
// challenges. Malformed parts are skipped rather than failing the whole header.
func ParseWWWAuthenticate(values []string) []Challenge {
	var out []Challenge
	for _, v := range values {
		out = append(out, parseChallenges(v)...)
	}
	return out
}

// BearerChallenge is the response's Bearer (or DPoP) challenge, preferring Bearer; ok is
// false when there is none.
func BearerChallenge(h http.Header) (Challenge, bool) {
	var dpop *Challenge
	for _, c := range ParseWWWAuthenticate(h.Values("WWW-Authenticate")) {
		switch strings.ToLower(c.Scheme) {
		case "bearer":
			return c, true
		case "dpop":
			if dpop == nil {
				cc := c
				dpop = &cc
			}
		}
	}
	if dpop != nil {
		return *dpop, true
	}
	return Challenge{}, false
}

// parseChallenges reads `Scheme a=b, c="d e", Scheme2 f=g`.
func parseChallenges(s string) []Challenge {
	var out []Challenge
	p := &headerLexer{s: s}
	for {
		p.skip(" \t,")
		if p.done() {
			return out
		}
		scheme := p.token()
		if scheme == "" {
			p.i++ // not a token character: skip it
			continue
		}
		c := Challenge{Scheme: scheme, Params: map[string]string{}}
		for {
			p.skip(" \t")
			save := p.i
			name := p.token()
			p.skip(" \t")
			if name == "" || p.done() || p.s[p.i] != '=' {
				// Not an auth-param: a token68, the next challenge's scheme, or the end.
				if name != "" && (p.done() || p.s[p.i] == ',') && len(c.Params) == 0 {
					c.Params["token68"] = name
					p.skip(" \t,")
					continue
				}
				p.i = save
				break
			}
			p.i++ // '='
			p.skip(" \t")
			// token68 values may end in '=' padding.
			c.Params[strings.ToLower(name)] = p.value()
			p.skip(" \t")
			if !p.done() && p.s[p.i] == ',' {
				p.i++
			}
		}
		out = append(out, c)
	}
}

type headerLexer struct {
	s string
	i int
}

func (p *headerLexer) done() bool { return p.i >= len(p.s) }

func (p *headerLexer) skip(chars string) {
	for !p.done() && strings.IndexByte(chars, p.s[p.i]) >= 0 {
		p.i++
	}
}

// token reads an RFC 9110 token.
func (p *headerLexer) token() string {
	start := p.i
	for !p.done() && isTokenChar(p.s[p.i]) {
		p.i++
	}
	return p.s[start:p.i]
}

// value reads a quoted-string (unescaping) or a token.
func (p *headerLexer) value() string {
	if p.done() || p.s[p.i] != '"' {
		start := p.i
		for !p.done() && p.s[p.i] != ',' && p.s[p.i] != ' ' && p.s[p.i] != '\t' {
			p.i++
		}
		return p.s[start:p.i]
	}
	p.i++
	var b strings.Builder
	for !p.done() {
		c := p.s[p.i]
		p.i++
		switch {
		case c == '\\' && !p.done():
			b.WriteByte(p.s[p.i])
			p.i++
		case c == '"':
			return b.String()
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isTokenChar(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}
