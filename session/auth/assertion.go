package auth

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// ClientAssertionType is client_assertion_type for a JWT client assertion (RFC 7523 §2.2).
const ClientAssertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"

// assertionLifetime is how long a client assertion is valid.
const assertionLifetime = 5 * time.Minute

// AssertionKey signs JWT client assertions (private_key_jwt, RFC 7523 §2.2) with a private
// key the client was registered with.
type AssertionKey struct {
	alg    jose.SignatureAlgorithm
	signer jose.Signer
}

// ParsePrivateKeyPEM reads a PEM private key (PKCS #8, SEC 1 EC, PKCS #1 RSA) for client
// assertions. alg is the JWS algorithm to sign with ("ES256", "RS256", "PS256", "EdDSA" …);
// empty means the key's usual one (ES256/ES384/ES512 by curve, RS256, EdDSA). An alg that
// does not fit the key is refused.
func ParsePrivateKeyPEM(data []byte, alg string) (*AssertionKey, error) {
	block, _ := pem.Decode(data)
	if block == nil {
		return nil, errors.New("private key: no PEM block found")
	}
	var key any
	var err error
	switch block.Type {
	case "EC PRIVATE KEY":
		key, err = x509.ParseECPrivateKey(block.Bytes)
	case "RSA PRIVATE KEY":
		key, err = x509.ParsePKCS1PrivateKey(block.Bytes)
	default:
		key, err = x509.ParsePKCS8PrivateKey(block.Bytes)
	}
	if err != nil {
		return nil, fmt.Errorf("private key (%s): %w", block.Type, err)
	}
	signer, ok := key.(crypto.Signer)
	if !ok {
		return nil, fmt.Errorf("private key: %T cannot sign", key)
	}
	a, err := algForKey(signer, alg)
	if err != nil {
		return nil, fmt.Errorf("private key: %w", err)
	}
	s, err := jose.NewSigner(jose.SigningKey{Algorithm: a, Key: signer}, (&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		return nil, fmt.Errorf("private key: %w", err)
	}
	return &AssertionKey{alg: a, signer: s}, nil
}

// Algorithm is the JWS algorithm the key signs with.
func (k *AssertionKey) Algorithm() string { return string(k.alg) }

// Assertion returns a client assertion for clientID, addressed to audience (the
// authorization server's issuer): iss and sub the client id, aud, iat, exp five minutes
// later, and a fresh jti.
func (k *AssertionKey) Assertion(clientID, audience string, now time.Time) (string, error) {
	if now.IsZero() {
		now = time.Now()
	}
	c := jwt.Claims{
		Issuer:    clientID,
		Subject:   clientID,
		Audience:  jwt.Audience{audience},
		IssuedAt:  jwt.NewNumericDate(now),
		NotBefore: jwt.NewNumericDate(now),
		Expiry:    jwt.NewNumericDate(now.Add(assertionLifetime)),
		ID:        randomID(),
	}
	return jwt.Signed(k.signer).Claims(c).Serialize()
}

// CheckAlgorithm reports an error when the authorization server lists the algorithms it
// accepts for client assertions (token_endpoint_auth_signing_alg_values_supported) and
// the key's is not one of them.
func (k *AssertionKey) CheckAlgorithm(supported []string) error {
	if len(supported) == 0 || slices.Contains(supported, string(k.alg)) {
		return nil
	}
	return fmt.Errorf("the authorization server accepts client assertions signed with %s, not %s (--signing-algorithm)",
		strings.Join(supported, ", "), k.alg)
}

// algForKey checks alg against the key, or chooses the key's usual algorithm when alg is
// empty.
func algForKey(key crypto.Signer, alg string) (jose.SignatureAlgorithm, error) {
	var fits []jose.SignatureAlgorithm
	switch pub := key.Public().(type) {
	case *ecdsa.PublicKey:
		switch pub.Curve {
		case elliptic.P256():
			fits = []jose.SignatureAlgorithm{jose.ES256}
		case elliptic.P384():
			fits = []jose.SignatureAlgorithm{jose.ES384}
		case elliptic.P521():
			fits = []jose.SignatureAlgorithm{jose.ES512}
		default:
			return "", fmt.Errorf("unsupported EC curve %s", pub.Curve.Params().Name)
		}
	case *rsa.PublicKey:
		fits = []jose.SignatureAlgorithm{jose.RS256, jose.RS384, jose.RS512, jose.PS256, jose.PS384, jose.PS512}
	case ed25519.PublicKey:
		fits = []jose.SignatureAlgorithm{jose.EdDSA}
	default:
		return "", fmt.Errorf("unsupported key type %T", pub)
	}
	if alg == "" {
		return fits[0], nil
	}
	if a := jose.SignatureAlgorithm(alg); slices.Contains(fits, a) {
		return a, nil
	}
	return "", fmt.Errorf("signing algorithm %s does not fit the key (it signs with %s)", alg, joinAlgs(fits))
}

func joinAlgs(algs []jose.SignatureAlgorithm) string {
	s := make([]string, len(algs))
	for i, a := range algs {
		s[i] = string(a)
	}
	return strings.Join(s, ", ")
}

// readAllClose reads rc to its end and closes it.
func readAllClose(rc io.ReadCloser) ([]byte, error) {
	defer rc.Close()
	return io.ReadAll(rc)
}
