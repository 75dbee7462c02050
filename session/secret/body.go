package secret

import (
	"bytes"
	"encoding/json"
	"net/url"
	"strings"
)

// jsonMember is a JSON string member, found in text that does not parse as JSON (the
// value may be cut short, without its closing quote).
var jsonMember = lazyRegexp(`"((?:[^"\\]|\\.)*)"\s*:\s*"(?:[^"\\]|\\.)*"?`)

// maskMember masks the value of a jsonMember match whose name is a secret parameter.
func maskMember(m string) string {
	sub := jsonMember().FindStringSubmatch(m)
	if sub == nil || !IsSecretParam(sub[1]) {
		return m
	}
	return `"` + sub[1] + `":"` + Mask + `"`
}

// bodySecrets are the parameter names of OAuth requests and answers whose values are
// credentials: authorization codes, PKCE verifiers, client secrets and assertions, tokens.
var bodySecrets = map[string]bool{
	"code": true, "code_verifier": true, "client_secret": true, "client_assertion": true,
	"assertion": true, "password": true, "access_token": true, "refresh_token": true,
	"id_token": true, "subject_token": true, "actor_token": true, "device_code": true,
	"registration_access_token": true,
	"token": true, // revocation (RFC 7009) and introspection (RFC 7662) requests
}

// IsSecretParam reports whether an OAuth parameter (form field, JSON member or query
// parameter) of this name carries a credential: code, code_verifier, client_secret,
// client_assertion, assertion, password, token, and any name ending in _token or _secret.
func IsSecretParam(name string) bool {
	n := strings.ToLower(name)
	return bodySecrets[n] || strings.HasSuffix(n, "_token") || strings.HasSuffix(n, "_secret")
}

// Params masks the secret values (IsSecretParam) of form or query parameters.
func Params(v url.Values) url.Values {
	out := make(url.Values, len(v))
	for k, vs := range v {
		if IsSecretParam(k) {
			out[k] = []string{Mask}
			continue
		}
		out[k] = append([]string(nil), vs...)
	}
	return out
}

// Body is the head (at most max bytes) of an OAuth request or answer body, with the values
// of its secret parameters masked: a form's fields, a JSON object's members (at any depth).
// Other text is masked by shape.
func Body(contentType string, body []byte, max int) string {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return ""
	}
	var s string
	switch {
	case strings.Contains(contentType, "x-www-form-urlencoded"):
		if v, err := url.ParseQuery(string(body)); err == nil {
			s = Params(v).Encode()
		} else {
			s = maskShapes(string(body))
		}
	case body[0] == '{' || body[0] == '[':
		var v any
		if err := json.Unmarshal(body, &v); err != nil {
			// Not valid JSON (cut short, or malformed on purpose): its members are still
			// masked where they can be recognised.
			s = maskShapes(jsonMember().ReplaceAllStringFunc(string(body), maskMember))
			break
		}
		b, _ := json.Marshal(maskJSON(v))
		s = string(b)
	default:
		s = maskShapes(string(body))
	}
	if len(s) > max {
		s = s[:max] + "…"
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

func maskJSON(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if _, str := e.(string); str && IsSecretParam(k) {
				x[k] = Mask
			} else {
				x[k] = maskJSON(e)
			}
		}
	case []any:
		for i, e := range x {
			x[i] = maskJSON(e)
		}
	}
	return v
}
