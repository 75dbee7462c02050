package secret

import (
	"strings"
	"testing"
)

func TestBody(t *testing.T) {
	form := Body("application/x-www-form-urlencoded", []byte("grant_type=authorization_code&code=abc123secret&code_verifier=vvvvvvvvvv&client_id=c1&client_secret=shh12345"), 1000)
	for _, leak := range []string{"abc123secret", "vvvvvvvvvv", "shh12345"} {
		if strings.Contains(form, leak) {
			t.Errorf("form body leaks %s: %s", leak, form)
		}
	}
	if !strings.Contains(form, "client_id=c1") || !strings.Contains(form, "grant_type=authorization_code") {
		t.Errorf("form body lost what is not secret: %s", form)
	}
	js := Body("application/json", []byte(`{"access_token":"at-very-secret","token_type":"Bearer","expires_in":3600,"refresh_token":"rt-secret","nested":{"id_token":"idt-secret"},"scope":"a b"}`), 1000)
	for _, leak := range []string{"at-very-secret", "rt-secret", "idt-secret"} {
		if strings.Contains(js, leak) {
			t.Errorf("JSON body leaks %s: %s", leak, js)
		}
	}
	if !strings.Contains(js, `"scope":"a b"`) || !strings.Contains(js, `"token_type":"Bearer"`) {
		t.Errorf("JSON body lost what is not secret: %s", js)
	}
	if got := Body("application/json", []byte(`{"authorization_endpoint":"https://as/authorize"}`), 1000); !strings.Contains(got, "https://as/authorize") {
		t.Errorf("metadata endpoints are not secrets: %s", got)
	}
	if got := Body("text/plain", []byte(strings.Repeat("x", 50)), 10); got != strings.Repeat("x", 10)+"…" {
		t.Errorf("cut to the head: %q", got)
	}
}

func TestChallengeNotSecret(t *testing.T) {
	if IsSecretHeader("WWW-Authenticate") || IsSecretHeader("www-authenticate") || !IsSecretHeader("Authorization") {
		t.Error("a challenge is not a secret; Authorization is")
	}
}
