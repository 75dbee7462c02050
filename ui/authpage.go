package ui

import (
	"context"
	"errors"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/auth"
)

// authTick is how often the expiry shown is brought up to date.
const authTick = 15 * time.Second

// refreshTimeout bounds "refresh now"; logging in has no bound of its own (the user takes
// the time the browser needs) and ends with the session or a cancel.
const refreshTimeout = 60 * time.Second

// AuthPage shows the session's authorization (auth.Controller's Status): the protected
// resource, the authorization server, how the client id was obtained, the scopes, the
// token (masked) and its expiry, the store, and the last failure explained; its keys log in
// again, refresh, log out and copy the authorization URL. While the flow waits for the
// browser it draws a dialog over every page with the URL and a key to stop waiting. It
// follows the Controller's Changed channel through waitAuthCmd.
type AuthPage struct {
	c    *Common
	w, h int

	gen     int
	ctrl    auth.Controller // nil: the session has no authorization
	done    <-chan struct{} // closed when the session ends
	why     string          // why there is no controller
	st      auth.Status
	busy    string // the operation running ("log in", "refresh", "log out"), or ""
	opSeq   int    // numbers the operations, so that a late end of an earlier one is told apart
	off     int
	ticking bool // an authTickMsg is due
	// waitOff: the user stopped a wait; the dialog stays closed, for later waits too (a
	// server that keeps asking would bring it back at once), until the user logs in again
	// (l, which also brings it back while a wait goes on) or the authorization succeeds.
	waitOff bool
}

// Messages of the auth page.
type (
	// AuthChangedMsg: the authorization of session Gen changed; Status is the new snapshot.
	AuthChangedMsg struct {
		Gen    int
		Status auth.Status
	}
	// authShowMsg: the user asked to see the dialog of a wait again.
	authShowMsg struct{}
	// authTickMsg redraws the token's expiry ("in 42m") while there is one.
	authTickMsg struct{}
	// authDoneMsg: a login, refresh or logout the user asked for ended.
	authDoneMsg struct {
		Gen, Seq int
		Op       string
		Err      error
	}
)

// NewAuthPage makes the auth page, with no session yet.
func NewAuthPage(c *Common) *AuthPage {
	p := &AuthPage{c: c, why: "connecting"}
	p.syncKeys()
	return p
}

// SetSize sets the page size.
func (p *AuthPage) SetSize(w, h int) { p.w, p.h = w, h }

// sessionAuth is the session's authorization, or nil when it has none (a spawned server,
// or an HTTP server without authorization).
func sessionAuth(s *session.Session) auth.Controller {
	if s == nil {
		return nil
	}
	return s.Auth()
}

// SetController starts over with session gen's authorization ctrl; done is closed when
// that session ends. With no ctrl, why says why the session has none. The command waits
// for the first change.
func (p *AuthPage) SetController(gen int, ctrl auth.Controller, done <-chan struct{}, why string) tea.Cmd {
	p.gen, p.ctrl, p.done, p.busy, p.off, p.waitOff = gen, ctrl, done, "", 0, false
	p.st, p.why = auth.Status{}, why
	if ctrl == nil {
		p.syncKeys()
		return nil
	}
	p.st = ctrl.Status()
	p.syncKeys()
	return tea.Batch(waitAuthCmd(gen, ctrl, done), p.tick())
}

// waitAuthCmd delivers the next change of ctrl's status; Update issues it again. It ends
// (with no message) when the session does.
func waitAuthCmd(gen int, ctrl auth.Controller, done <-chan struct{}) tea.Cmd {
	return func() tea.Msg {
		select {
		case <-ctrl.Changed():
			return AuthChangedMsg{Gen: gen, Status: ctrl.Status()}
		case <-done:
			return nil
		}
	}
}

// authOpCmd runs one of the Controller's operations until it ends, the session ends, or
// (with a limit) the time is up.
func authOpCmd(gen, seq int, op string, done <-chan struct{}, limit time.Duration, fn func(context.Context) error) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithCancel(context.Background())
		if limit > 0 {
			ctx, cancel = context.WithTimeout(context.Background(), limit)
		}
		defer cancel()
		go func() {
			select {
			case <-done:
				cancel()
			case <-ctx.Done():
			}
		}()
		return authDoneMsg{Gen: gen, Seq: seq, Op: op, Err: fn(ctx)}
	}
}

// cancelWaitCmd stops the flow's wait for the browser.
func cancelWaitCmd(ctrl auth.Controller) tea.Cmd {
	return func() tea.Msg {
		ctrl.CancelWait()
		return StatusMsg{Text: "stopped waiting for the browser"}
	}
}

// tick arms the expiry's redraw while a token with an expiry is shown and the session
// lives.
func (p *AuthPage) tick() tea.Cmd {
	if p.ticking || p.ctrl == nil || p.st.TokenMasked == "" || p.st.Expiry.IsZero() {
		return nil
	}
	select {
	case <-p.done:
		return nil
	default:
	}
	p.ticking = true
	return tea.Tick(authTick, func(time.Time) tea.Msg { return authTickMsg{} })
}

// Waiting reports whether the dialog for the browser is up.
func (p *AuthPage) Waiting() bool {
	return p.ctrl != nil && p.st.State == auth.StateWaiting && p.st.AuthorizeURL != "" && !p.waitOff
}

// Summary is the status bar's word on the authorization: "" when there is none or it was
// not needed yet.
func (p *AuthPage) Summary() string {
	if p.ctrl == nil {
		return ""
	}
	switch p.st.State {
	case auth.StateAuthorized:
		return "authorized"
	case auth.StateWaiting:
		return "waiting for the browser"
	case auth.StateDiscovering:
		if p.st.Step != "" {
			return string(p.st.Step) + "…"
		}
		return "discovering…"
	case auth.StateFailed:
		return "authorization failed (7)"
	}
	return ""
}

// syncKeys turns the page's keys on or off, with the reason, for the current state.
func (p *AuthPage) syncKeys() {
	k := p.c.Keys
	set := func(b *key.Binding, why string) {
		if why == "" {
			k.Enable(b)
		} else {
			k.Disable(b, why)
		}
	}
	none := ""
	if p.ctrl == nil {
		none = p.noneReason()
	}
	busy := none
	if busy == "" && p.busy != "" {
		busy = p.busy + " is under way"
	}
	if busy == "" && (p.st.State == auth.StateWaiting || p.st.State == auth.StateDiscovering) {
		busy = "authorization is under way (" + string(p.st.State) + ")"
	}
	login := busy
	if p.ctrl != nil && p.st.State == auth.StateWaiting && p.waitOff {
		login = "" // brings the dialog back
	}
	set(&k.AuthLogin, login)
	refresh := busy
	switch {
	case refresh != "" || p.st.HasRefresh:
	case p.st.State == auth.StateNone:
		refresh = "no refresh token: not logged in (" + k.AuthLogin.Help().Key + " logs in)"
	case p.st.TokenMasked == "": // a login that failed: no token came, so no refresh token either
		refresh = "no refresh token: no token was issued (" + k.AuthLogin.Help().Key + " logs in)"
	default:
		refresh = "no refresh token: the authorization server gave none"
	}
	set(&k.AuthRefresh, refresh)
	logout := busy
	if logout == "" && p.st.TokenMasked == "" && p.st.ClientID == "" {
		logout = "nothing to forget: no token and no client stored for this server"
	}
	set(&k.AuthLogout, logout)
	copyURL := none
	if copyURL == "" && p.st.AuthorizeURL == "" {
		copyURL = "no authorization URL: the flow is not waiting for the browser"
	}
	set(&k.AuthCopyURL, copyURL)
	cancelWait := none
	if cancelWait == "" && p.st.State != auth.StateWaiting {
		cancelWait = "nothing is waiting for the browser"
	}
	set(&k.AuthCancel, cancelWait)
}

// noneReason says why the session has no authorization.
func (p *AuthPage) noneReason() string {
	if p.why != "" {
		return p.why
	}
	return "this session has no authorization"
}

// Keys are the page's bindings for the help line.
func (p *AuthPage) Keys() []key.Binding {
	k := p.c.Keys
	return []key.Binding{k.AuthLogin, k.AuthRefresh, k.AuthLogout, k.AuthCopyURL, k.Up, k.Down}
}

// WaitKeys are the dialog's bindings for the help line.
func (p *AuthPage) WaitKeys() []key.Binding {
	k := p.c.Keys
	return []key.Binding{k.Act.OpenURL, k.AuthCopyURL, k.AuthCancel}
}

// Update handles the page's messages and keys.
func (p *AuthPage) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case AuthChangedMsg:
		if msg.Gen != p.gen || p.ctrl == nil {
			return nil
		}
		if msg.Status.State == auth.StateAuthorized {
			p.waitOff = false
		}
		p.st = msg.Status
		p.syncKeys()
		return tea.Batch(waitAuthCmd(p.gen, p.ctrl, p.done), p.tick())
	case authTickMsg:
		p.ticking = false // a tick of an earlier session arms the current one's
		return p.tick()
	case authDoneMsg:
		if msg.Gen != p.gen {
			return nil
		}
		if msg.Seq == p.opSeq {
			p.busy = ""
			p.syncKeys()
		}
		switch {
		case msg.Err == nil:
			return statusCmd(msg.Op+": done", false)
		case errors.Is(msg.Err, context.Canceled):
			return statusCmd(msg.Op+": stopped", false)
		}
		return statusCmd(msg.Op+": "+msg.Err.Error(), true)
	case tea.KeyPressMsg:
		return p.key(msg)
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelUp:
			p.off -= 3
		case tea.MouseWheelDown:
			p.off += 3
		}
	}
	return nil
}

// key handles a key on the page.
func (p *AuthPage) key(msg tea.KeyPressMsg) tea.Cmd {
	k := p.c.Keys
	if cmd := k.DisabledKeyCmd(msg, &k.AuthLogin, &k.AuthRefresh, &k.AuthLogout, &k.AuthCopyURL); cmd != nil {
		return cmd
	}
	switch {
	case key.Matches(msg, k.AuthLogin):
		p.waitOff = false
		if p.st.State == auth.StateWaiting {
			p.syncKeys()
			return func() tea.Msg { return authShowMsg{} } // a wait goes on: its dialog shows again
		}
		if p.ended() {
			// The session ended (a login stopped while connecting ends it): a new one logs
			// in when its server asks.
			return func() tea.Msg { return authRestartMsg{} }
		}
		return p.start("log in", 0, p.ctrl.Login)
	case key.Matches(msg, k.AuthRefresh):
		return p.start("refresh", refreshTimeout, p.ctrl.Refresh)
	case key.Matches(msg, k.AuthLogout):
		ctrl := p.ctrl
		return p.start("log out", 0, func(context.Context) error { return ctrl.Logout() })
	case key.Matches(msg, k.AuthCopyURL):
		return p.copyURL()
	case key.Matches(msg, k.Up):
		p.off--
	case key.Matches(msg, k.Down):
		p.off++
	case key.Matches(msg, k.PageUp):
		p.off -= max(1, p.h-1)
	case key.Matches(msg, k.PageDown):
		p.off += max(1, p.h-1)
	case key.Matches(msg, k.Top):
		p.off = 0
	}
	return nil
}

// authRestartMsg asks the model for a new session to log in with: the one the page
// belongs to has ended.
type authRestartMsg struct{}

// ended reports whether the page's session has ended.
func (p *AuthPage) ended() bool {
	if p.done == nil {
		return false
	}
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// start runs op, marking the page busy until it ends (the page's state line says so).
func (p *AuthPage) start(op string, limit time.Duration, fn func(context.Context) error) tea.Cmd {
	p.busy = op
	p.opSeq++
	p.syncKeys()
	return authOpCmd(p.gen, p.opSeq, op, p.done, limit, fn)
}

// copyURL puts the authorization URL on the clipboard (OSC 52).
func (p *AuthPage) copyURL() tea.Cmd {
	u := p.c.FileMask.String(p.st.AuthorizeURL)
	return tea.Batch(tea.SetClipboard(u), statusCmd("copied the authorization URL to the clipboard", false))
}

// WaitKey handles a key while the dialog for the browser is up; every key stays in the
// dialog.
func (p *AuthPage) WaitKey(msg tea.KeyPressMsg) tea.Cmd {
	k := p.c.Keys
	switch {
	case key.Matches(msg, k.AuthCancel):
		p.waitOff = true
		p.syncKeys()
		return cancelWaitCmd(p.ctrl)
	case key.Matches(msg, k.AuthCopyURL):
		return p.copyURL()
	case key.Matches(msg, k.Act.OpenURL):
		return openURLCmd(p.st.AuthorizeURL)
	}
	return nil
}

// authStarted gives the auth page the authorization of the session that started.
func (m *Model) authStarted(msg SessionStartedMsg) tea.Cmd {
	ctrl := sessionAuth(msg.Sess)
	why := ""
	switch {
	case msg.Err != nil || msg.Sess == nil:
		why = "the session did not start"
	case ctrl == nil && m.opts.TransportName == "stdio":
		why = "the server is spawned (stdio), and authorization is for HTTP servers"
	case ctrl == nil:
		why = "this session has none (no authorization was set up for it)"
	}
	var done <-chan struct{}
	if msg.Sess != nil {
		done = msg.Sess.Done()
	}
	return m.auth.SetController(msg.Gen, ctrl, done, why)
}
