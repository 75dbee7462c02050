package transport

import (
	"net/http"
	"strings"
)

// alwaysSecret names headers that carry credentials whatever they are called.
var alwaysSecret = map[string]bool{
	"Authorization":       true,
	"Proxy-Authorization": true,
	"Cookie":              true,
	"Set-Cookie":          true,
	"X-Api-Key":           true,
}

// secretWords mark a header as secret when its lower-cased name contains one of them.
var secretWords = []string{"token", "secret", "key", "auth", "password"}

// MaskHeaders returns a copy of h with secret values masked, for display and recordings.
// Authorization and Proxy-Authorization keep their scheme and last four characters
// ("Bearer ****wxyz"); other secret headers (Cookie, Set-Cookie, X-Api-Key and any header
// whose name contains token, secret, key, auth or password) keep only their last four
// characters. Values of eight characters or fewer are masked completely.
func MaskHeaders(h http.Header) http.Header {
	if h == nil {
		return nil
	}
	out := make(http.Header, len(h))
	for name, values := range h {
		if !isSecretHeader(name) {
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

func isSecretHeader(name string) bool {
	if alwaysSecret[http.CanonicalHeaderKey(name)] {
		return true
	}
	lower := strings.ToLower(name)
	for _, w := range secretWords {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
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
		return prefix + "****"
	}
	return prefix + "****" + v[len(v)-4:]
}
