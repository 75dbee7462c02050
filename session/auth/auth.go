package auth

import (
	"context"
	"time"
)

// Step labels an authorization HTTP exchange (transport.HTTPExchange.Step) and the status
// a user sees while it runs.
type Step string

// The steps of the flow, in the order they happen.
const (
	StepResourceMetadata Step = "resource metadata" // GET protected resource metadata
	StepASMetadata       Step = "AS metadata"       // GET authorization server metadata
	StepRegistration     Step = "registration"      // POST dynamic client registration
	StepAuthorize        Step = "authorize"         // the browser is sent to the authorization endpoint
	StepCallback         Step = "callback"          // the loopback listener received the redirect
	StepToken            Step = "token"             // POST token endpoint (code, client credentials, ...)
	StepRefresh          Step = "refresh"           // POST token endpoint with a refresh token
	StepStepUp           Step = "step-up"           // a new authorization for more scope after a 403
	StepTokenExchange    Step = "token exchange"    // RFC 8693 at an identity provider (enterprise)
)

// How the client identity was obtained (Record.ClientSource, Status.ClientSource).
const (
	ClientPreRegistered = "pre-registered"
	ClientMetadataDoc   = "client ID metadata document"
	ClientDynamic       = "dynamic registration"
)

// Key identifies stored credentials: the protected resource (as its metadata names it) and
// the authorization server's issuer.
type Key struct {
	Resource string `json:"resource"`
	Issuer   string `json:"issuer"`
}

// Record is what a Store keeps for one Key: the client identity and the tokens.
type Record struct {
	Key
	ClientID              string    `json:"client_id"`
	ClientSecret          string    `json:"client_secret,omitempty"`
	ClientSource          string    `json:"client_source"`
	ClientSecretExpiresAt time.Time `json:"client_secret_expires_at,omitzero"`
	RedirectURI           string    `json:"redirect_uri,omitempty"` // registered with DCR
	// RegistrationClientURI and RegistrationAccessToken read the registration back (RFC
	// 7592), to learn whether the authorization server still knows the client.
	RegistrationClientURI   string `json:"registration_client_uri,omitempty"`
	RegistrationAccessToken string `json:"registration_access_token,omitempty"`
	// ClientRefused: the authorization server refused the client (invalid_client); a
	// dynamically registered one is registered again instead of being reused.
	ClientRefused bool `json:"client_refused,omitempty"`
	// TokenEndpointAuthMethod is how the client authenticates at the token endpoint:
	// client_secret_basic, client_secret_post, none (or an extension's).
	TokenEndpointAuthMethod string    `json:"token_endpoint_auth_method,omitempty"`
	AccessToken             string    `json:"access_token,omitempty"`
	TokenType               string    `json:"token_type,omitempty"` // "Bearer" or "DPoP"
	RefreshToken            string    `json:"refresh_token,omitempty"`
	Expiry                  time.Time `json:"expiry,omitzero"`    // zero: the AS gave none
	Scopes                  []string  `json:"scopes,omitempty"`   // granted
	DPoPKey                 []byte    `json:"dpop_key,omitempty"` // private JWK the token is bound to
	Saved                   time.Time `json:"saved"`
}

// Store keeps Records per user. Implementations: the OS keyring, a 0600 file under the
// XDG state directory, and none (memory only, for one process).
type Store interface {
	// Get returns the record for k; ok is false when there is none.
	Get(k Key) (rec *Record, ok bool, err error)
	Put(rec *Record) error
	Delete(k Key) error
	// List returns every key stored, for `auth status` and `auth logout --all`.
	List() ([]Key, error)
	// Describe says where records are kept ("keyring", "file ~/.local/state/...", "none").
	Describe() string
}

// State is where a flow stands.
type State string

const (
	StateNone        State = "none"        // no authorization asked for or needed yet
	StateDiscovering State = "discovering" // reading metadata, registering
	StateWaiting     State = "waiting"     // waiting for the browser (AuthorizeURL set)
	StateAuthorized  State = "authorized"
	StateFailed      State = "failed" // LastError says why
)

// Status is a snapshot for the Auth page and `auth status`. It holds no secret: the token
// is shown masked.
type Status struct {
	State               State
	Since               time.Time // when State became what it is
	Step                Step      // the step running, while discovering or waiting
	Resource            string
	ResourceMetadataURL string
	Issuer              string
	ClientID            string
	ClientSource        string
	ScopesRequested     []string
	ScopesGranted       []string
	TokenType           string
	TokenMasked         string // e.g. "eyJh…(812 bytes)"
	Expiry              time.Time
	HasRefresh          bool
	AuthorizeURL        string // while waiting for the browser
	LastError           string // the last failure, explained
	Store               string // Store.Describe()
}

// Controller is what the interactive view and `auth` commands use of a session's
// authorization. Session.Auth() returns it (nil for a stdio server).
type Controller interface {
	Status() Status
	// Changed is signalled (without blocking; capacity 1) whenever Status changes.
	Changed() <-chan struct{}
	// Login runs the flow now (again), replacing stored tokens.
	Login(ctx context.Context) error
	// Refresh uses the refresh token now.
	Refresh(ctx context.Context) error
	// Logout forgets the tokens (and the stored record) of this server.
	Logout() error
	// CancelWait ends a wait for the browser.
	CancelWait()
}
