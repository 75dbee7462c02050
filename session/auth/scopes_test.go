package auth

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/protocol"
)

// TestTokenScopesNotGranted: the token step names the requested scopes the answer lacks;
// offline_access counts as lacking only when no refresh token came either.
func TestTokenScopesNotGranted(t *testing.T) {
	for _, c := range []struct{ name, answer, want string }{
		{"one missing", `{"access_token":"at-1","token_type":"Bearer","expires_in":60,"scope":"a","refresh_token":"rt"}`, "not granted: b"},
		{"no refresh token", `{"access_token":"at-1","token_type":"Bearer","expires_in":60,"scope":"a b"}`, "not granted: offline_access"},
		{"all", `{"access_token":"at-1","token_type":"Bearer","expires_in":60,"scope":"a b","refresh_token":"rt"}`, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			x, sink := exchanger(t)
			ts := newTokenServer(t, func(_ int, _ url.Values, _ http.Header, w http.ResponseWriter) { _, _ = w.Write([]byte(c.answer)) })
			f := New(Options{})
			f.BindAuth(x)
			d := &Discovery{AS: &ServerMetadata{TokenEndpoint: ts.URL + "/token"}}
			if _, err := f.TokenRequest(context.Background(), StepToken, d, &Record{ClientID: "c"}, url.Values{"grant_type": {"authorization_code"}}, []string{"a", "b", "offline_access"}); err != nil {
				t.Fatal(err)
			}
			sink.mu.Lock()
			defer sink.mu.Unlock()
			var got []string
			for _, ex := range sink.exs {
				for _, p := range ex.Problems {
					if p.Code == protocol.FindAuthScopeNotGranted {
						got = append(got, p.Text)
					}
				}
			}
			if strings.Join(got, "; ") != c.want {
				t.Errorf("problems %q, want %q", got, c.want)
			}
		})
	}
}
