package secret

import (
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"strings"
)

// Mask replaces every secret.
const Mask = "****"

// minLen is the shortest given value searched for: shorter values (and numbers and JSON
// literals) occur in ordinary traffic, and masking them would mangle it.
const minLen = 6

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
		return maskShapes(raw)
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
		return maskShapes(raw)
	}
	return maskShapes(u.String())
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

// Masker masks the values it was given, anywhere, and the secret shapes. A nil *Masker
// masks shapes only; one made with off set masks nothing.
type Masker struct {
	off     bool
	values  []string // plain values
	escaped []string // their JSON-escaped forms, where different (they appear so inside frames)
	cores   []string // per value, what every JSON form of it holds (core)
}

// CredentialEnv are mcpscope's own environment variables that hold credentials (they set
// --bearer, --client-secret, --idp-client-secret and serve's token). Their values are
// always secrets to a Masker, and they are kept from every server mcpscope starts.
var CredentialEnv = []string{"MCPSCOPE_BEARER", "MCPSCOPE_CLIENT_SECRET", "MCPSCOPE_IDP_CLIENT_SECRET", "MCPSCOPE_SERVE_TOKEN"}

// IsCredentialEnv reports whether an environment entry (KEY=VALUE, or a bare KEY) is one
// of CredentialEnv.
func IsCredentialEnv(kv string) bool {
	k, _, _ := strings.Cut(kv, "=")
	for _, c := range CredentialEnv {
		if k == c {
			return true
		}
	}
	return false
}

// credentialValues are the values of CredentialEnv in this process's environment.
func credentialValues() []string {
	var out []string
	for _, k := range CredentialEnv {
		if v := os.Getenv(k); v != "" {
			out = append(out, v, strings.TrimSpace(strings.TrimPrefix(v, "Bearer ")))
		}
	}
	return out
}

// New returns a Masker of the given values and of mcpscope's credential variables
// (CredentialEnv); those shorter than six characters, numbers and JSON literals are
// skipped: they occur in ordinary traffic. With off it masks nothing (--no-redact).
func New(values []string, off bool) *Masker {
	m := &Masker{off: off}
	seen := map[string]bool{}
	for _, s := range append(credentialValues(), values...) {
		if !worthMasking(s) || seen[s] {
			continue
		}
		seen[s] = true
		m.values = append(m.values, s)
		m.cores = append(m.cores, core(s))
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

// String masks the secrets in s: the given values, the secret shapes, secret assignments
// (API_KEY=…) and the values of secret members (SecretName). Only characters that are
// secret are replaced, by the mask: delimiters, quotes and escapes stay, and text that is
// JSON stays JSON (inside a string, the mask takes whole escapes).
func (m *Masker) String(s string) string {
	if m.Off() || s == "" {
		return s
	}
	return m.mask(s)
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

// Bytes masks the secrets in b, which need not be UTF-8, as String does. It returns b
// itself when nothing was masked.
func (m *Masker) Bytes(b []byte) []byte {
	if m.Off() || len(b) == 0 {
		return b
	}
	s := string(b)
	spans := m.newScan(s).spans(s, 0, nil)
	if len(spans) == 0 {
		return b
	}
	return []byte(apply(s, spans))
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
