package cli

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/charmbracelet/x/term"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/auth"
)

// AuthFlags shape the OAuth authorization of an HTTP server. Every command takes them:
// each logs in when the server asks, unless --no-auth-prompt.
type AuthFlags struct {
	Auth              bool   `name:"auth" help:"Authorize (OAuth) before the first request instead of when the server answers 401. With demo --http: protect the demo server with its own authorization server." group:"Authorization"`
	NoAuthPrompt      bool   `help:"Never start an authorization that needs the browser: use (and refresh) a stored token only; fail with exit 7 otherwise. With no terminal on stdin or stderr, a login fails so at once anyway, unless $BROWSER names the program that opens the address or --no-browser is given; auth login always logs in." group:"Authorization"`
	ClientID          string `name:"client-id" help:"A client pre-registered with the authorization server (its client_id)." placeholder:"ID" group:"Authorization"`
	ClientSecret      string `name:"client-secret" help:"The pre-registered client's secret." env:"MCPSCOPE_CLIENT_SECRET" placeholder:"SECRET" group:"Authorization"`
	ClientMetadataURL string `name:"client-metadata-url" help:"An HTTPS URL of a Client ID Metadata Document to use as client_id where the authorization server supports them." placeholder:"URL" group:"Authorization"`
	Scope             string `help:"Scopes to ask for (space-separated), instead of the server's WWW-Authenticate scope or its scopes_supported." placeholder:"SCOPES" group:"Authorization"`
	NoBrowser         bool   `help:"Print the authorization URL (or, for app, the host page's URL) instead of opening a browser (always so over ssh for authorization)." group:"Authorization"`
	CallbackPort      int    `help:"Port of the loopback listener on 127.0.0.1 that receives the authorization (0: any free port)." default:"0" group:"Authorization"`
	TokenStore        string `help:"Where tokens and registered clients are kept: auto (the OS keyring when one answers, else the file), keyring, file (0600, under $XDG_STATE_HOME/mcpscope or ~/.local/state/mcpscope) or none (memory only)." enum:"auto,keyring,file,none" default:"auto" env:"MCPSCOPE_TOKEN_STORE" group:"Authorization"`

	// login: the command is auth login, which logs in even with no one at a terminal.
	login bool
}

// authStores are the token stores this process opened, by mode and state directory: every
// session of a process shares one (a restart keeps the token).
var (
	authStoresMu sync.Mutex
	authStores   = map[string]auth.Store{}
)

// authStoreFor opens the store of --token-store mode (auth.OpenStore), once per process
// and state directory.
func authStoreFor(mode string) (auth.Store, error) {
	dir, _ := auth.StateDir()
	authStoresMu.Lock()
	defer authStoresMu.Unlock()
	if st, ok := authStores[mode+"\x00"+dir]; ok {
		return st, nil
	}
	st, err := auth.OpenStore(mode)
	if err != nil {
		return nil, fmt.Errorf("--token-store %s: %w", mode, err)
	}
	authStores[mode+"\x00"+dir] = st
	return st, nil
}

// apply gives an HTTP server's spec its authorization. A server reached with the user's
// own credentials (--bearer, -H Authorization) gets none.
func (a *AuthFlags) apply(sp *session.ServerSpec) error {
	if a.CallbackPort < 0 || a.CallbackPort > 65535 {
		return fmt.Errorf("--callback-port %d: want 0 to 65535", a.CallbackPort)
	}
	if a.ClientSecret != "" && a.ClientID == "" {
		return errors.New("--client-secret needs --client-id")
	}
	if sp.URL == "" || sp.Bearer != "" || sp.Headers.Get("Authorization") != "" {
		if a.Auth && sp.URL != "" {
			return errors.New("--auth cannot be combined with --bearer or -H Authorization")
		}
		return nil
	}
	store, err := authStoreFor(a.TokenStore)
	if err != nil {
		return err
	}
	sp.Auth = &auth.Options{
		Store:             store,
		ClientID:          a.ClientID,
		ClientSecret:      a.ClientSecret,
		ClientMetadataURL: a.ClientMetadataURL,
		Scopes:            strings.Fields(strings.ReplaceAll(a.Scope, ",", " ")),
		Eager:             a.Auth,
		NoPrompt:          a.NoAuthPrompt && !a.login, // auth login is the login --no-auth-prompt points to
		NoBrowser:         a.NoBrowser,
		CallbackPort:      a.CallbackPort,
		Out:               os.Stderr,
		In:                os.Stdin,
		Unattended:        !attended(),
		Asked:             a.login,
	}
	if len(sp.Auth.Scopes) == 0 {
		sp.Auth.Scopes = nil
	}
	return nil
}

// attended: a person is at the terminal, both stdin and stderr being one; without, a
// command fails at once where it would wait for a login (auth.Options.Unattended).
func attended() bool {
	return term.IsTerminal(os.Stdin.Fd()) && term.IsTerminal(os.Stderr.Fd())
}

// AuthCmd groups the authorization commands.
type AuthCmd struct {
	Login  AuthLoginCmd  `cmd:"" help:"Authorize with the server's authorization server now (OAuth), replacing a stored token, and print the outcome."`
	Status AuthStatusCmd `cmd:"" help:"Show what is stored for the selected server (or, with no server, for every server): resource, issuer, client, scopes, expiry; tokens masked."`
	Logout AuthLogoutCmd `cmd:"" help:"Forget the tokens and registered client of the selected server, or of every server with --all."`
}

// AuthLoginCmd logs in to an HTTP server.
type AuthLoginCmd struct{}

// Run implements the command.
func (AuthLoginCmd) Run(r *runner) error {
	if r.flags.URL == "" && r.flags.Config == "" {
		return usageError{errors.New("auth login needs an HTTP server: --url URL, or --config FILE --server NAME")}
	}
	r.flags.login = true // asked for: it logs in even with no one at a terminal
	s, done, err := r.newSession(nil)
	if err != nil {
		return err
	}
	defer done()
	ctl := s.Auth()
	if ctl == nil {
		return usageError{errors.New("auth login: this server is not reached over HTTP with mcpscope's authorization (is --bearer or -H Authorization given?)")}
	}
	// A fresh authorization: the stored token is not tried first (a server that forgot it
	// may answer anything but 401), and a dynamically registered client is registered
	// again. Connecting shows what the server asks for (its 401 names the metadata), and
	// authorizes when it asks; the stored token is replaced.
	if f, ok := ctl.(*auth.Flow); ok {
		f.Fresh()
	}
	if err := s.Connect(r.ctx); err != nil {
		var ae *auth.Error
		if errors.As(err, &ae) {
			return err
		}
	}
	if f, ok := ctl.(*auth.Flow); !ok || f.Logins() == 0 {
		if err := ctl.Login(r.ctx); err != nil {
			return err
		}
	}
	return r.printJSON(statusJSON(ctl.Status()))
}

// statusJSON is an authorization status as printed (the token masked).
func statusJSON(st auth.Status) map[string]any {
	out := map[string]any{"state": st.State, "resource": st.Resource, "issuer": st.Issuer,
		"client_id": st.ClientID, "client_source": st.ClientSource, "store": st.Store}
	if len(st.ScopesGranted) > 0 {
		out["scopes"] = st.ScopesGranted
	}
	if missing := auth.NotGranted(st.ScopesRequested, st.ScopesGranted, st.HasRefresh); st.State == auth.StateAuthorized && len(missing) > 0 {
		out["scopes_not_granted"] = missing // asked for, and not in the token
	}
	if st.TokenMasked != "" {
		out["token"] = st.TokenMasked
		out["token_type"] = st.TokenType
		out["refresh_token"] = st.HasRefresh
	}
	if !st.Expiry.IsZero() {
		out["expiry"] = st.Expiry
	}
	if st.LastError != "" {
		out["last_error"] = st.LastError
	}
	return out
}
