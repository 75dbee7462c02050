package ui

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/session/auth"
)

// TestAuthPageRefreshOffAfterFailure: after a login that failed (denied), with no token at
// all, the refresh key's reason does not say the authorization server gave a token without
// a refresh token: none was issued.
func TestAuthPageRefreshOffAfterFailure(t *testing.T) {
	p := &AuthPage{c: NewCommon(nil), ctrl: auth.New(auth.Options{ServerURL: "http://127.0.0.1:1/mcp"})}
	p.st = auth.Status{State: auth.StateFailed, LastError: `the authorization server answered access_denied`}
	p.syncKeys()
	k := &p.c.Keys.AuthRefresh
	why := p.c.Keys.DisabledReason(keyPress(k.Keys()[0]), k)
	if !strings.Contains(why, "no token was issued") || strings.Contains(why, "gave none") {
		t.Errorf("refresh is off with %q", why)
	}
}
