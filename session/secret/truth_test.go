package secret

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestNotASecret: code, comparisons, member accesses, expressions and prose that name a
// secret are not secrets, and stay byte for byte.
func TestNotASecret(t *testing.T) {
	m := New([]string{"planted-e-value-123"}, false)
	for _, in := range []string{
		`if(e.token==="box")return n;`,
		`token==="box"`,
		`token=="box"`,
		`a.token=b.token)`,
		`var api_key=abc123;`,
		`{password:e.password}`,
		`t.accessToken=n.access_token,r.refresh_token=n.refresh_token;`,
		`const token=localStorage.getItem("token");`,
		`headers:{Authorization:"Bearer "+token}`,
		`token=Math.random().toString(36).slice(2)`,
		`apiKey=t.apiKey||""`,
		`password=this.password}`,
		"`?token=${encodeURIComponent(t)}`",
		`e.password=n?r:i`,
		`(token)=>token.trim()`,
		`export GITHUB_TOKEN=$(gh auth token)`,
		`UPDATE users SET token=NULL WHERE id=$1;`,
		`UPDATE users SET api_token=md5(random()::text);`,
		`SELECT * FROM users WHERE password='x' AND token = $1`,
		`max_tokens=100 token_type=bearer tokens=5 sort_key=name PWD=/home/me`,
		`.sk-fading-circle-spinner-dot{width:10px}`,
		`"task-list-item-checkbox-abcdefghijkl"`,
		`Send a Bearer token in the Authorization header.`,
		`WWW-Authenticate: Bearer resource_metadata="https://x/.well-known/oauth-protected-resource"`,
		`{"progressToken":"abc-123-def","nextPageToken":"page-2-of-9","token_type":"Bearer","code":"ENOENT1234"}`,
		`{"properties":{"password":{"type":"string"},"api_key":{"type":"string","default":""}}}`,
	} {
		if got := m.String(in); got != in {
			t.Errorf("String(%q) = %q: not a secret, must stay", in, got)
		}
		if got := string(m.Bytes([]byte(in))); got != in {
			t.Errorf("Bytes(%q) = %q: not a secret, must stay", in, got)
		}
	}
}

// TestSecretsMaskedInPlace: each secret is replaced by the mask and nothing around it is
// eaten: the delimiter after a value, the quotes and escapes of JSON strings.
func TestSecretsMaskedInPlace(t *testing.T) {
	m := New([]string{"planted-e-value-123", `quo"te-secret-1`}, false)
	for _, tc := range []struct{ in, want string }{
		{`x=planted-e-value-123;`, `x=****;`},
		{`api_key=sk-live-0123456789abcdefXYZ;`, `api_key=****;`},
		{"API_KEY=sk-live-0123456789abcdefXYZ\nPORT=8080\n", "API_KEY=****\nPORT=8080\n"},
		{`curl -H "Authorization: Bearer eyJhbGciOi.eyJzdWIi.c2ln" x`, `curl -H "Authorization: Bearer ****" x`},
		{`{"AWS_SECRET_ACCESS_KEY": "wJalrXUtnFEMI/K7MDENG/bPxRfiCY", "region":"eu"}`, `{"AWS_SECRET_ACCESS_KEY": "****", "region":"eu"}`},
		{`{"env":{"apiKey":"abc\"def\\ghi\u00e9"}}`, `{"env":{"apiKey":"****"}}`},
		{`{"text":"{\"AWS_SECRET_ACCESS_KEY\": \"wJalrXUtnFEMI\", \"n\": 1}"}`, `{"text":"{\"AWS_SECRET_ACCESS_KEY\": \"****\", \"n\": 1}"}`},
		{`{"text":"cfg: {\"client_secret\":\"s3cr3t\\\"x\"} end"}`, `{"text":"cfg: {\"client_secret\":\"****\"} end"}`},
		{`{"a":"pre planted-e-value-123 post"}`, `{"a":"pre **** post"}`},
		{`{"a":"quo\"te-secret-1"}`, `{"a":"****"}`},
		{`{"a":"\u0070lanted-e-value-123!"}`, `{"a":"****!"}`},
		{`{"a":"env API_TOKEN=abc\u00e9def1 x"}`, `{"a":"env API_TOKEN=**** x"}`},
		{`{"url":"https://u:pa55word@h/x?access_token=tok123456&p=1"}`, `{"url":"https://u:****@h/x?access_token=****&p=1"}`},
		{`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"`, `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"`},
		{`{"params":{"password":"hunter22`, `{"params":{"password":"****`},
		{`[error] token=abcdef123456 "x"`, `[error] token=**** "x"`},
	} {
		if got := m.String(tc.in); got != tc.want {
			t.Errorf("String(%q)\n = %q\nwant %q", tc.in, got, tc.want)
		}
		if json.Valid([]byte(tc.in)) && !json.Valid([]byte(m.String(tc.in))) {
			t.Errorf("String(%q) is no longer JSON", tc.in)
		}
	}
}

func TestSecretName(t *testing.T) {
	for name, want := range map[string]bool{
		"AWS_SECRET_ACCESS_KEY": true, "OPENAI_API_KEY": true, "client-secret": true, "accessToken": true,
		"DB_PWD": true, "api_key": true, "apikey": true, "x-api-key": true, "code_verifier": true,
		"client_assertion": true, "password": true, "GITHUB_TOKEN": true, "token": true, "device_code": true,
		"max_tokens": false, "token_type": false, "sort_key": false, "nextPageToken": false, "progressToken": false,
		"PWD": false, "code": false, "key": false, "tokens": false, "SECRET_KEY_BASE": false, "": false,
	} {
		if got := SecretName(name); got != want {
			t.Errorf("SecretName(%q) = %v, want %v", name, got, want)
		}
	}
}

// FuzzMaskKeepsJSON: whatever the text and the secret, a text that is JSON is still JSON
// once masked, with the same structure (only string values change).
func FuzzMaskKeepsJSON(f *testing.F) {
	for _, s := range []string{
		`{"a":"b"}`, `{"AWS_SECRET_ACCESS_KEY":"abc\"d\\e\u00e9\ud83d\ude00"}`, `["token=abc123456;x", "Bearer abcdefgh123"]`,
		`{"text":"{\"password\": \"pw\\\"x\"}"}`, `{"k":"\\u0041BCDEFG"}`, `[1, true, null, -2.5e3, {"x":[]}]`,
		`{"a":"x=\"y\" api_key=\\\"z\\\""}`, `"plain string token=abcdef123"`, `{"url":"https://u:p@h/?key=v&a=b"}`,
	} {
		f.Add(s, "secret-value-1")
		f.Add(s, `\u0041B`)
		f.Add(s, `e\"d\\`)
	}
	f.Fuzz(func(t *testing.T, in, sec string) {
		if !json.Valid([]byte(in)) {
			return
		}
		m := New([]string{sec}, false)
		out := m.String(in)
		if !json.Valid([]byte(out)) {
			t.Fatalf("String(%q) with secret %q = %q: not JSON", in, sec, out)
		}
		if b := m.Bytes([]byte(in)); string(b) != out {
			t.Fatalf("Bytes and String differ: %q, %q", b, out)
		}
		if a, b := structure(in), structure(out); a != b {
			t.Fatalf("structure changed:\n%s\n%s", a, b)
		}
	})
}

// structure is the JSON text's tokens with every string replaced by "s" and every
// number by 0.
func structure(s string) string {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var b strings.Builder
	for {
		tok, err := dec.Token()
		if err != nil {
			return b.String()
		}
		switch tok.(type) {
		case string:
			b.WriteString("s ")
		case json.Number:
			b.WriteString("0 ")
		default:
			b.WriteString(strings.TrimSpace(strings.ReplaceAll(jsonTok(tok), "\n", "")) + " ")
		}
	}
}

func jsonTok(tok json.Token) string {
	b, _ := json.Marshal(tok)
	if d, ok := tok.(json.Delim); ok {
		return d.String()
	}
	return string(b)
}

// TestCredentialEnvMasked: the values of mcpscope's credential variables are secrets to
// every Masker, given or not.
func TestCredentialEnvMasked(t *testing.T) {
	t.Setenv("MCPSCOPE_CLIENT_SECRET", "client-secret-from-env-1")
	t.Setenv("MCPSCOPE_BEARER", "Bearer bearer-from-env-2")
	in := `{"env":{"X":"client-secret-from-env-1"},"echo":"bearer-from-env-2"}`
	if got, want := New(nil, false).String(in), `{"env":{"X":"****"},"echo":"****"}`; got != want {
		t.Errorf("String = %s, want %s", got, want)
	}
	if got := New(nil, true).String(in); got != in {
		t.Errorf("an off Masker masked: %s", got)
	}
}

// TestHideReveal: a text masked for editing gets its secrets back in an edit that keeps
// the masks; an edit that drops one cannot.
func TestHideReveal(t *testing.T) {
	m := New([]string{"given-secret-123"}, false)
	in := `{"a":"****","env":{"AWS_SECRET_ACCESS_KEY":"wJalrXUtnFEMI/K7"},"b":"x given-secret-123 y"}`
	h := m.Hide(in)
	if want := `{"a":"****","env":{"AWS_SECRET_ACCESS_KEY":"****"},"b":"x **** y"}`; h.Text() != want || h.Secrets() != 2 {
		t.Fatalf("Hide = %q (%d secrets), want %q", h.Text(), h.Secrets(), want)
	}
	edited := strings.Replace(h.Text(), `"x `, `"edited x `, 1)
	got, err := h.Reveal(edited)
	if want := strings.Replace(in, `"x `, `"edited x `, 1); err != nil || got != want {
		t.Errorf("Reveal = %q, %v; want %q", got, err, want)
	}
	if _, err := h.Reveal(strings.Replace(h.Text(), "x **** y", "x y", 1)); err == nil {
		t.Error("an edit that dropped a mask is revealed")
	}
}

// TestCutJSONMasked: a frame cut short inside a secret member's value, inside an escape,
// is masked up to the cut, the escape's head left alone.
func TestCutJSONMasked(t *testing.T) {
	m := New([]string{"given-secret-42"}, false)
	for _, tc := range []struct{ in, want string }{
		{`{"a":{"password":"abc\u00`, `{"a":{"password":"****\u00`},
		{`{"a":"x given-secret-42 \`, `{"a":"x **** \`},
		{`{"a":"x given-secr`, `{"a":"x given-secr`},
	} {
		if got := m.String(tc.in); got != tc.want {
			t.Errorf("String(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
