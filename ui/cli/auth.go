package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/auth"
)

// AuthFlags shape the OAuth authorization of an HTTP server. Every command takes them:
// each logs in when the server asks, unless --no-auth-prompt.
type AuthFlags struct {
	Auth              bool   `name:"auth" help:"Authorize (OAuth) before the first request instead of when the server answers 401. With demo --http: protect the demo server with its own authorization server." group:"Authorization"`
	NoAuthPrompt      bool   `help:"Never start an authorization that needs the browser: use (and refresh) a stored token only; fail with exit 7 otherwise." group:"Authorization"`
	ClientID          string `name:"client-id" help:"A client pre-registered with the authorization server (its client_id)." placeholder:"ID" group:"Authorization"`
	ClientSecret      string `name:"client-secret" help:"The pre-registered client's secret." env:"MCPSCOPE_CLIENT_SECRET" placeholder:"SECRET" group:"Authorization"`
	ClientMetadataURL string `name:"client-metadata-url" help:"An HTTPS URL of a Client ID Metadata Document to use as client_id where the authorization server supports them." placeholder:"URL" group:"Authorization"`
	Scope             string `help:"Scopes to ask for (space-separated), instead of the server's WWW-Authenticate scope or its scopes_supported." placeholder:"SCOPES" group:"Authorization"`
	NoBrowser         bool   `help:"Print the authorization URL instead of opening a browser (always so over ssh)." group:"Authorization"`
	CallbackPort      int    `help:"Port of the loopback listener on 127.0.0.1 that receives the authorization (0: any free port)." default:"0" group:"Authorization"`
}

// authStore is the token store of this process, shared by every session (a restart keeps
// the token).
var (
	authStoreOnce sync.Once
	authStore     auth.Store
)

// defaultAuthStore keeps tokens and registered clients in a 0600 file under the user's
// state directory ($XDG_STATE_HOME/mcpscope/auth.json, ~/.local/state when unset; the
// user config directory elsewhere than Linux and the BSDs), or in memory when there is none.
func defaultAuthStore() auth.Store {
	authStoreOnce.Do(func() {
		dir := os.Getenv("XDG_STATE_HOME")
		if dir == "" {
			if runtime.GOOS == "darwin" || runtime.GOOS == "windows" {
				dir, _ = os.UserConfigDir()
			} else if home, err := os.UserHomeDir(); err == nil {
				dir = filepath.Join(home, ".local", "state")
			}
		}
		if dir == "" {
			authStore = auth.NewMemStore()
			return
		}
		authStore = auth.NewFileStore(filepath.Join(dir, "mcpscope", "auth.json"))
	})
	return authStore
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
	sp.Auth = &auth.Options{
		Store:             defaultAuthStore(),
		ClientID:          a.ClientID,
		ClientSecret:      a.ClientSecret,
		ClientMetadataURL: a.ClientMetadataURL,
		Scopes:            strings.Fields(strings.ReplaceAll(a.Scope, ",", " ")),
		Eager:             a.Auth,
		NoPrompt:          a.NoAuthPrompt,
		NoBrowser:         a.NoBrowser,
		CallbackPort:      a.CallbackPort,
		Out:               os.Stderr,
		In:                os.Stdin,
	}
	if len(sp.Auth.Scopes) == 0 {
		sp.Auth.Scopes = nil
	}
	return nil
}

// AuthCmd groups the authorization commands.
type AuthCmd struct {
	Login AuthLoginCmd `cmd:"" help:"Authorize with the server's authorization server now (OAuth), replacing a stored token, and print the outcome."`
}

// AuthLoginCmd logs in to an HTTP server.
type AuthLoginCmd struct{}

// Run implements the command.
func (AuthLoginCmd) Run(r *runner) error {
	if r.flags.URL == "" && r.flags.Config == "" {
		return usageError{errors.New("auth login needs an HTTP server: --url URL, or --config FILE --server NAME")}
	}
	s, done, err := r.newSession(nil)
	if err != nil {
		return err
	}
	defer done()
	ctl := s.Auth()
	if ctl == nil {
		return usageError{errors.New("auth login: this server is not reached over HTTP with mcpscope's authorization (is --bearer or -H Authorization given?)")}
	}
	// Connecting shows what the server asks for (its 401 names the metadata), and
	// authorizes when it asks; a token that was already stored is replaced.
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
		"clientId": st.ClientID, "clientSource": st.ClientSource, "store": st.Store}
	if len(st.ScopesGranted) > 0 {
		out["scopes"] = st.ScopesGranted
	}
	if st.TokenMasked != "" {
		out["token"] = st.TokenMasked
		out["tokenType"] = st.TokenType
		out["refreshToken"] = st.HasRefresh
	}
	if !st.Expiry.IsZero() {
		out["expiry"] = st.Expiry
	}
	if st.LastError != "" {
		out["lastError"] = st.LastError
	}
	return out
}
