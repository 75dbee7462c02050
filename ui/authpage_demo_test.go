package ui

import (
	"context"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/auth"
	"github.com/mcpscope/mcpscope/session/demo"
	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// TestAuthPageDemo runs the model on the demo with authorization: the server's 401 starts
// the flow, the dialog shows the URL the browser was given, approving it (a GET with
// approve=1, as the demo allows) completes the handshake, the Auth page shows what was
// obtained, r refreshes, a restart uses the stored token without the browser, and X logs
// out, leaving nothing in the store.
func TestAuthPageDemo(t *testing.T) {
	mcpURL := sessiontest.StartDemoAuthHTTP(t, demo.AuthOptions{})
	// The store's directory is removed once nothing writes to it any more: a flow may still
	// be storing the last token while the sessions close.
	dir, err := os.MkdirTemp("", "mcpscope-authpage-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			if err := os.RemoveAll(dir); err == nil || time.Now().After(deadline) {
				return
			}
		}
	})
	store := auth.NewFileStore(dir)
	browsed := make(chan string, 4)
	sp := session.ServerSpec{URL: mcpURL, Transport: "http", Auth: &auth.Options{Store: store,
		OpenBrowser: func(u string) error { browsed <- u; return nil }}}
	var (
		mu       sync.Mutex
		sessions []*session.Session
	)
	t.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		for _, s := range sessions {
			_ = s.Close()
		}
	})
	m := NewModel(NewCommon(nil), Options{Target: mcpURL, TransportName: "http",
		NewSession: func() (*session.Session, error) {
			tr, err := sp.NewTransport()
			if err != nil {
				return nil, err
			}
			s := session.New(session.Config{Transport: tr, Protocol: "2025-11-25"})
			mu.Lock()
			sessions = append(sessions, s)
			mu.Unlock()
			return s, nil
		}})
	d := newDriver(t, m)
	d.handle(tea.WindowSizeMsg{Width: 130, Height: 40})
	d.run(m.Init())

	d.until(60*time.Second, "the dialog for the browser", func() bool { return m.auth.Waiting() && waitKeysUp(m) })
	var u string
	select {
	case u = <-browsed:
	case <-time.After(10 * time.Second):
		t.Fatal("the flow did not open a browser")
	}
	if u != m.auth.st.AuthorizeURL {
		t.Errorf("the dialog shows %q, the browser was given %q", m.auth.st.AuthorizeURL, u)
	}
	scr := plainScreen(m)
	iw := m.layout.Body.W // the URL spans the body
	for _, part := range strings.Split(ansi.Hardwrap(u, iw, false), "\n") {
		if !strings.Contains(scr, part) {
			t.Fatalf("the dialog lacks the URL's piece %q:\n%s", part, scr)
		}
	}
	approve(t, u)
	d.until(60*time.Second, "the handshake after the authorization", func() bool {
		return m.state == session.StateReady && m.auth.st.State == auth.StateAuthorized && !m.auth.Waiting()
	})

	d.keys("7")
	scr = plainScreen(m)
	base := strings.TrimSuffix(mcpURL, "/mcp")
	for _, want := range []string{"authorized", mcpURL, base + "/.well-known/oauth-protected-resource", "(dynamic registration)",
		"scopes granted demo", "Bearer ", "bytes)", "in 5m", "stored (r refreshes now)", "store          file "} {
		if !strings.Contains(scr, want) {
			t.Errorf("the Auth page lacks %q:\n%s", want, scr)
		}
	}
	if status := strings.Split(scr, "\n")[0]; !strings.Contains(status, "auth authorized") {
		t.Errorf("status bar: %q", status)
	}
	before := m.auth.st.TokenMasked
	d.keys("r")
	d.until(30*time.Second, "the refresh and its new token on the page", func() bool {
		return strings.Contains(lastLine(plainScreen(m)), "refresh: done") && m.auth.st.TokenMasked != before
	})

	d.keys("R")
	d.until(60*time.Second, "the restarted session", func() bool {
		return m.state == session.StateReady && m.auth.gen == 2 && m.auth.st.State == auth.StateAuthorized
	})
	select {
	case u := <-browsed:
		t.Errorf("the restart needed the browser again (%s)", u)
	default:
	}

	client := m.auth.st.ClientID
	d.keys("7", "X")
	d.until(30*time.Second, "the logout", func() bool { return strings.Contains(lastLine(plainScreen(m)), "log out: done") })
	// The logout removes the token and the client it was issued to. A request of the
	// session that was still under way (the restart's last lists) may meet a 401 at once
	// and start a new login, which registers and keeps a new client: that record may be
	// there, never a token or the old client.
	keys, err := store.List()
	if err != nil {
		t.Fatalf("the store after logout: %v", err)
	}
	for _, k := range keys {
		rec, ok, err := store.Get(k)
		if err != nil || !ok {
			continue // deleted since List
		}
		if rec.AccessToken != "" || rec.RefreshToken != "" || rec.ClientID == client {
			t.Errorf("the store after logout holds %v: client %s (before the logout %s), access token %t, refresh token %t",
				k, rec.ClientID, client, rec.AccessToken != "", rec.RefreshToken != "")
		}
	}

	// Logging in again goes through the browser, and the page follows it to the end. The
	// session's next request may have met a 401 and started it already; else l does.
	if !m.auth.Waiting() {
		d.keys("l")
	}
	d.until(30*time.Second, "the dialog for the new login", func() bool { return m.auth.Waiting() && waitKeysUp(m) })
	approve(t, m.auth.st.AuthorizeURL)
	d.until(30*time.Second, "the new login, stored", func() bool {
		keys, err := store.List()
		return m.auth.st.State == auth.StateAuthorized && !m.auth.Waiting() && err == nil && len(keys) == 1
	})
}

// approve completes an authorization at the demo as its approve button would: a GET of the
// URL with approve=1, following the redirect to the flow's loopback listener.
func approve(t *testing.T, u string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u+"&approve=1", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("approve: %v", err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("approve: the callback answered %s", resp.Status)
	}
}
