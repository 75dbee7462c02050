package cli

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/serve"
)

// ServeCmd runs mcpscope as an MCP server that a coding agent drives.
type ServeCmd struct {
	HTTP        string `name:"http" help:"Serve Streamable HTTP at http://ADDR/mcp instead of stdio, behind a bearer token ($MCPSCOPE_SERVE_TOKEN, else a new one printed on stderr). ADDR must be a loopback address unless --allow-remote." placeholder:"ADDR"`
	AllowRemote bool   `name:"allow-remote" help:"With --http: listen on an address other hosts can reach. Whoever has the token can start programs as you."`
	RecordDir   string `name:"record-dir" help:"Write the sessions' recordings here instead of the per-user recordings directory." type:"path" placeholder:"DIR"`
	Skill       bool   `name:"skill" help:"Print the SKILL.md that teaches a coding agent to use serve's tools, and exit (save it as SKILL.md in a folder named mcpscope under the host's skills directory)."`
}

// Help is serve's detailed help: what it offers and what the agent can make it do.
func (ServeCmd) Help() string { return serveHelp }

// serveHelp is serve's help: what the agent can make it do.
const serveHelp = "Tools: connect, await_auth, sessions, disconnect, list, call_tool, read_resource, get_prompt, complete, send_raw, " +
	"pending, answer, await_call, tasks, roots, log_level, log_tail, subscribe, skills, events_list, events_poll, events_stream, timeline, frame, check, pin, diff, recording. " +
	"What a server asks mid-call (elicitation, sampling) waits for the agent's answer; a server that needs a login gives the agent its URL to show you. " +
	"Every session is recorded, secrets masked, in the recordings directory (or --record-dir); mcpscope open FILE shows it. " +
	"Security: connect starts the command the agent names, as you, with your environment and files, like the shell the agent already has; " +
	"with --http, whoever holds the token can do so. " +
	"serve's own flags (--timeout, --protocol, --root, --event-buffer …) are the defaults of every connect, and so are --elicit cancel|accept-defaults and --sampling-reply (without them the agent is asked); " +
	"a bearer token, client secret or grant credential in serve's flags or environment is never sent (grant flags are refused)."

// Run implements the command.
func (c ServeCmd) Run(r *runner) error {
	if c.Skill {
		_, err := io.WriteString(r.stdout, serve.Skill)
		return err
	}
	f := r.flags
	switch {
	case len(r.command) > 0 || f.URL != "" || f.Config != "" || f.Server != "":
		return usageError{errors.New("serve takes no server: the agent names one with its connect tool")}
	case len(f.Env) > 0 || len(f.Header) > 0:
		return usageError{errors.New("serve takes no -e or -H: the agent gives env and headers to connect, and they are masked in every result")}
	case f.Grant != "" || f.PrivateKey != "" || f.Assertion != "" || f.IDToken != "" || f.IDPTokenEndpoint != "" || f.IDPClientID != "":
		return usageError{errors.New("serve takes no grant credentials (--grant, --private-key, --assertion, --id-token, --idp-*): " +
			"they would go to whatever authorization server a server the agent names points at; log in with mcpscope auth login, whose tokens are kept per server")}
	case f.Record != "":
		return usageError{errors.New("serve records every session in a file of its own: use --record-dir DIR")}
	case f.NoRedact:
		return usageError{errors.New("serve always masks secrets: --no-redact does not apply")}
	}
	if c.AllowRemote && c.HTTP == "" {
		return usageError{errors.New("--allow-remote needs --http ADDR")}
	}
	elicit := f.Elicit
	if elicit == session.ElicitDecline {
		elicit = "" // the flag's default: the agent is asked
	}
	srv := serve.New(serve.Options{Open: opener(*r.flags), RecordDir: c.RecordDir, Version: session.Version(), RecordedCalls: recordedCalls,
		Elicit: elicit, SamplingReply: f.SampleReply,
		Logf: func(format string, args ...any) { fmt.Fprintf(r.stderr, "mcpscope serve: "+format+"\n", args...) }})
	if c.HTTP == "" {
		in, ok := r.stdin.(io.ReadCloser)
		if !ok {
			in = io.NopCloser(r.stdin)
		}
		return srv.ServeStdio(r.ctx, in, nopCloser{r.stdout})
	}
	defer srv.Close()
	return c.serveHTTP(r, srv)
}

// nopCloser keeps the transport from closing the caller's stdout.
type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// serveHTTP listens on --http and serves until the context ends.
func (c ServeCmd) serveHTTP(r *runner, srv *serve.Server) error {
	if !c.AllowRemote {
		if err := loopbackOnly(c.HTTP); err != nil {
			return usageError{err}
		}
	}
	token, fromEnv := os.Getenv("MCPSCOPE_SERVE_TOKEN"), true
	if token == "" {
		b := make([]byte, 32)
		rand.Read(b) // never fails; see crypto/rand.Read
		token, fromEnv = base64.RawURLEncoding.EncodeToString(b), false
	}
	ln, err := net.Listen("tcp", c.HTTP)
	if err != nil {
		return usageError{fmt.Errorf("--http %s: %w", c.HTTP, err)}
	}
	if tcp, ok := ln.Addr().(*net.TCPAddr); ok && !c.AllowRemote && !tcp.IP.IsLoopback() {
		ln.Close()
		return usageError{fmt.Errorf("--http %s listens on %s, not a loopback address (--allow-remote to allow it)", c.HTTP, tcp.IP)}
	}
	mux := http.NewServeMux()
	// A page in the user's browser reaches neither by a rebound name nor from its own site.
	mux.Handle("/mcp", recordings.GuardHost(ln.Addr(), c.AllowRemote, RequireToken(token, srv.Handler())))
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second,
		BaseContext: func(net.Listener) context.Context { return r.ctx }}
	url := "http://" + ln.Addr().String() + "/mcp"
	if fromEnv {
		fmt.Fprintf(r.stderr, "mcpscope serve: Streamable HTTP at %s (bearer token from $MCPSCOPE_SERVE_TOKEN)\n", url)
	} else {
		fmt.Fprintf(r.stderr, "mcpscope serve: Streamable HTTP at %s\nmcpscope serve: token: %s (send Authorization: Bearer TOKEN; set $MCPSCOPE_SERVE_TOKEN to choose it)\n", url, token)
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-r.ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		hs.Close()
	}
	<-errc
	return nil
}

// loopbackOnly refuses an address other hosts could reach.
func loopbackOnly(addr string) error {
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return fmt.Errorf("--http %q: want HOST:PORT, e.g. 127.0.0.1:7777: %w", addr, err)
	}
	if recordings.IsLoopbackListen(addr) {
		return nil
	}
	return fmt.Errorf("--http %s: serve listens on a loopback address (127.0.0.1, ::1, localhost) unless --allow-remote", addr)
}

// RequireToken answers 401 to a request without "Authorization: Bearer token".
func RequireToken(token string, next http.Handler) http.Handler {
	want := []byte("Bearer " + token)
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		got := []byte(strings.TrimSpace(req.Header.Get("Authorization")))
		if subtle.ConstantTimeCompare(got, want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="mcpscope serve"`)
			http.Error(w, "mcpscope serve: missing or wrong bearer token (printed by mcpscope serve, or $MCPSCOPE_SERVE_TOKEN)", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, req)
	})
}

// opener makes a session for connect's target, as the command line would for the same
// flags: serve's own flags (timeout, protocol, elicit, event buffer …) are the defaults,
// the target's arguments override them. No credential of serve's reaches a server the
// agent names: the bearer token and client secrets (flags or environment) are left out.
// A login opens no browser: its URL goes to the agent (pending_auth), and the token is
// stored as mcpscope auth login stores it; check's sessions use a stored token only.
func opener(base ServerFlags) serve.Opener {
	base.Bearer, base.ClientSecret, base.IDPClientSecret = "", "", ""
	base.GrantFlags = GrantFlags{DPoP: base.DPoP} // no grant credential either (Run refuses the flags)
	base.NoAuthPrompt = true
	return func(t serve.Target) (*serve.Opened, error) {
		f := base
		f.URL, f.Config, f.Server = t.URL, t.Config, t.Server
		f.Env, f.Header, f.Bearer, f.Cwd = t.Env, t.Headers, t.Bearer, t.Cwd
		f.Transport = t.Transport
		if t.Protocol != "" {
			f.Protocol = t.Protocol
		}
		if t.Elicit != "" {
			f.Elicit = t.Elicit
		}
		if t.SamplingReply != "" {
			f.SampleReply = t.SamplingReply
		}
		if len(t.Roots) > 0 {
			f.Roots = t.Roots
		}
		if t.TimeoutMS > 0 {
			f.Timeout = time.Duration(t.TimeoutMS) * time.Millisecond
		}
		sp, err := f.spec(t.Command)
		if err != nil {
			return nil, err
		}
		cfg, err := f.sessionConfig()
		if err != nil {
			return nil, err
		}
		f.eraCache(sp, &cfg)
		if t.Reprobe() && cfg.EraCache != nil {
			cfg.Reprobe = true
		}
		if login := t.Login(); login != nil && sp.Auth != nil {
			// The agent's login: the authorization URL goes to the agent (pending_auth),
			// which shows it to the user; the token is stored as auth login stores it.
			a := *sp.Auth
			a.NoPrompt, a.Asked, a.Unattended, a.In = false, true, false, nil
			a.OpenBrowser, a.Out = login, urlCatcher{login}
			sp.Auth = &a
		}
		tr, err := sp.NewTransport()
		if err != nil {
			return nil, err
		}
		cfg.Transport = tr
		h, o := f.recordingSetup(sp)
		h.Version = session.Version()
		return &serve.Opened{Session: session.New(cfg), Header: h, Masking: o}, nil
	}
}

// urlCatcher hands the authorization URL the flow prints (over ssh no browser is tried) to
// the agent.
type urlCatcher struct{ login func(string) error }

func (u urlCatcher) Write(p []byte) (int, error) {
	for _, f := range strings.Fields(string(p)) {
		if strings.HasPrefix(f, "https://") || strings.HasPrefix(f, "http://") {
			_ = u.login(f)
		}
	}
	return len(p), nil
}
