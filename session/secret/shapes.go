package secret

import (
	"regexp"
	"strings"
	"sync"
)

// shape is a kind of secret recognised by its form: a bearer token, an API key of a known
// vendor, a password in a URL.
type shape struct {
	hints []string // a literal every match contains, checked before the regular expression
	re    func() *regexp.Regexp
	// group is the submatch that is the secret (0: the whole match).
	group int
	// ok, when set, says whether a match's secret part is one (a challenge's parameter,
	// a word of prose after "Bearer" are not).
	ok func(secret string) bool
}

// lazyRegexp compiles expr the first time it is called, not when the program starts: most
// runs never meet a text with a shape's hint, and `mcpscope version` has no text at all.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// challengeParams are a Bearer or DPoP challenge's auth-params (RFC 6750 §3, RFC 9728 §5.1,
// RFC 9449 §7.1): "Bearer resource_metadata=" in a WWW-Authenticate value is no token.
var challengeParams = map[string]bool{"realm=": true, "scope=": true, "error=": true, "error_description=": true,
	"error_uri=": true, "resource_metadata=": true, "algs=": true}

// tokenLike reports whether the word after "Bearer" or "DPoP" is a token rather than a
// challenge's parameter or a word of prose ("Bearer tokens"): it holds a digit or one of
// . _ ~ + / - =, or is 20 characters or more.
func tokenLike(s string) bool {
	if challengeParams[s] {
		return false
	}
	return len(s) >= 20 || strings.ContainsAny(s, "0123456789._~+/-=")
}

// hasDigit: a vendor key is random, and so holds a digit; a CSS class or a word does not.
func hasDigit(s string) bool { return strings.ContainsAny(s, "0123456789") }

// randomLike: a vendor key is random, and so holds a digit or a capital letter; a CSS
// class (.sk-fading-circle) does not.
func randomLike(s string) bool { return strings.ContainsAny(s, "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ") }

// shapes are the secret shapes masked in every output.
var shapes = []shape{
	{[]string{"Bearer "}, lazyRegexp(`\bBearer ([A-Za-z0-9._~+/-]+=*)`), 1, tokenLike},
	{[]string{"DPoP "}, lazyRegexp(`\bDPoP ([A-Za-z0-9._~+/-]{20,}=*)`), 1, tokenLike},
	{[]string{"sk-"}, lazyRegexp(`\bsk-[A-Za-z0-9_-]{16,}`), 0, randomLike},
	{[]string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"}, lazyRegexp(`\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}|\bgithub_pat_[A-Za-z0-9_]{20,}`), 0, nil},
	{[]string{"xox"}, lazyRegexp(`\bxox[abposr]-[A-Za-z0-9-]{10,}`), 0, nil},
	{[]string{"AKIA"}, lazyRegexp(`\bAKIA[0-9A-Z]{16}\b`), 0, nil},
	{[]string{"://", `:\/\/`}, lazyRegexp(`://[^:/@\s"'\\]+:([^@/\s"'\\]+)@`), 1, nil},
}

// shapeSpans finds the secret shapes in s.
func (sc *scan) shapeSpans(s string, out []span) []span {
	for _, sh := range sc.shapes {
		for _, m := range sh.re().FindAllStringSubmatchIndex(s, -1) {
			lo, hi := m[2*sh.group], m[2*sh.group+1]
			if lo < 0 || sh.ok != nil && !sh.ok(s[lo:hi]) {
				continue
			}
			out = append(out, span{lo, hi})
		}
	}
	return out
}

// maskShapes masks the secret shapes and secret assignments in s (no given values).
func maskShapes(s string) string {
	var m *Masker
	return m.mask(s)
}
