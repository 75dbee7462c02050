package auth

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// DPoP (RFC 9449) binds an access token to a key the client holds: every token request and
// every request to the MCP server carries a fresh proof, a JWT signed with that key.

// Token types of a token response (token_type) and the matching Authorization schemes.
const (
	TokenTypeBearer = "Bearer"
	TokenTypeDPoP   = "DPoP"
)

// HeaderDPoP and HeaderDPoPNonce are the DPoP request and nonce response headers.
const (
	HeaderDPoP      = "DPoP"
	HeaderDPoPNonce = "DPoP-Nonce"
)

// errUseDPoPNonce is the error code of a nonce challenge (RFC 9449 §8, §9).
const errUseDPoPNonce = "use_dpop_nonce"

// DPoPKey is the key pair a DPoP-bound token is bound to, and the nonces the servers gave.
// It is safe for concurrent use.
type DPoPKey struct {
	priv   crypto.Signer
	alg    jose.SignatureAlgorithm
	public jose.JSONWebKey
	signer jose.Signer

	mu     sync.Mutex
	nonces map[string]string // by endpoint (a proof's htu): the token endpoint, the MCP endpoint
}

// NewDPoPKey generates a new ES256 (P-256) key.
func NewDPoPKey() (*DPoPKey, error) {
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("generate DPoP key: %w", err)
	}
	return newDPoPKey(priv, jose.ES256)
}

// ParseDPoPKey reads a key saved with Marshal (a private JWK, Record.DPoPKey).
func ParseDPoPKey(data []byte) (*DPoPKey, error) {
	var jwk jose.JSONWebKey
	if err := json.Unmarshal(data, &jwk); err != nil {
		return nil, fmt.Errorf("DPoP key: %w", err)
	}
	priv, ok := jwk.Key.(crypto.Signer)
	if !ok || jwk.IsPublic() {
		return nil, errors.New("DPoP key: not a private signing key")
	}
	alg, err := algForKey(priv, jwk.Algorithm)
	if err != nil {
		return nil, fmt.Errorf("DPoP key: %w", err)
	}
	return newDPoPKey(priv, alg)
}

func newDPoPKey(priv crypto.Signer, alg jose.SignatureAlgorithm) (*DPoPKey, error) {
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: alg, Key: priv},
		(&jose.SignerOptions{EmbedJWK: true}).WithType("dpop+jwt"))
	if err != nil {
		return nil, fmt.Errorf("DPoP signer: %w", err)
	}
	return &DPoPKey{
		priv:   priv,
		alg:    alg,
		public: jose.JSONWebKey{Key: priv.Public()},
		signer: signer,
		nonces: map[string]string{},
	}, nil
}

// Algorithm is the JWS algorithm of the proofs ("ES256").
func (k *DPoPKey) Algorithm() string { return string(k.alg) }

// Marshal returns the private key as a JWK, for Record.DPoPKey. It is a secret.
func (k *DPoPKey) Marshal() ([]byte, error) {
	return json.Marshal(jose.JSONWebKey{Key: k.priv, Algorithm: string(k.alg)})
}

// Thumbprint is the key's JWK SHA-256 thumbprint (RFC 7638), base64url: the "jkt" a bound
// token's cnf claim and the authorization request's dpop_jkt carry.
func (k *DPoPKey) Thumbprint() string {
	tp, err := k.public.Thumbprint(crypto.SHA256)
	if err != nil {
		return ""
	}
	return base64.RawURLEncoding.EncodeToString(tp)
}

// ProofOptions are the request-specific parts of a proof.
type ProofOptions struct {
	// AccessToken, when set, is hashed into "ath" (requests to the MCP server).
	AccessToken string
	// Body, when not nil, is digested into "content_digest" (MCP's DPoP profile: requests
	// to the MCP server with a body).
	Body []byte
	// Now is the proof's time; zero means time.Now.
	Now time.Time
}

// dpopClaims are a proof's claims (RFC 9449 §4.2).
type dpopClaims struct {
	JTI           string `json:"jti"`
	HTM           string `json:"htm"`
	HTU           string `json:"htu"`
	IAT           int64  `json:"iat"`
	ATH           string `json:"ath,omitempty"`
	Nonce         string `json:"nonce,omitempty"`
	ContentDigest string `json:"content_digest,omitempty"`
}

// Proof returns a fresh proof JWT for a request of method to target, with the nonce
// target's endpoint last gave, if any.
func (k *DPoPKey) Proof(method, target string, opts ProofOptions) (string, error) {
	htu, err := HTU(target)
	if err != nil {
		return "", err
	}
	now := opts.Now
	if now.IsZero() {
		now = time.Now()
	}
	c := dpopClaims{JTI: randomID(), HTM: method, HTU: htu, IAT: now.Unix(), Nonce: k.Nonce(target)}
	if opts.AccessToken != "" {
		c.ATH = TokenHash(opts.AccessToken)
	}
	if opts.Body != nil {
		sum := sha256.Sum256(opts.Body)
		c.ContentDigest = "sha-256=:" + base64.StdEncoding.EncodeToString(sum[:]) + ":"
	}
	return jwt.Signed(k.signer).Claims(c).Serialize()
}

// Authorize sets a DPoP-bound token and a fresh proof on a request to the MCP server:
// "Authorization: DPoP <token>" and the DPoP header, the proof covering the body.
func (k *DPoPKey) Authorize(req *http.Request, accessToken string) error {
	var body []byte
	if req.GetBody != nil {
		rc, err := req.GetBody()
		if err != nil {
			return fmt.Errorf("DPoP proof: %w", err)
		}
		body, err = readAllClose(rc)
		if err != nil {
			return fmt.Errorf("DPoP proof: %w", err)
		}
	}
	proof, err := k.Proof(req.Method, req.URL.String(), ProofOptions{AccessToken: accessToken, Body: body})
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", TokenTypeDPoP+" "+accessToken)
	req.Header.Set(HeaderDPoP, proof)
	return nil
}

// Nonce is the last nonce target's endpoint gave ("" when none).
func (k *DPoPKey) Nonce(target string) string {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.nonces[nonceKey(target)]
}

// NoteNonce keeps the DPoP-Nonce of a response from target, for the next proofs to that
// endpoint (a server may send a new one with any response, RFC 9449 §8.2). Nonces are kept
// per endpoint, so an authorization server and an MCP server on one origin keep theirs
// apart. It reports whether the nonce is new.
func (k *DPoPKey) NoteNonce(target string, h http.Header) bool {
	nonce := strings.TrimSpace(h.Get(HeaderDPoPNonce))
	if nonce == "" {
		return false
	}
	o := nonceKey(target)
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.nonces[o] == nonce {
		return false
	}
	k.nonces[o] = nonce
	return true
}

// IsNonceChallenge reports whether an answer asks for the request again with a DPoP nonce:
// a 401 whose WWW-Authenticate DPoP challenge says error="use_dpop_nonce" (the MCP server,
// RFC 9449 §9), or a 400 whose JSON error is use_dpop_nonce (the token endpoint, §8), with a
// DPoP-Nonce header either way. body is the answer's body (the 400's JSON).
func IsNonceChallenge(status int, h http.Header, body []byte) bool {
	if h.Get(HeaderDPoPNonce) == "" {
		return false
	}
	switch status {
	case http.StatusUnauthorized:
		for _, c := range ParseWWWAuthenticate(h.Values("WWW-Authenticate")) {
			if strings.EqualFold(c.Scheme, TokenTypeDPoP) && c.Error() == errUseDPoPNonce {
				return true
			}
		}
	case http.StatusBadRequest:
		var e struct {
			Error string `json:"error"`
		}
		return json.Unmarshal(body, &e) == nil && e.Error == errUseDPoPNonce
	}
	return false
}

// HTU is a proof's htu for target: the URI without query and fragment (RFC 9449 §4.2).
func HTU(target string) (string, error) {
	u, err := url.Parse(target)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return "", fmt.Errorf("DPoP proof: %q is not an absolute URL", target)
	}
	u.RawQuery, u.ForceQuery, u.Fragment, u.RawFragment, u.User = "", false, "", "", nil
	return u.String(), nil
}

// TokenHash is a proof's ath for an access token: base64url of its SHA-256 (RFC 9449 §4.2).
func TokenHash(accessToken string) string {
	sum := sha256.Sum256([]byte(accessToken))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// nonceKey is the endpoint a nonce belongs to: target without query and fragment.
func nonceKey(target string) string {
	if htu, err := HTU(target); err == nil {
		return htu
	}
	return target
}

// randomID is a 128-bit random identifier, base64url (jti).
func randomID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}
