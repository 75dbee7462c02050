package serve

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/auth"
	"github.com/mcpscope/mcpscope/session/demo"
	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// browse is a browser stand-in: the user opens the authorization URL and approves, and the
// browser follows the redirect to mcpscope's loopback listener.
func browse(t *testing.T, u string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u+"&approve=1", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("the browser: %v", err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("the browser: the callback answered %s", resp.Status)
	}
}

// authOpener opens HTTP sessions whose logins use store and present their URL to the agent.
func authOpener(store auth.Store) Opener {
	return func(tg Target) (*Opened, error) {
		sp := session.ServerSpec{URL: tg.URL, Transport: "http", Auth: &auth.Options{Store: store, OpenBrowser: tg.Login(), Asked: true}}
		tr, err := sp.NewTransport()
		if err != nil {
			return nil, err
		}
		s := session.New(session.Config{Transport: tr, Protocol: "2025-11-25", Caps: session.DefaultCaps()})
		return &Opened{Session: s, Header: recordings.Header{Server: tg.URL, Transport: "http"}}, nil
	}
}

// TestLoginForAgents: connect to the demo behind its OAuth server returns pending_auth with
// the authorization URL; await_auth waits while the user has not logged in, and gives the
// handshake once they did; the token is stored, so the next connect needs no login.
func TestLoginForAgents(t *testing.T) {
	mcpURL := sessiontest.StartDemoAuthHTTP(t, demo.AuthOptions{})
	s := New(Options{Open: authOpener(auth.NewFileStore(t.TempDir())), RecordDir: t.TempDir()})
	defer s.Close()
	cs := inMemory(t, s)
	var c Connected
	callInto(t, cs, "connect", map[string]any{"url": mcpURL}, &c)
	if c.PendingAuth == nil || !strings.Contains(c.PendingAuth.URL, "/authorize?") || c.Session == "" || c.Handshake.Name != "" {
		t.Fatalf("connect to a server that needs a login: %+v", c)
	}
	var list SessionList
	callInto(t, cs, "sessions", map[string]any{}, &list)
	if len(list.Sessions) != 1 || list.Sessions[0].State == "ready" {
		t.Errorf("sessions while the login waits: %+v", list)
	}
	var still Connected
	callInto(t, cs, "await_auth", map[string]any{"session": c.Session, "wait_ms": 50}, &still)
	if still.PendingAuth == nil || still.PendingAuth.URL != c.PendingAuth.URL {
		t.Errorf("await_auth before the login: %+v", still)
	}
	browse(t, c.PendingAuth.URL)
	var done Connected
	callInto(t, cs, "await_auth", map[string]any{"session": c.Session}, &done)
	if done.PendingAuth != nil || done.Handshake.Name != "mcpscope-demo" {
		t.Fatalf("await_auth after the login: %+v", done)
	}
	var who Answer
	callInto(t, cs, "call_tool", map[string]any{"session": c.Session, "name": "whoami"}, &who)
	if who.Exchange.ToolError || who.Exchange.Error != nil || who.Exchange.ResponseSeq == 0 {
		t.Errorf("whoami after the login: %s %+v", who.Result, who.Exchange)
	}
	// The token is stored: a new session logs in with it.
	var again Connected
	callInto(t, cs, "connect", map[string]any{"url": mcpURL}, &again)
	if again.PendingAuth != nil || again.Handshake.Name != "mcpscope-demo" {
		t.Errorf("a second connect with the token stored: %+v", again)
	}
}

// TestLoginPasted: a browser on another machine cannot reach the login's listener; the
// address it ended on, given to await_auth, is delivered to it, and the session proceeds.
// An address for another place is refused.
func TestLoginPasted(t *testing.T) {
	mcpURL := sessiontest.StartDemoAuthHTTP(t, demo.AuthOptions{})
	s := New(Options{Open: authOpener(auth.NewFileStore(t.TempDir())), RecordDir: t.TempDir()})
	defer s.Close()
	cs := inMemory(t, s)
	var c Connected
	callInto(t, cs, "connect", map[string]any{"url": mcpURL}, &c)
	if c.PendingAuth == nil {
		t.Fatalf("connect: %+v", c)
	}
	// The remote browser: approves, and stops at the redirect it cannot follow.
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Get(c.PendingAuth.URL + "&approve=1")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	ended := resp.Header.Get("Location")
	if ended == "" {
		t.Fatalf("the authorization server did not redirect: %s", resp.Status)
	}
	if msg, _ := toolError(t, cs, "await_auth", map[string]any{"session": c.Session, "pasted": "http://example.com/callback?code=x"}); !strings.Contains(msg, "want the address") {
		t.Errorf("a pasted address elsewhere: %s", msg)
	}
	var done Connected
	callInto(t, cs, "await_auth", map[string]any{"session": c.Session, "pasted": ended}, &done)
	if done.PendingAuth != nil || done.Handshake.Name != "mcpscope-demo" {
		t.Errorf("await_auth with the pasted address: %+v", done)
	}
}
