package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/auth"
	"github.com/mcpscope/mcpscope/session/transport"
)

// tokenStore opens the store --token-store names (the process's one).
func (f *ServerFlags) tokenStore() (auth.Store, error) { return authStoreFor(f.TokenStore) }

// selected reports whether a server was selected (--url, --config or a command), as
// opposed to the demo server chosen when nothing is.
func (r *runner) selected() bool {
	return r.flags.URL != "" || r.flags.Config != "" || len(r.command) > 0
}

// authKeys returns the store and the keys the command applies to: those whose resource
// covers the selected server, or every key when no server is selected; url is the
// server's URL ("" for every key).
func (r *runner) authKeys() (store auth.Store, keys []auth.Key, url string, err error) {
	if r.selected() {
		sp, err := r.flags.spec(r.command)
		if err != nil {
			return nil, nil, "", err
		}
		if sp.URL == "" {
			return nil, nil, "", usageError{fmt.Errorf("the selected server is spawned (stdio): authorization applies to HTTP servers (--url)")}
		}
		url = sp.URL
	}
	if store, err = r.flags.tokenStore(); err != nil {
		return nil, nil, "", err
	}
	if keys, err = store.List(); err != nil {
		return nil, nil, "", err
	}
	if url != "" {
		keys = auth.MatchResource(url, keys)
	}
	return store, keys, url, nil
}

// authStatusJSON is one stored record in `auth status`, without a secret in it.
type authStatusJSON struct {
	Resource     string   `json:"resource"`
	Issuer       string   `json:"issuer"`
	ClientID     string   `json:"client_id"`
	ClientSource string   `json:"client_source,omitempty"`
	ClientSecret bool     `json:"client_secret_stored,omitempty"`
	Scopes       []string `json:"scopes,omitempty"`
	TokenType    string   `json:"token_type,omitempty"`
	Token        string   `json:"token,omitempty"` // masked
	Expiry       string   `json:"expiry,omitempty"`
	Expires      string   `json:"expires"`
	Refresh      bool     `json:"refresh_token"`
	DPoP         bool     `json:"dpop_key,omitempty"`
	Saved        string   `json:"saved,omitempty"`
}

// AuthStatusCmd shows the stored authorization.
type AuthStatusCmd struct{}

// Run implements the command.
func (AuthStatusCmd) Run(r *runner) error {
	store, keys, url, err := r.authKeys()
	if err != nil {
		return err
	}
	now := time.Now()
	out := struct {
		Store   string           `json:"store"`
		Server  string           `json:"server,omitempty"`
		Records []authStatusJSON `json:"records"`
	}{Store: store.Describe(), Server: url, Records: []authStatusJSON{}}
	for _, k := range keys {
		rec, ok, err := store.Get(k)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		j := authStatusJSON{Resource: rec.Resource, Issuer: rec.Issuer, ClientID: rec.ClientID, ClientSource: rec.ClientSource,
			ClientSecret: rec.ClientSecret != "", Scopes: rec.Scopes, TokenType: rec.TokenType, Token: auth.MaskToken(rec.AccessToken),
			Expires: auth.ExpiryText(rec.Expiry, now), Refresh: rec.RefreshToken != "", DPoP: len(rec.DPoPKey) > 0}
		if rec.AccessToken == "" {
			j.Expires = "no token (client registration only)"
		}
		if !rec.Expiry.IsZero() {
			j.Expiry = rec.Expiry.Format(time.RFC3339)
		}
		if !rec.Saved.IsZero() {
			j.Saved = rec.Saved.Format(time.RFC3339)
		}
		out.Records = append(out.Records, j)
	}
	if len(out.Records) == 0 {
		if url != "" {
			fmt.Fprintf(r.stderr, "mcpscope: nothing stored for %s (store: %s)\n", url, store.Describe())
		} else {
			fmt.Fprintf(r.stderr, "mcpscope: nothing stored (store: %s)\n", store.Describe())
		}
	}
	return r.printJSON(out)
}

// AuthLogoutCmd forgets stored authorization.
type AuthLogoutCmd struct {
	All      bool `help:"Forget every server's tokens and registered clients."`
	NoRevoke bool `help:"Only forget the tokens: do not ask the authorization server to revoke them (RFC 7009), which logout does when the server offers revocation."`
}

// revocationJSON is what logout did at one record's authorization server.
type revocationJSON struct {
	auth.Key
	auth.Revocation
}

// Run implements the command.
func (c AuthLogoutCmd) Run(r *runner) error {
	switch {
	case c.All && r.selected():
		return usageError{fmt.Errorf("auth logout: give a server or --all, not both")}
	case !c.All && !r.selected():
		return usageError{fmt.Errorf("auth logout: which server? Give --url URL (or --config FILE --server NAME), or --all for every server")}
	}
	store, keys, url, err := r.authKeys()
	if err != nil {
		return err
	}
	out := struct {
		Store   string           `json:"store"`
		Server  string           `json:"server,omitempty"`
		Removed []auth.Key       `json:"removed"`
		Revoked []revocationJSON `json:"revocation,omitempty"`
	}{Store: store.Describe(), Server: url, Removed: []auth.Key{}}
	redirects := r.flags.MaxRedirects
	if redirects <= 0 {
		redirects = -1 // --max-redirects 0 follows none; the options' 0 is the default
	}
	var sink transport.Sink
	if r.flags.Trace {
		sink = &exchangeTrace{w: r.stderr}
	}
	x := transport.NewAuthExchanger(transport.HTTPOptions{MaxRedirects: redirects}, sink)
	for _, k := range keys {
		if rec, ok, err := store.Get(k); err == nil && ok && !c.NoRevoke {
			// Revoked before it is forgotten; a server that cannot revoke does not keep the
			// record: the user asked for it to be gone.
			rv := auth.Revoke(r.ctx, x, rec)
			out.Revoked = append(out.Revoked, revocationJSON{k, rv})
			if rv.Error != "" {
				fmt.Fprintf(r.stderr, "mcpscope: %s: revocation: %s\n", k.Resource, rv.Error)
			}
		}
		if err := store.Delete(k); err != nil {
			return err
		}
		out.Removed = append(out.Removed, k)
	}
	if len(keys) == 0 && url != "" {
		fmt.Fprintf(r.stderr, "mcpscope: nothing stored for %s (store: %s)\n", url, store.Describe())
	}
	return r.printJSON(out)
}

// exchangeTrace writes the HTTP exchanges of a command without a session (logout's
// revocation) as --trace lines: the events a session's trace would show for them. The
// exchanges hold no secret (the transport masks tokens and credentials in them).
type exchangeTrace struct {
	mu sync.Mutex
	w  io.Writer
}

func (t *exchangeTrace) Received([]byte, transport.RecvInfo) {}
func (t *exchangeTrace) Stderr([]byte)                       {}
func (t *exchangeTrace) Note(transport.Note)                 {}
func (t *exchangeTrace) Exited(transport.ExitInfo)           {}
func (t *exchangeTrace) HTTP(ex *transport.HTTPExchange) {
	ev := &session.Event{Kind: session.EvHTTP, Time: ex.Started, HTTP: ex}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if enc.Encode(ev.JSON()) != nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	_, _ = t.w.Write(buf.Bytes())
}
