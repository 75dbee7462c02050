package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/auth"
	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// fakeAuth is a small auth.Controller whose flow the test steers: Login waits for the
// browser until approve or CancelWait.
type fakeAuth struct {
	mu        sync.Mutex
	st        auth.Status
	changed   chan struct{}
	cancel    chan struct{}
	approve   chan struct{}
	refreshes int
	cancels   int
}

// fakeToken is the token the fake holds; the page must never show it.
const fakeToken = "eyJhbGciOiJFUzI1NiJ9.the-access-token-itself.signature-wxyz"

func newFakeAuth() *fakeAuth {
	return &fakeAuth{changed: make(chan struct{}, 1), st: auth.Status{
		State: auth.StateAuthorized, Resource: "https://mcp.example.com/mcp",
		ResourceMetadataURL: "https://mcp.example.com/.well-known/oauth-protected-resource/mcp",
		Issuer:              "https://login.example.com", ClientID: "client-7f3a", ClientSource: auth.ClientDynamic,
		ScopesRequested: []string{"mcp:read", "mcp:admin"}, ScopesGranted: []string{"mcp:read"},
		TokenType: "Bearer", TokenMasked: auth.MaskToken(fakeToken), Expiry: time.Now().Add(42*time.Minute + 30*time.Second),
		HasRefresh: true, Store: "keyring",
	}}
}

func (f *fakeAuth) Status() auth.Status {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.st
}

func (f *fakeAuth) Changed() <-chan struct{} { return f.changed }

// counts returns how many refreshes and cancels the fake saw.
func (f *fakeAuth) counts() (refreshes, cancels int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.refreshes, f.cancels
}

func (f *fakeAuth) set(fn func(*auth.Status)) {
	f.mu.Lock()
	fn(&f.st)
	f.mu.Unlock()
	select {
	case f.changed <- struct{}{}:
	default:
	}
}

func (f *fakeAuth) Login(ctx context.Context) error {
	f.mu.Lock()
	f.cancel, f.approve = make(chan struct{}), make(chan struct{})
	cancel, approve := f.cancel, f.approve
	f.mu.Unlock()
	f.set(func(s *auth.Status) {
		s.State, s.Step, s.LastError = auth.StateWaiting, auth.StepAuthorize, ""
		s.AuthorizeURL = "https://login.example.com/authorize?response_type=code&client_id=client-7f3a&redirect_uri=http%3A%2F%2F127.0.0.1%3A41234%2Fcallback" +
			"&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256&state=af0ifjsldkj&resource=https%3A%2F%2Fmcp.example.com%2Fmcp&scope=mcp%3Aread+mcp%3Aadmin"
	})
	select {
	case <-approve:
		f.set(func(s *auth.Status) { s.State, s.Step, s.AuthorizeURL = auth.StateAuthorized, "", "" })
		return nil
	case <-cancel:
		f.set(func(s *auth.Status) {
			s.State, s.Step, s.AuthorizeURL = auth.StateFailed, "", ""
			s.LastError = "the wait for the browser was stopped before the authorization server redirected back"
		})
		return fmt.Errorf("log in: %w", context.Canceled)
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (f *fakeAuth) Refresh(context.Context) error {
	f.mu.Lock()
	f.refreshes++
	f.mu.Unlock()
	f.set(func(s *auth.Status) { s.Expiry = time.Now().Add(2 * time.Hour) })
	return nil
}

func (f *fakeAuth) Logout() error {
	f.set(func(s *auth.Status) {
		s.State, s.TokenMasked, s.HasRefresh, s.ClientID, s.ClientSource, s.Expiry = auth.StateNone, "", false, "", "", time.Time{}
	})
	return nil
}

func (f *fakeAuth) CancelWait() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.cancels++
	if f.cancel != nil {
		close(f.cancel)
		f.cancel = nil
	}
}

// TestAuthPageNoAuthorization: on the demo server (stdio) the Auth page says there is no
// authorization and why, and its keys are off with that reason.
func TestAuthPageNoAuthorization(t *testing.T) {
	m := NewModel(NewCommon(nil), demoOptions(t, nil))
	d := newDriver(t, m)
	d.handle(tea.WindowSizeMsg{Width: 120, Height: 30})
	d.run(m.Init())
	d.until(60*time.Second, "the handshake", func() bool { return m.state == session.StateReady })
	d.keys("7")
	scr := plainScreen(m)
	if !strings.Contains(scr, "No authorization: the server is spawned (stdio), and authorization is for HTTP servers.") {
		t.Errorf("the page does not say there is no authorization:\n%s", scr)
	}
	if foot := lastLine(scr); strings.Contains(foot, "log in again") {
		t.Errorf("the help line offers a key that is off: %q", foot)
	}
	d.keys("l")
	d.until(20*time.Second, "the reason in the status line", func() bool {
		return strings.Contains(lastLine(plainScreen(m)), "l (log in again) is off: the server is spawned (stdio)")
	})
}

// TestAuthPageFlow: the page shows the controller's status (token masked, expiry relative
// and absolute, scopes not granted), refreshes, logs in with the dialog for the browser
// (the URL whole, copy, stop waiting), follows changes the controller makes by itself, and
// logs out.
func TestAuthPageFlow(t *testing.T) {
	m := NewModel(NewCommon(nil), Options{Target: "https://mcp.example.com/mcp", TransportName: "http"})
	d := newDriver(t, m)
	d.handle(tea.WindowSizeMsg{Width: 120, Height: 36})
	f := newFakeAuth()
	done := make(chan struct{})
	t.Cleanup(func() { close(done) })
	d.run(m.auth.SetController(1, f, done, ""))
	d.keys("7")
	scr := plainScreen(m)
	for _, want := range []string{"authorized", "https://mcp.example.com/mcp", "https://login.example.com",
		"client-7f3a (dynamic registration)", "mcp:read mcp:admin", "not granted    mcp:admin",
		"Bearer " + auth.MaskToken(fakeToken), "in 42m (" + f.st.Expiry.Local().Format("2006-01-02 15:04"), "stored (r refreshes now)", "keyring"} {
		if !strings.Contains(scr, want) {
			t.Errorf("the page lacks %q:\n%s", want, scr)
		}
	}
	if strings.Contains(m.Render(), "the-access-token-itself") {
		t.Fatal("the page shows the token")
	}

	d.keys("r")
	d.until(20*time.Second, "the refresh", func() bool {
		return strings.Contains(plainScreen(m), "in 1h59m") || strings.Contains(plainScreen(m), "in 2h (")
	})
	if n, _ := f.counts(); n != 1 {
		t.Errorf("%d refreshes", n)
	}

	d.keys("l")
	d.until(20*time.Second, "the dialog for the browser", func() bool { return m.auth.Waiting() && waitKeysUp(m) })
	scr = plainScreen(m)
	iw := m.layout.Body.W // the URL spans the body
	url := f.Status().AuthorizeURL
	for _, part := range strings.Split(ansi.Hardwrap(url, iw, false), "\n") {
		if !strings.Contains(scr, part) {
			t.Errorf("the dialog lacks the URL's piece %q:\n%s", part, scr)
		}
	}
	if ks := m.shortKeys(); !strings.Contains(scr, "Waiting for the browser") || !strings.Contains(scr, "esc stop waiting") ||
		len(ks) != 3 || ks[2].Help().Desc != "stop waiting for the browser" || !ks[2].Enabled() {
		t.Errorf("no dialog or no cancel key:\n%s", scr)
	}
	d.keys("1") // the dialog keeps every key
	if m.page != pageAuth {
		t.Errorf("a page key went through the dialog")
	}
	d.keys("y")
	d.until(20*time.Second, "the copy", func() bool {
		return strings.Contains(lastLine(plainScreen(m)), "copied the authorization URL")
	})
	d.keys("esc")
	d.until(20*time.Second, "the wait to stop", func() bool {
		scr := plainScreen(m)
		return !m.auth.Waiting() && strings.Contains(scr, "the wait for the browser was stopped") && strings.Contains(lastLine(scr), "log in: stopped")
	})
	if status := strings.Split(plainScreen(m), "\n")[0]; !strings.Contains(status, "authorization failed (7)") {
		t.Errorf("the status bar does not say the authorization failed: %q", status)
	}
	if _, n := f.counts(); n != 1 {
		t.Errorf("CancelWait called %d times", n)
	}
	if s := plainScreen(m); !strings.Contains(s, "failed") {
		t.Errorf("the page does not show the failure:\n%s", s)
	}

	// A server that keeps asking starts another wait: the dialog stays closed until l.
	f.set(func(s *auth.Status) {
		s.State, s.AuthorizeURL = auth.StateWaiting, "https://login.example.com/authorize?again=1"
	})
	d.until(20*time.Second, "the new wait on the page", func() bool {
		return strings.Contains(plainScreen(m), "l shows the dialog again")
	})
	if m.auth.Waiting() {
		t.Error("the dialog came back by itself after the user stopped waiting")
	}
	d.keys("l")
	d.until(20*time.Second, "the dialog back, with its keys", func() bool { return m.auth.Waiting() && waitKeysUp(m) })
	if !strings.Contains(plainScreen(m), "authorize?again=1") {
		t.Errorf("the dialog does not show the new URL:\n%s", plainScreen(m))
	}
	d.keys("esc")
	d.until(20*time.Second, "the second CancelWait", func() bool { _, n := f.counts(); return n == 2 })
	f.set(func(s *auth.Status) { s.State, s.AuthorizeURL = auth.StateFailed, "" })
	d.until(20*time.Second, "the second wait to end", func() bool { return m.auth.st.State == auth.StateFailed })

	d.keys("l")
	d.until(20*time.Second, "the dialog again", func() bool { return m.auth.Waiting() && waitKeysUp(m) })
	d.keys("l") // in the dialog: nothing
	f.mu.Lock()
	close(f.approve)
	f.mu.Unlock()
	d.until(20*time.Second, "the login to end", func() bool {
		return !m.auth.Waiting() && strings.Contains(lastLine(plainScreen(m)), "log in: done")
	})

	// A change the controller makes by itself (a refresh after a 401) shows at once.
	f.set(func(s *auth.Status) {
		s.LastError = "the token endpoint answered 400 invalid_grant: the refresh token expired"
	})
	d.until(20*time.Second, "the controller's own change", func() bool {
		return strings.Contains(plainScreen(m), "invalid_grant: the refresh token expired")
	})

	d.keys("X")
	d.until(20*time.Second, "the logout", func() bool { return strings.Contains(plainScreen(m), "no token") })
	d.keys("X")
	d.until(20*time.Second, "the reason logout is off", func() bool {
		return strings.Contains(lastLine(plainScreen(m)), "X (log out (forget the tokens)) is off: nothing to forget")
	})
}

// waitKeysUp reports whether the help line is the browser dialog's: the dialog has the keys.
func waitKeysUp(m *Model) bool {
	ks := m.shortKeys()
	return len(ks) == 3 && ks[2].Help().Desc == "stop waiting for the browser" && ks[2].Enabled()
}

// lastLine is the screen's footer.
func lastLine(scr string) string {
	lines := strings.Split(strings.TrimRight(scr, "\n"), "\n")
	return lines[len(lines)-1]
}

var _ auth.Controller = (*fakeAuth)(nil)

// TestAuthPageRealFlow runs the model on the demo server over HTTP with mcpscope's own
// authorization (the demo asks for none): the page follows the real flow, says the server
// has not asked, keeps refresh off for want of a refresh token, and on l shows the login
// failing with the reason, since the demo publishes no authorization metadata.
func TestAuthPageRealFlow(t *testing.T) {
	demo, _ := sessiontest.StartDemoHTTP(t)
	browsed := make(chan string, 4)
	sp := session.ServerSpec{URL: demo, Transport: "http", Auth: &auth.Options{Store: auth.NewMemStore(),
		OpenBrowser: func(u string) error { browsed <- u; return errors.New("no browser in tests") }}}
	m := NewModel(NewCommon(nil), Options{Target: demo, TransportName: "http",
		NewSession: specSessions(t, sp)})
	d := newDriver(t, m)
	d.handle(tea.WindowSizeMsg{Width: 120, Height: 36})
	d.run(m.Init())
	d.until(60*time.Second, "the handshake", func() bool { return m.state == session.StateReady })
	if m.auth.ctrl == nil {
		t.Fatal("the page has no controller for a session with authorization")
	}
	d.keys("7")
	scr := plainScreen(m)
	for _, want := range []string{"state          none", "has not asked for authorization yet", "store          none (memory only)"} {
		if !strings.Contains(scr, want) {
			t.Errorf("the page lacks %q:\n%s", want, scr)
		}
	}
	d.keys("r")
	d.until(20*time.Second, "the reason refresh is off", func() bool {
		return strings.Contains(lastLine(plainScreen(m)), "r (refresh the token now) is off: no refresh token")
	})
	d.keys("l")
	d.until(30*time.Second, "the login to fail", func() bool {
		return m.auth.st.State == auth.StateFailed && m.auth.busy == ""
	})
	scr = plainScreen(m)
	if !strings.Contains(scr, "failed") || m.auth.st.LastError == "" || !strings.Contains(scr, firstWords(m.auth.st.LastError, 4)) {
		t.Errorf("the failure is not shown (last error %q):\n%s", m.auth.st.LastError, scr)
	}
	select {
	case u := <-browsed:
		t.Errorf("a browser was sent to %s", u)
	default:
	}
}

// firstWords is the first n words of s.
func firstWords(s string, n int) string {
	f := strings.Fields(s)
	return strings.Join(f[:min(n, len(f))], " ")
}

// TestAuthPageLoginAfterEnd: when the session the page belongs to has ended (a login
// stopped while connecting ends it), l starts a new session, which logs in when its server
// asks, instead of a login bound to the dead one.
func TestAuthPageLoginAfterEnd(t *testing.T) {
	m := NewModel(NewCommon(nil), demoOptions(t, nil))
	d := newDriver(t, m)
	d.handle(tea.WindowSizeMsg{Width: 120, Height: 36})
	d.run(m.Init())
	d.until(20*time.Second, "the demo ready", func() bool { return strings.Contains(plainScreen(m), "ready") })
	gen := m.gen
	done := make(chan struct{})
	close(done)
	d.run(m.auth.SetController(gen, newFakeAuth(), done, ""))
	d.keys("7", "l")
	d.until(20*time.Second, "a new session", func() bool { return m.gen > gen && strings.Contains(plainScreen(m), "ready") })
}
