package transport

import (
	"net/http"
	"testing"
)

func TestMaskHeaders(t *testing.T) {
	h := http.Header{}
	h.Set("Authorization", "Bearer abcdefghijklmnopqrstuvwxyz")
	h.Set("Proxy-Authorization", "Basic dXNlcjpwYXNzd29yZA==")
	h.Set("Cookie", "session=0123456789abcdef")
	h.Add("Set-Cookie", "a=0123456789")
	h.Add("Set-Cookie", "b=x")
	h.Set("X-Api-Key", "k-1234567890")
	h.Set("X-Upstream-Token", "tok_secretvalue")
	h["x-client-secret"] = []string{"s3cr3t-s3cr3t"}
	h.Set("X-Db-Password", "hunter22hunter22")
	h.Set("X-Auth-User", "alice-the-admin")
	h.Set("Content-Type", "application/json")
	h.Set("Mcp-Session-Id", "sess-123")
	h.Set("Authorization2", "short")

	got := MaskHeaders(h)
	want := map[string][]string{
		"Authorization":       {"Bearer ****wxyz"},
		"Proxy-Authorization": {"Basic ****ZA=="},
		"Cookie":              {"****cdef"},
		"Set-Cookie":          {"****6789", "****"},
		"X-Api-Key":           {"****7890"},
		"X-Upstream-Token":    {"****alue"},
		"x-client-secret":     {"****cr3t"},
		"X-Db-Password":       {"****er22"},
		"X-Auth-User":         {"****dmin"},
		"Content-Type":        {"application/json"},
		"Mcp-Session-Id":      {"sess-123"},
		"Authorization2":      {"****"},
	}
	for name, w := range want {
		g := got[name]
		if len(g) != len(w) {
			t.Errorf("%s: got %q, want %q", name, g, w)
			continue
		}
		for i := range w {
			if g[i] != w[i] {
				t.Errorf("%s[%d]: got %q, want %q", name, i, g[i], w[i])
			}
		}
	}
	if h.Get("Authorization") != "Bearer abcdefghijklmnopqrstuvwxyz" {
		t.Error("MaskHeaders changed its input")
	}
	if MaskHeaders(nil) != nil {
		t.Error("MaskHeaders(nil) != nil")
	}
}
