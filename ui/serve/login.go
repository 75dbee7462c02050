package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// loginExpiry bounds a login the user was asked to complete (the authorization flow's own
// bound is the same).
const loginExpiry = 10 * time.Minute

// errConnectTimeout ends a handshake that took longer than connectWait with no login asked.
var errConnectTimeout = fmt.Errorf("no handshake within %v", connectWait)

// errLoginExpired ends a handshake whose login the user did not complete.
var errLoginExpired = fmt.Errorf("the login was not completed within %v", loginExpiry)

// loginWait is a session's handshake that may wait for the user to log in: the flow
// presents the authorization URL through present (Target.Login) instead of a browser, and
// connect returns it as pending_auth.
type loginWait struct {
	url   chan string   // the authorization URL, once the flow presents one
	done  chan struct{} // the handshake ended; err says how
	err   error
	at    time.Time // when the URL was handed to the agent
	shown string    // that URL
}

func newLoginWait() *loginWait {
	return &loginWait{url: make(chan string, 1), done: make(chan struct{})}
}

// present is the authorization flow's OpenBrowser: the URL goes to the agent, who shows it
// to the user. A later presentation (a step-up) replaces one not yet taken.
func (w *loginWait) present(u string) error {
	select {
	case <-w.url:
	default:
	}
	w.url <- u
	return nil
}

// PendingAuth is a login the user must complete before the session proceeds.
type PendingAuth struct {
	URL     string    `json:"url" jsonschema:"the authorization URL: show it to the user, who opens it in a browser on this machine and logs in"`
	Expires time.Time `json:"expires" jsonschema:"when the login is given up"`
	Next    string    `json:"next" jsonschema:"what to do next"`
}

// handshake connects l's session. It returns when the session is ready or failed, or
// (a login is needed) at once with pending_auth while the handshake goes on: await_auth
// then waits for it. The caller's end cancels the handshake until it is handed over.
func (s *Server) handshake(ctx context.Context, l *live, w *loginWait) (Connected, error) {
	cctx, cancel := context.WithCancelCause(context.WithoutCancel(ctx))
	stop := context.AfterFunc(ctx, func() { cancel(context.Cause(ctx)) })
	limit := time.AfterFunc(connectWait, func() { cancel(errConnectTimeout) })
	go func() {
		w.err = l.sess().Connect(cctx)
		if w.err != nil && context.Cause(cctx) != nil && cctx.Err() != nil {
			w.err = fmt.Errorf("%w: %w", context.Cause(cctx), w.err)
		}
		limit.Stop()
		close(w.done)
	}()
	select {
	case <-w.done:
		stop()
		cancel(nil)
		return s.connected(l, w.err)
	case u := <-w.url:
		if !stop() || !limit.Stop() {
			<-w.done // the handshake was cut short meanwhile
			cancel(nil)
			return s.connected(l, w.err)
		}
		time.AfterFunc(loginExpiry, func() { cancel(errLoginExpired) })
		go func() {
			<-w.done
			if w.err == nil {
				cancel(nil)
			}
		}()
		w.at, w.shown = time.Now(), u
		l.login = w
		s.reg.add(l)
		l.ask.setID(l.id)
		s.logf("session %s: %s waits for a login, recorded to %s", l.id, l.server, l.path)
		return Connected{Session: l.id, Server: l.server, Answers: l.answers, Recording: l.path,
			PendingAuth: &PendingAuth{URL: u, Expires: w.at.Add(loginExpiry).UTC().Truncate(time.Second),
				Next: "show the URL to the user; once they logged in, await_auth gives the handshake"}}, nil
	}
}

// connected is connect's result for a handshake that ended: the session named, or closed
// with the error.
func (s *Server) connected(l *live, err error) (Connected, error) {
	if err != nil {
		_ = l.close()
		if l.id != "" {
			s.reg.remove(l.id)
		}
		s.logf("connect to %s failed: %v; recorded to %s", l.server, err, l.path)
		return Connected{}, fmt.Errorf("connect to %s: %w (the attempt is recorded in %s)%s", l.server, err, l.path, stderrTail(err, l))
	}
	if l.id == "" {
		// Named once connected, so no other tool sees a session still in its handshake.
		s.reg.add(l)
		l.ask.setID(l.id)
		s.logf("session %s: %s, recorded to %s", l.id, l.server, l.path)
	}
	out := Connected{Session: l.id, Server: l.server, Handshake: handshakeOf(l.sess().Info()), Answers: l.answers, Recording: l.path}
	l.waitFor(1, time.Second)
	l.mu.Lock()
	for _, e := range l.h.Entries() {
		if e.Ev != nil {
			out.Findings = append(out.Findings, findingsOf(e.Ev)...)
		}
	}
	l.mu.Unlock()
	return out, nil
}

// AwaitAuthIn is await_auth's input.
type AwaitAuthIn struct {
	Session string `json:"session" jsonschema:"the session connect returned with pending_auth"`
	WaitMS  int    `json:"wait_ms,omitempty" jsonschema:"wait at most this many milliseconds (default 30000, at most 600000)"`
	Pasted  string `json:"pasted,omitempty" jsonschema:"the address the user's browser ended on, when it could not reach this machine (over ssh): it is delivered to the login's listener here"`
}

func (s *Server) awaitAuth(ctx context.Context, in AwaitAuthIn) (Connected, error) {
	l, err := s.reg.get(in.Session)
	if err != nil {
		return Connected{}, err
	}
	w := l.login
	if w == nil {
		return s.connected(l, nil) // no login was asked: the session is connected
	}
	if in.Pasted != "" {
		if err := deliver(ctx, w.shown, in.Pasted); err != nil {
			return Connected{}, err
		}
	}
	t := time.NewTimer(waitOf(in.WaitMS, defaultAwait))
	defer t.Stop()
	select {
	case <-w.done:
		return s.connected(l, w.err)
	case <-t.C:
		return Connected{Session: l.id, Server: l.server, Answers: l.answers, Recording: l.path,
			PendingAuth: &PendingAuth{URL: w.shown, Expires: w.at.Add(loginExpiry).UTC().Truncate(time.Second),
				Next: "the user has not completed the login yet: await_auth again"}}, nil
	case <-ctx.Done():
		return Connected{}, errors.New("await_auth: " + context.Cause(ctx).Error())
	}
}

// deliver hands the address a browser ended on to the login's loopback listener, as the
// browser would have, when the browser could not reach this machine. Only the redirect URI
// the authorization URL named is reached.
func deliver(ctx context.Context, authURL, pasted string) error {
	au, err := url.Parse(authURL)
	if err != nil {
		return fmt.Errorf("no login waits for an address")
	}
	want, err := url.Parse(au.Query().Get("redirect_uri"))
	if err != nil || want.Host == "" {
		return fmt.Errorf("the authorization URL names no redirect_uri to deliver to")
	}
	got, err := url.Parse(strings.TrimSpace(pasted))
	if err != nil || got.Scheme != want.Scheme || got.Host != want.Host || got.Path != want.Path {
		return fmt.Errorf("pasted: want the address the browser ended on, starting %s://%s%s", want.Scheme, want.Host, want.Path)
	}
	if h := want.Hostname(); h != "127.0.0.1" && h != "localhost" && h != "::1" {
		return fmt.Errorf("the redirect_uri %s is not on this machine", want.Redacted())
	}
	dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(dctx, http.MethodGet, got.String(), nil)
	if err != nil {
		return err
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("deliver the pasted address: %w", err)
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("the login's listener answered %s to the pasted address", resp.Status)
	}
	return nil
}
