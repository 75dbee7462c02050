package secret

import "testing"

// TestChallengeNotMasked: a WWW-Authenticate challenge holds no secret and is shown whole;
// a token after Bearer or DPoP still is masked.
func TestChallengeNotMasked(t *testing.T) {
	for _, s := range []string{
		`Bearer resource_metadata="http://127.0.0.1:8080/.well-known/oauth-protected-resource/mcp", scope="demo"`,
		`Bearer error="insufficient_scope", scope="demo demo:admin"`,
		`Bearer realm="example", error="invalid_token"`,
		`DPoP algs="ES256", error="use_dpop_nonce"`,
	} {
		if got := (*Masker)(nil).String(s); got != s {
			t.Errorf("challenge masked:\n got %s\nwant %s", got, s)
		}
		if got := string((*Masker)(nil).Bytes([]byte(s))); got != s {
			t.Errorf("challenge masked (bytes):\n got %s\nwant %s", got, s)
		}
	}
	for in, want := range map[string]string{
		"Authorization: Bearer eyJhbGciOiJFUzI1NiJ9.e30.sig":  "Authorization: Bearer " + Mask,
		"Bearer abcdefghijklmnop==":                           "Bearer " + Mask,
		"DPoP eyJhbGciOiJFUzI1NiIsInR5cCI6ImF0K2p3dCJ9.e30.x": "DPoP " + Mask,
	} {
		if got := (*Masker)(nil).String(in); got != want {
			t.Errorf("%q masked as %q, want %q", in, got, want)
		}
	}
}
