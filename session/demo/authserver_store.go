package demo

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"time"
)

// Bounds of the authorization server's state. Whatever a client sends, the
// server never holds more than this many entries of each kind: when a map is
// full its expired entries go first, then the oldest.
const (
	maxClients     = 1000  // dynamically registered clients
	maxMetadocs    = 100   // cached client ID metadata documents
	maxCodes       = 1000  // authorization codes, used or not, until they expire
	maxTokens      = 10000 // access tokens
	maxRefreshes   = 10000 // refresh tokens
	tokenBytes     = 32    // random bytes in a token, code or client secret
	lookupKeyChars = 16    // hex characters of a secret's hash used as its map key
)

// bounded is a map with a size limit and per-entry expiry. It is not safe for
// concurrent use: the authorization server holds its lock around every call.
type bounded[V any] struct {
	max int
	seq uint64
	m   map[string]*slot[V]
}

type slot[V any] struct {
	v       V
	expires time.Time // zero: never
	seq     uint64
}

func newBounded[V any](max int) *bounded[V] {
	return &bounded[V]{max: max, m: make(map[string]*slot[V])}
}

// put stores v under k until expires, making room first when the map is full.
// It reports how many entries it evicted before they expired.
func (b *bounded[V]) put(k string, v V, expires, now time.Time) (evicted int) {
	if _, ok := b.m[k]; !ok && len(b.m) >= b.max {
		b.sweep(now)
		for len(b.m) >= b.max {
			b.evictOldest()
			evicted++
		}
	}
	b.seq++
	b.m[k] = &slot[V]{v: v, expires: expires, seq: b.seq}
	return evicted
}

// get returns the live entry under k; an expired one is removed.
func (b *bounded[V]) get(k string, now time.Time) (V, bool) {
	s, ok := b.m[k]
	if !ok {
		var zero V
		return zero, false
	}
	if !s.expires.IsZero() && !now.Before(s.expires) {
		delete(b.m, k)
		var zero V
		return zero, false
	}
	return s.v, true
}

func (b *bounded[V]) del(k string) { delete(b.m, k) }

// live counts the entries that have not expired.
func (b *bounded[V]) live(now time.Time) int {
	b.sweep(now)
	return len(b.m)
}

func (b *bounded[V]) sweep(now time.Time) {
	for k, s := range b.m {
		if !s.expires.IsZero() && !now.Before(s.expires) {
			delete(b.m, k)
		}
	}
}

func (b *bounded[V]) evictOldest() {
	var oldest string
	var min uint64
	for k, s := range b.m {
		if oldest == "" || s.seq < min {
			oldest, min = k, s.seq
		}
	}
	delete(b.m, oldest)
}

// newSecret returns a random opaque value (a token, code or client secret):
// 32 random bytes, base64url without padding.
func newSecret() string {
	b := make([]byte, tokenBytes)
	rand.Read(b) // never fails; see crypto/rand.Read
	return base64.RawURLEncoding.EncodeToString(b)
}

// secretHash is what the server keeps of a secret: its SHA-256. The secret
// itself is never stored, so a dump of the maps reveals no usable value.
type secretHash [sha256.Size]byte

func hashSecret(s string) secretHash { return sha256.Sum256([]byte(s)) }

// key is the map key a secret is looked up by: a prefix of its hash. The
// full hash is then compared in constant time (equal), so how long a lookup
// takes says nothing about how much of a guessed value was right.
func (h secretHash) key() string { return hex.EncodeToString(h[:])[:lookupKeyChars] }

// equal compares two hashes in constant time.
func (h secretHash) equal(o secretHash) bool {
	return subtle.ConstantTimeCompare(h[:], o[:]) == 1
}
