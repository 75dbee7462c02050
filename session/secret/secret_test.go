package secret

import (
	"net/http"
	"testing"
)

func TestHeaders(t *testing.T) {
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

	got := Headers(h)
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
	if Headers(nil) != nil {
		t.Error("Headers(nil) != nil")
	}
}

func TestURL(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"http://127.0.0.1:9/mcp?api_key=SECRETVALUE&x=1", "http://127.0.0.1:9/mcp?api_key=****&x=1"},
		{"https://h/mcp?key=SECRETVALUE", "https://h/mcp?key=****"},
		{"https://h/mcp?X-Amz-Signature=abcdef123456&v=2", "https://h/mcp?X-Amz-Signature=****&v=2"},
		{"https://user:hunter2hunter2@h/mcp", "https://user:****@h/mcp"},
		{"https://h/mcp?page=2", "https://h/mcp?page=2"},
		{"not a url %zz token=SECRETVALUE", "not a url %zz token=****"},
	} {
		if got := URL(c.in); got != c.want {
			t.Errorf("URL(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	vals := URLValues("https://u:pw-123456@h/?api_key=SEC%2FRET&page=3")
	for _, w := range []string{"pw-123456", "SEC/RET", "SEC%2FRET"} {
		found := false
		for _, v := range vals {
			found = found || v == w
		}
		if !found {
			t.Errorf("URLValues misses %q: %q", w, vals)
		}
	}
}

func TestMasker(t *testing.T) {
	m := New([]string{"SECRET-VALUE", `quo"ted-secret`, "12345678", "abc"}, false)
	in := `x SECRET-VALUE {"a":"quo\"ted-secret"} 12345678 abc Bearer tok.en-123 ?token=zzz`
	want := `x **** {"a":"****"} 12345678 abc Bearer **** ?token=****`
	if got := m.String(in); got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
	if got := string(m.Bytes([]byte(in))); got != want {
		t.Errorf("Bytes = %q, want %q", got, want)
	}
	if got := New([]string{"SECRET-VALUE"}, true).String(in); got != in {
		t.Errorf("off masker changed %q to %q", in, got)
	}
	form := "grant_type=x&assertion=eyJ.a.b&client_assertion=eyJ.c.d&subject_token=eyJ.e.f Authorization: DPoP eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.sig"
	if got, want := m.String(form), "grant_type=x&assertion=****&client_assertion=****&subject_token=**** Authorization: DPoP ****"; got != want {
		t.Errorf("String(form) = %q, want %q", got, want)
	}
	var shapesOnly *Masker
	if got := shapesOnly.String("SECRET-VALUE Bearer abcdefgh12"); got != "SECRET-VALUE Bearer ****" {
		t.Errorf("nil masker = %q", got)
	}
	h := http.Header{"X-Trace": {"id SECRET-VALUE"}, "Authorization": {"Bearer SECRET-VALUE"}}
	got := m.Headers(h)
	if got.Get("X-Trace") != "id ****" || got.Get("Authorization") != "Bearer ****ALUE" || h.Get("X-Trace") != "id SECRET-VALUE" {
		t.Errorf("Headers = %v (input now %v)", got, h)
	}
}

// TestAssignmentShapes: KEY=VALUE where the name ends in a secret word is masked whatever
// the value's characters, in plain text and inside JSON strings (raw or \u-escaped); a
// name whose last word is no secret's keeps its value.
func TestAssignmentShapes(t *testing.T) {
	const uni = "sk-Ünïcødé-秘密-ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	for _, tc := range []struct{ in, want string }{
		{"API_TOKEN=" + uni, "API_TOKEN=****"},
		{`{"env":["API_TOKEN=` + uni + `","DEBUG=1"]}`, `{"env":["API_TOKEN=****","DEBUG=1"]}`},
		{`{"env":["API_TOKEN=sk-\u00dcn\u00efc\u00f8d\u00e9-\u79d8\u5bc6-XYZ"]}`, `{"env":["API_TOKEN=****"]}`},
		{"export DB_PASSWORD=p@ss wörd", "export DB_PASSWORD=**** wörd"},
		{"OPENAI_API_KEY=abc123 AWS_SECRET_ACCESS_KEY=wJalr/K7MDENG x", "OPENAI_API_KEY=**** AWS_SECRET_ACCESS_KEY=**** x"},
		{"--client-secret=s3cr3t --github_token=ghx-1234", "--client-secret=**** --github_token=****"},
		{"max_tokens=100 token_type=bearer tokens=5 sort_key=name DEBUG=1", "max_tokens=100 token_type=bearer tokens=5 sort_key=name DEBUG=1"},
	} {
		if got := New(nil, false).String(tc.in); got != tc.want {
			t.Errorf("String(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if got := string(New(nil, false).Bytes([]byte(tc.in))); got != tc.want {
			t.Errorf("Bytes(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
