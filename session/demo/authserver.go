package demo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/mcpscope/mcpscope/session/auth"
)

// Scopes of the demo's authorization server. ScopeDemo is what every request
// needs; ScopeAdmin is needed by [AdminTool] only, so that calling it with a
// first token shows a 403 insufficient_scope and the client's step-up.
const (
	ScopeDemo    = "demo"
	ScopeAdmin   = "demo:admin"
	scopeOffline = "offline_access"
	// AdminTool is the tool that needs ScopeAdmin.
	AdminTool = "admin_stats"
)

// Defaults of [AuthOptions].
const (
	DefaultTokenTTL   = 5 * time.Minute
	DefaultRefreshTTL = 24 * time.Hour
	DefaultCodeTTL    = time.Minute
)

// AuthOptions configures the demo's built-in authorization server.
type AuthOptions struct {
	// BaseURL is the server's own origin, such as "http://127.0.0.1:8080":
	// the issuer, and the prefix of the protected resources BaseURL/mcp and
	// BaseURL/sse. Clients must use exactly this origin.
	BaseURL string
	// TokenTTL is how long an access token lasts (DefaultTokenTTL when zero).
	TokenTTL time.Duration
	// RefreshTTL is how long a refresh token lasts (DefaultRefreshTTL when zero).
	RefreshTTL time.Duration
	// CodeTTL is how long an authorization code may wait to be redeemed
	// (DefaultCodeTTL when zero).
	CodeTTL time.Duration
	// AutoApprove approves every valid authorization request at once,
	// without the approve page.
	AutoApprove bool
	// MetadataClient fetches Client ID Metadata Documents. Nil: a client with
	// a 5 s timeout that follows no redirects.
	MetadataClient *http.Client
}

// authServer is the demo's authorization server and the guard of its
// protected resources. One lock guards all of its maps.
type authServer struct {
	opts      AuthOptions
	issuer    string
	resources map[string]string // request path ("/mcp", "/sse") → resource identifier
	log       *lineLogger
	fetcher   *http.Client

	mu       sync.Mutex
	clients  *bounded[*authClient] // dynamically registered, by client_id
	metadocs *bounded[*authClient] // fetched metadata documents, by URL
	codes    *bounded[*authCode]   // by secretHash.key
	tokens   *bounded[*grant]      // access tokens, by secretHash.key
	refresh  *bounded[*grant]      // refresh tokens, by secretHash.key
}

// newAuthServer checks opts and fills in the defaults.
func newAuthServer(log *lineLogger, opts AuthOptions) (*authServer, error) {
	u, err := url.Parse(opts.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("authorization server: base URL %q is not an origin such as http://127.0.0.1:8080", opts.BaseURL)
	}
	base := strings.TrimSuffix(opts.BaseURL, "/")
	if opts.TokenTTL <= 0 {
		opts.TokenTTL = DefaultTokenTTL
	}
	if opts.RefreshTTL <= 0 {
		opts.RefreshTTL = DefaultRefreshTTL
	}
	if opts.CodeTTL <= 0 {
		opts.CodeTTL = DefaultCodeTTL
	}
	fetcher := opts.MetadataClient
	if fetcher == nil {
		fetcher = &http.Client{
			Timeout:       5 * time.Second,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		}
	}
	return &authServer{
		opts:      opts,
		issuer:    base,
		resources: map[string]string{"/mcp": base + "/mcp", "/sse": base + "/sse"},
		log:       log,
		fetcher:   fetcher,
		clients:   newBounded[*authClient](maxClients),
		metadocs:  newBounded[*authClient](maxMetadocs),
		codes:     newBounded[*authCode](maxCodes),
		tokens:    newBounded[*grant](maxTokens),
		refresh:   newBounded[*grant](maxRefreshes),
	}, nil
}

// AuthHandler returns the demo server's HTTP handler (see [Handler]) as a
// protected resource with its own authorization server:
//
//   - /mcp and /sse need a bearer token issued for them (resources
//     BaseURL/mcp and BaseURL/sse); without one they answer 401 with
//     WWW-Authenticate naming the resource metadata and the scope, and a
//     call of [AdminTool] without [ScopeAdmin] answers 403 insufficient_scope.
//   - /.well-known/oauth-protected-resource/mcp (and /sse, and the root
//     form, which describes /mcp) is the protected resource metadata
//     (RFC 9728).
//   - /.well-known/oauth-authorization-server is the authorization server
//     metadata (RFC 8414); /authorize, /token and /register are its
//     endpoints: the authorization code grant with PKCE S256 and the iss
//     response parameter (RFC 9207), refresh tokens, dynamic client
//     registration (RFC 7591) and Client ID Metadata Documents; /register/{id}
//     reads a registration back (RFC 7592) and /revoke revokes tokens (RFC 7009).
//
// With authorization the demo also has the tools whoami and [AdminTool].
func AuthHandler(stderr io.Writer, opts AuthOptions) (http.Handler, error) {
	d := newDemo(Options{Logger: stderr})
	as, err := newAuthServer(d.log, opts)
	if err != nil {
		return nil, err
	}
	d.addAuthTools(as)
	d.cardAuth = true
	return as.handler(d.handler()), nil
}

// handler serves the authorization server's endpoints and guards inner's
// protected paths.
func (as *authServer) handler(inner http.Handler) http.Handler {
	mux := http.NewServeMux()
	for path, resource := range as.resources {
		mux.Handle("/.well-known/oauth-protected-resource"+path, cors(http.MethodGet, as.resourceMetadata(resource)))
		mux.Handle(path, as.protect(resource, inner))
	}
	mux.Handle("/.well-known/oauth-protected-resource", cors(http.MethodGet, as.resourceMetadata(as.resources["/mcp"])))
	mux.Handle("/.well-known/oauth-authorization-server", cors(http.MethodGet, http.HandlerFunc(as.serveMetadata)))
	mux.HandleFunc("GET /authorize", as.serveAuthorize)
	mux.Handle("/token", cors(http.MethodPost, http.HandlerFunc(as.serveToken)))
	mux.Handle("/register", cors(http.MethodPost, http.HandlerFunc(as.serveRegister)))
	mux.Handle("/register/{id}", cors(http.MethodGet, http.HandlerFunc(as.serveClientRead)))
	mux.Handle("/revoke", cors(http.MethodPost, http.HandlerFunc(as.serveRevoke)))
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintf(w, "mcpscope demo server (authorization on)\n\nStreamable HTTP: POST /mcp\nHTTP+SSE (2024-11-05): GET /sse\n"+
			"Protected resource metadata: %s/.well-known/oauth-protected-resource/mcp\n"+
			"Authorization server metadata: %s/.well-known/oauth-authorization-server\n", as.issuer, as.issuer)
	})
	mux.Handle("/", inner)
	return mux
}

// cors lets a browser-based client call an endpoint from any origin (the
// metadata is public, and the token and registration endpoints take no
// cookies), answers the preflight, and refuses other methods than method.
func cors(method string, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "*")
		switch {
		case r.Method == http.MethodOptions:
			w.Header().Set("Access-Control-Allow-Methods", method+", OPTIONS")
			w.Header().Set("Access-Control-Allow-Headers", "Authorization, Content-Type, MCP-Protocol-Version")
			w.WriteHeader(http.StatusNoContent)
		case r.Method == method || (method == http.MethodGet && r.Method == http.MethodHead):
			h.ServeHTTP(w, r)
		default:
			w.Header().Set("Allow", method+", OPTIONS")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		}
	})
}

// resourceMetadata serves the protected resource metadata of one resource.
func (as *authServer) resourceMetadata(resource string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, &oauthex.ProtectedResourceMetadata{
			Resource:               resource,
			AuthorizationServers:   []string{as.issuer},
			ScopesSupported:        []string{ScopeDemo},
			BearerMethodsSupported: []string{"header"},
			ResourceName:           "mcpscope demo server",
		})
	})
}

func (as *authServer) serveMetadata(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, &auth.ServerMetadata{
		Issuer:                                     as.issuer,
		AuthorizationEndpoint:                      as.issuer + "/authorize",
		TokenEndpoint:                              as.issuer + "/token",
		RegistrationEndpoint:                       as.issuer + "/register",
		RevocationEndpoint:                         as.issuer + "/revoke",
		ScopesSupported:                            []string{ScopeDemo, ScopeAdmin, scopeOffline},
		ResponseTypesSupported:                     []string{"code"},
		ResponseModesSupported:                     []string{"query"},
		GrantTypesSupported:                        []string{"authorization_code", "refresh_token"},
		TokenEndpointAuthMethodsSupported:          []string{"none", "client_secret_basic", "client_secret_post"},
		CodeChallengeMethodsSupported:              []string{"S256"},
		ClientIDMetadataDocumentSupported:          true,
		AuthorizationResponseIssParameterSupported: true,
	})
}

// writeJSON writes v as the JSON body of a response that is never cached.
func writeJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(append(body, '\n'))
}

// oauthError writes an OAuth error response (RFC 6749 §5.2).
func oauthError(w http.ResponseWriter, status int, code, description string) {
	if status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Basic realm="mcpscope demo"`)
	}
	writeJSON(w, status, map[string]string{"error": code, "error_description": description})
}

// ServeHTTPAuth is [ServeHTTP] with authorization ([AuthHandler]). When
// opts.BaseURL is empty it is taken from the listener: http://HOST:PORT,
// with 127.0.0.1 for an address that listens on every interface. Besides
// the endpoints it prints the URL to connect to and how to approve.
func ServeHTTPAuth(ctx context.Context, addr string, stderr io.Writer, opts AuthOptions) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("demo server: listen on %s: %w", addr, err)
	}
	if opts.BaseURL == "" {
		opts.BaseURL = baseURL(addr, ln.Addr())
	}
	d := newDemo(Options{Logger: stderr})
	as, err := newAuthServer(d.log, opts)
	if err != nil {
		ln.Close()
		return err
	}
	d.addAuthTools(as)
	d.cardAuth = true
	base := as.issuer
	d.log.printf("listening on %s/mcp (Streamable HTTP) and %s/sse (HTTP+SSE), with authorization", base, base)
	d.log.printf("authorization server %s: access tokens last %s, refresh tokens %s; scopes %s (every request) and %s (the %s tool)",
		base, as.opts.TokenTTL, as.opts.RefreshTTL, ScopeDemo, ScopeAdmin, AdminTool)
	d.log.printf("connect with: mcpscope --url %s/mcp", base)
	d.log.printf("clients: dynamic registration, client ID metadata documents, or the pre-registered public client %s (redirect http://127.0.0.1/callback, any port)", PreRegisteredClient)
	if as.opts.AutoApprove {
		d.log.printf("every authorization request is approved at once (--auto-approve)")
	} else {
		d.log.printf(`approve in the browser, or without one: a GET of the authorization URL with &approve=1 added, such as BROWSER='curl -sLo /dev/null %%s&approve=1'`)
	}
	return serveListener(ctx, ln, as.handler(d.handler()))
}

// baseURL is the origin clients should use for a listener started on addr.
func baseURL(addr string, bound net.Addr) string {
	host, _, _ := net.SplitHostPort(addr)
	_, port, _ := net.SplitHostPort(bound.String())
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port)
}

// errNoClient is returned when a client_id names no client.
var errNoClient = errors.New("unknown client_id")
