package secret

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
)

// Mask replaces every secret.
const Mask = "****"

// minLen is the shortest given value searched for: shorter values (and numbers and JSON
// literals) occur in ordinary traffic, and masking them would mangle it.
const minLen = 6

// pattern is a kind of secret recognised by its shape.
type pattern struct {
	hint string // a literal every match contains, checked before the regular expression
	re   func() *regexp.Regexp
	repl string
	keep func() *regexp.Regexp // a match this matches is not a secret and stays as it is
}

// lazyRegexp compiles expr the first time it is called, not when the program starts: most
// runs never meet a text with a pattern's hint, and `mcpscope version` has no text at all.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// challengeParam is a Bearer or DPoP challenge's first auth-param (RFC 6750 §3, RFC 9728
// §5.1, RFC 9449 §7.1) as the Bearer shape matches it: "Bearer resource_metadata=" in a
// WWW-Authenticate value is no token.
var challengeParam = lazyRegexp(`^(?:Bearer|DPoP) (?:realm|scope|error|error_description|error_uri|resource_metadata|algs)=$`)

// replaceString masks every match of the shape in s, except those keep recognises.
func (p pattern) replaceString(s string) string {
	if p.keep == nil {
		return p.re().ReplaceAllString(s, p.repl)
	}
	return p.re().ReplaceAllStringFunc(s, func(m string) string {
		if p.keep().MatchString(m) {
			return m
		}
		return p.re().ReplaceAllString(m, p.repl)
	})
}

// patterns are the secret shapes masked in every output.
var patterns = []pattern{
	{"Bearer ", lazyRegexp(`Bearer [A-Za-z0-9._~+/-]+=*`), "Bearer " + Mask, challengeParam},
	{"DPoP ", lazyRegexp(`DPoP [A-Za-z0-9._~+/-]{20,}=*`), "DPoP " + Mask, challengeParam},
	{"sk-", lazyRegexp(`sk-[A-Za-z0-9_-]{16,}`), Mask, nil},
	{"_", lazyRegexp(`\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}|\bgithub_pat_[A-Za-z0-9_]{20,}`), Mask, nil},
	{"xox", lazyRegexp(`\bxox[abposr]-[A-Za-z0-9-]{10,}`), Mask, nil},
	{"AKIA", lazyRegexp(`\bAKIA[0-9A-Z]{16}\b`), Mask, nil},
	{"=", lazyRegexp(`(?i)\b((?:password|passwd|pwd|secret|client_secret|token|access_token|refresh_token|id_token|subject_token|actor_token|assertion|client_assertion|api_key|apikey|api-key|x-api-key|code_verifier)=)[^&\s"'\\]+`), "${1}" + Mask, nil},
	// An assignment to a name that ends in a secret word (API_TOKEN=, DB_PASSWORD=,
	// OPENAI_API_KEY=, client-secret=): an environment variable, a flag, a line of a .env
	// file, in any text and inside JSON strings (a \uXXXX escape is part of the value). The
	// value is masked whatever its characters; it ends at white space, a quote, & or a
	// backslash that is no \uXXXX. max_tokens= or token_type= stay: their last word is
	// no secret's.
	{"=", lazyRegexp(`(?i)\b((?:[a-z0-9]+[_.-])*(?:password|passwd|pwd|passphrase|secret|token|credentials?|apikey|(?:api|access|secret|private|client|signing|encryption|master|auth)[_-]?key)=)(?:[^&\s"'\\]|\\u[0-9a-fA-F]{4}|\\/)+`), "${1}" + Mask, nil},
	{"@", lazyRegexp(`(://[^:/@\s"'\\]+:)[^@/\s"'\\]+@`), "${1}" + Mask + "@", nil},
}

// alwaysSecret names headers that carry credentials whatever they are called.
var alwaysSecret = map[string]bool{
	"Authorization":       true,
	"Proxy-Authorization": true,
	"Cookie":              true,
	"Set-Cookie":          true,
	"X-Api-Key":           true,
}

// secretWords mark a header or query parameter as secret when its lower-cased name
// contains one of them.
var secretWords = []string{"token", "secret", "key", "auth", "password", "passwd", "signature", "credential"}

// IsSecretHeader reports whether a header of this name carries a secret: Authorization,
// Proxy-Authorization, Cookie, Set-Cookie, X-Api-Key, or any name containing token, secret,
// key, auth, password, passwd, signature or credential, except the challenges
// (WWW-Authenticate, Proxy-Authenticate).
func IsSecretHeader(name string) bool {
	if neverSecret[http.CanonicalHeaderKey(name)] {
		return false
	}
	return alwaysSecret[http.CanonicalHeaderKey(name)] || IsSecretName(name)
}

// neverSecret names headers whose names contain a secret word but whose values are not
// secrets: an authorization challenge names the metadata, scopes and error a user needs
// to see.
var neverSecret = map[string]bool{"Www-Authenticate": true, "Proxy-Authenticate": true}

// IsSecretName reports whether a header or query parameter name contains a secret word.
func IsSecretName(name string) bool {
	lower := strings.ToLower(name)
	for _, w := range secretWords {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

// Headers returns a copy of h with secret values masked. Authorization and
// Proxy-Authorization keep their scheme and last four characters ("Bearer ****wxyz");
// other secret headers keep only their last four characters. Values of eight characters or
// fewer are masked completely.
func Headers(h http.Header) http.Header {
	if h == nil {
		return nil
	}
	out := make(http.Header, len(h))
	for name, values := range h {
		if !IsSecretHeader(name) {
			out[name] = append([]string(nil), values...)
			continue
		}
		masked := make([]string, len(values))
		scheme := strings.EqualFold(name, "Authorization") || strings.EqualFold(name, "Proxy-Authorization")
		for i, v := range values {
			masked[i] = maskValue(v, scheme)
		}
		out[name] = masked
	}
	return out
}

// maskValue hides all but the last four characters of v; with scheme, a leading
// "Scheme " word is kept as is.
func maskValue(v string, scheme bool) string {
	prefix := ""
	if scheme {
		if i := strings.IndexByte(v, ' '); i > 0 {
			prefix, v = v[:i+1], strings.TrimLeft(v[i+1:], " ")
		}
	}
	if len(v) <= 8 {
		return prefix + Mask
	}
	return prefix + Mask + v[len(v)-4:]
}

// URL masks a URL's password and the values of its secret query parameters (names as for
// IsSecretName). Text that does not parse as a URL is masked by shape.
func URL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return shapes(raw)
	}
	changed := false
	if u.User != nil {
		if _, ok := u.User.Password(); ok {
			u.User, changed = url.UserPassword(u.User.Username(), Mask), true
		}
	}
	if u.RawQuery != "" {
		parts := strings.Split(u.RawQuery, "&")
		for i, p := range parts {
			name, _, ok := strings.Cut(p, "=")
			if n, err := url.QueryUnescape(name); ok && err == nil && IsSecretName(n) {
				parts[i], changed = name+"="+Mask, true
			}
		}
		u.RawQuery = strings.Join(parts, "&")
	}
	if !changed {
		return shapes(raw)
	}
	return shapes(u.String())
}

// URLValues are the secret values in a URL (its password and secret query parameters),
// for a Masker to search for everywhere.
func URLValues(raw string) []string {
	u, err := url.Parse(raw)
	if err != nil {
		return nil
	}
	var out []string
	if u.User != nil {
		if p, ok := u.User.Password(); ok {
			out = append(out, p)
		}
	}
	for name, vs := range u.Query() {
		if IsSecretName(name) {
			out = append(out, vs...)
		}
	}
	// The raw (escaped) forms too, as they appear in the URL's text.
	for _, p := range strings.Split(u.RawQuery, "&") {
		if name, v, ok := strings.Cut(p, "="); ok && IsSecretName(name) {
			out = append(out, v)
		}
	}
	return out
}

// shapes masks the secret shapes in s.
func shapes(s string) string {
	for _, p := range patterns {
		if strings.Contains(s, p.hint) {
			s = p.replaceString(s)
		}
	}
	return s
}

// Masker masks the values it was given, anywhere, and the secret shapes. A nil *Masker
// masks shapes only; one made with off set masks nothing.
type Masker struct {
	off     bool
	values  []string // plain values
	escaped []string // their JSON-escaped forms, where different (they appear so inside frames)
}

// New returns a Masker of the given values (those shorter than six characters, numbers and
// JSON literals are skipped: they occur in ordinary traffic). With off it masks nothing
// (--no-redact).
func New(values []string, off bool) *Masker {
	m := &Masker{off: off}
	seen := map[string]bool{}
	for _, s := range values {
		if !worthMasking(s) || seen[s] {
			continue
		}
		seen[s] = true
		m.values = append(m.values, s)
		q, _ := json.Marshal(s)
		if e := string(q[1 : len(q)-1]); e != s {
			m.escaped = append(m.escaped, e)
		}
	}
	return m
}

// worthMasking reports whether a value is long and distinctive enough to search for.
func worthMasking(s string) bool {
	if len(s) < minLen {
		return false
	}
	var v any
	if json.Unmarshal([]byte(s), &v) == nil {
		switch v.(type) {
		case float64, bool, nil:
			return false // a number or a JSON literal
		}
	}
	return true
}

// Off reports whether the Masker masks nothing.
func (m *Masker) Off() bool { return m != nil && m.off }

// String masks the secrets in s.
func (m *Masker) String(s string) string {
	if m.Off() || s == "" {
		return s
	}
	return shapes(m.Values(s))
}

// Values masks only the given values in s, not shapes: a cheap last pass over text
// already masked by shape where it was made (a rendered screen).
func (m *Masker) Values(s string) string {
	if m == nil || m.off {
		return s
	}
	for _, list := range [][]string{m.values, m.escaped} {
		for _, sec := range list {
			if strings.Contains(s, sec) {
				s = strings.ReplaceAll(s, sec, Mask)
			}
		}
	}
	return s
}

// Bytes masks the secrets in b, which need not be UTF-8. It returns b itself when nothing
// was masked.
func (m *Masker) Bytes(b []byte) []byte {
	if m.Off() || len(b) == 0 {
		return b
	}
	if m != nil {
		for _, list := range [][]string{m.values, m.escaped} {
			for _, sec := range list {
				if bytes.Contains(b, []byte(sec)) {
					b = bytes.ReplaceAll(b, []byte(sec), []byte(Mask))
				}
			}
		}
	}
	for _, p := range patterns {
		if bytes.Contains(b, []byte(p.hint)) {
			b = []byte(p.replaceString(string(b)))
		}
	}
	return b
}

// Headers masks secret headers by name (as the package's Headers does: a transport
// already did) and secret values in every header, in a copy.
func (m *Masker) Headers(h http.Header) http.Header {
	if m.Off() || h == nil {
		return h
	}
	h = Headers(h)
	for _, vs := range h {
		for i, v := range vs {
			vs[i] = m.String(v)
		}
	}
	return h
}
