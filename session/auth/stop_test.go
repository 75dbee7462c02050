package auth_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/mcpscope/mcpscope/session/auth"
	"github.com/mcpscope/mcpscope/session/demo"
	"github.com/mcpscope/mcpscope/session/transport"
)

// demoAS is the demo server with its authorization server, on a loopback port.
func demoAS(t *testing.T) string {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	base := "http://" + srv.Listener.Addr().String()
	h, err := demo.AuthHandler(io.Discard, demo.AuthOptions{BaseURL: base})
	if err != nil {
		t.Fatal(err)
	}
	srv.Config.Handler = h
	srv.Start()
	t.Cleanup(srv.Close)
	return base
}

// refused is the demo's 401 to a request without a token.
func refused(t *testing.T, mcpURL string) *http.Response {
	t.Helper()
	resp, err := http.Post(mcpURL, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("the demo answered %d without a token", resp.StatusCode)
	}
	return resp
}

// TestFlowStopsAfterDenial: once the user denied the consent, the server asking again (the
// next request's 401) gets the same outcome at once, without another trip to the browser;
// the failure names its step; Login starts anew.
func TestFlowStopsAfterDenial(t *testing.T) {
	base := demoAS(t)
	var opened atomic.Int32
	f := auth.New(auth.Options{ServerURL: base + "/mcp", OpenBrowser: func(u string) error {
		opened.Add(1)
		go func() { // the user's browser: the approve page, and the Deny button
			if resp, err := http.Get(u + "&deny=1"); err == nil {
				resp.Body.Close()
			}
		}()
		return nil
	}})
	f.BindAuth(transport.NewAuthExchanger(transport.HTTPOptions{}, nil))
	ctx := context.Background()

	_, err := f.Unauthorized(ctx, refused(t, base+"/mcp"))
	var ae *auth.Error
	if !errors.As(err, &ae) || ae.Step != auth.StepAuthorize || !strings.HasPrefix(ae.Outcome(), "[authorize] the authorization server answered access_denied") {
		t.Fatalf("denied: err = %v (step %q)", err, stepOf(ae))
	}
	for range 2 {
		_, err = f.Unauthorized(ctx, refused(t, base+"/mcp"))
		if !errors.As(err, &ae) || !strings.Contains(err.Error(), "access_denied") || !strings.Contains(err.Error(), "not authorizing again") {
			t.Errorf("asked again: err = %v", err)
		}
	}
	if n := opened.Load(); n != 1 {
		t.Errorf("the browser was opened %d times, want once", n)
	}
	if err := f.Login(ctx); err == nil || opened.Load() != 2 {
		t.Errorf("Login after the denial: err = %v, browser opened %d times in all (want 2)", err, opened.Load())
	}
}

func stepOf(ae *auth.Error) auth.Step {
	if ae == nil {
		return ""
	}
	return ae.Step
}

// exchanges keeps the HTTP exchanges reported to it.
type exchanges struct {
	mu  sync.Mutex
	exs []*transport.HTTPExchange
}

func (s *exchanges) Received([]byte, transport.RecvInfo) {}
func (s *exchanges) Stderr([]byte)                       {}
func (s *exchanges) Note(transport.Note)                 {}
func (s *exchanges) Exited(transport.ExitInfo)           {}
func (s *exchanges) HTTP(ex *transport.HTTPExchange) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.exs = append(s.exs, ex)
}

// TestRevokeMasked: the revocation requests (RFC 7009) go to the endpoint the metadata
// names, are reported with their step, and show the tokens masked; a server that refuses
// the client says so in the result.
func TestRevokeMasked(t *testing.T) {
	base := demoAS(t)
	sink := &exchanges{}
	rec := &auth.Record{Key: auth.Key{Resource: base + "/mcp", Issuer: base}, ClientID: "no-such-client",
		AccessToken: "the-access-token-value", RefreshToken: "the-refresh-token-value"}
	rv := auth.Revoke(context.Background(), transport.NewAuthExchanger(transport.HTTPOptions{}, sink), rec)
	if rv.Endpoint != base+"/revoke" || len(rv.Revoked) != 0 || !strings.Contains(rv.Error, "invalid_client") {
		t.Errorf("revocation = %+v", rv)
	}
	sink.mu.Lock()
	defer sink.mu.Unlock()
	n := 0
	for _, ex := range sink.exs {
		if ex.Step == string(auth.StepRevocation) {
			n++
		}
		if strings.Contains(ex.ReqBody, "-token-value") || strings.Contains(ex.URL, "-token-value") {
			t.Errorf("a token shown: %s %s", ex.URL, ex.ReqBody)
		}
	}
	if n != 2 {
		t.Errorf("%d revocation requests reported, want 2 (refresh token, access token)", n)
	}
}
