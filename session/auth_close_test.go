package session_test

import (
	"context"
	"net"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/auth"
	"github.com/mcpscope/mcpscope/session/demo"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/session/transport"
)

// TestAuthStopsWithSession: a session closed while its login waits for the browser takes
// the login with it. Close returns with the callback listener shut, Connect returns, and a
// browser that approves afterwards reaches no listener, so nothing is stored once the
// session is gone (a login used to go on for up to ten minutes on its own).
func TestAuthStopsWithSession(t *testing.T) {
	mcpURL := sessiontest.StartDemoAuthHTTP(t, demo.AuthOptions{})
	store := auth.NewFileStore(t.TempDir())
	opened := make(chan string, 1)
	flow := auth.New(auth.Options{ServerURL: mcpURL, Store: store, OpenBrowser: func(u string) error {
		opened <- u
		return nil
	}})
	s := session.New(session.Config{Protocol: "auto", Transport: transport.NewStreamableHTTP(transport.HTTPOptions{URL: mcpURL, Auth: flow})})
	connected := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		connected <- s.Connect(ctx)
	}()
	var authURL string
	select {
	case authURL = <-opened:
	case err := <-connected:
		t.Fatalf("connect ended before the browser was opened: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("the browser was never opened")
	}
	au, err := url.Parse(authURL)
	if err != nil {
		t.Fatal(err)
	}
	callback, err := url.Parse(au.Query().Get("redirect_uri"))
	if err != nil || callback.Host == "" {
		t.Fatalf("authorization URL without a redirect_uri: %s", authURL)
	}
	if err := s.Close(); err != nil {
		t.Logf("close: %v", err)
	}
	select {
	case err := <-connected:
		if err == nil {
			t.Fatal("connect succeeded without a login")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("connect still waits for the browser after the session closed")
	}
	if st := flow.Status().State; st == auth.StateWaiting {
		t.Fatalf("the flow still waits for the browser after the session closed: %+v", flow.Status())
	}
	if c, err := net.DialTimeout("tcp", callback.Host, 2*time.Second); err == nil {
		c.Close()
		t.Fatalf("the callback listener %s still accepts after the session closed", callback.Host)
	}
	// The user approves in the browser now: the redirect has nowhere to go.
	client := &http.Client{Timeout: 10 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Get(authURL + "&approve=1")
	if err != nil {
		t.Fatalf("approve: %v", err)
	}
	resp.Body.Close()
	if loc := resp.Header.Get("Location"); loc != "" {
		if r, err := http.Get(loc); err == nil {
			r.Body.Close()
			t.Fatalf("the callback %s answered after the session closed", loc)
		}
	}
	keys, err := store.List()
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		if rec, ok, _ := store.Get(k); ok && rec.AccessToken != "" {
			t.Fatalf("a token was stored after the session closed: %+v", k)
		}
	}
	// No new login starts on a closed flow.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := flow.Login(ctx); err == nil {
		t.Fatal("a login succeeded on the flow of a closed session")
	}
}
