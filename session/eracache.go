package session

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
)

// Eras a server may be of, as the 2026-07-28 versioning page names them.
const (
	EraModern = "modern" // per-request _meta, server/discover (2026-07-28 and later)
	EraLegacy = "legacy" // the initialize handshake (2025-11-25 and earlier)
)

// maxEraFile bounds what is read from an era cache file: it holds a few short fields.
const maxEraFile = 4096

// EraCache remembers which era a server configuration turned out to be under protocol
// "auto", so that the next session skips the server/discover probe, as the versioning page
// allows ("MAY persist it across restarts of the same server configuration, re-probing if
// the cached assumption later fails"). It is one small JSON file per configuration, named
// by a hash of it; the file holds the era and when it was learnt, nothing of the
// configuration itself (which may hold secrets).
type EraCache struct {
	path string
}

// EraEntry is what the cache holds for one server configuration.
type EraEntry struct {
	Era      string    `json:"era"`      // EraModern or EraLegacy
	Revision string    `json:"revision"` // the revision negotiated when the era was learnt
	Learnt   time.Time `json:"learnt"`
	// Transport is "sse" when an HTTP URL turned out to speak HTTP+SSE (2024-11-05), so the
	// next session goes there without the POST Streamable HTTP would have refused.
	Transport string `json:"transport,omitempty"`
}

// NewEraCache returns the era cache of the server configuration key (ServerSpec.EraKey)
// under dir, or under the user cache directory (mcpscope/era) when dir is "". It returns
// nil when there is no cache directory; a nil *EraCache caches nothing.
func NewEraCache(dir, key string) *EraCache {
	if dir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return nil
		}
		dir = filepath.Join(base, "mcpscope", "era")
	}
	sum := sha256.Sum256([]byte(key))
	return &EraCache{path: filepath.Join(dir, hex.EncodeToString(sum[:12])+".json")}
}

// Path is the cache file.
func (c *EraCache) Path() string {
	if c == nil {
		return ""
	}
	return c.path
}

// Load returns the cached era; false when there is none or the file is not one this version
// wrote (it is then ignored, and replaced after the next probe).
func (c *EraCache) Load() (EraEntry, bool) {
	if c == nil {
		return EraEntry{}, false
	}
	f, err := os.Open(c.path)
	if err != nil {
		return EraEntry{}, false
	}
	defer f.Close()
	var e EraEntry
	if err := json.NewDecoder(&limitedReader{f, maxEraFile}).Decode(&e); err != nil {
		return EraEntry{}, false
	}
	if _, ok := protocol.ParseRevision(e.Revision); !ok || (e.Era != EraModern && e.Era != EraLegacy) ||
		e.Transport != "" && e.Transport != "sse" {
		return EraEntry{}, false
	}
	return e, true
}

// Store writes e, replacing the file atomically (a rename), readable by the user only.
func (c *EraCache) Store(e EraEntry) error {
	if c == nil {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(c.path), 0o700); err != nil {
		return fmt.Errorf("era cache: %w", err)
	}
	data, _ := json.Marshal(e)
	tmp, err := os.CreateTemp(filepath.Dir(c.path), ".era-*")
	if err != nil {
		return fmt.Errorf("era cache: %w", err)
	}
	_, werr := tmp.Write(append(data, '\n'))
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("era cache: %w", err)
	}
	if err := os.Rename(tmp.Name(), c.path); err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("era cache: %w", err)
	}
	return nil
}

// Forget removes the cached era.
func (c *EraCache) Forget() {
	if c != nil {
		_ = os.Remove(c.path)
	}
}

// limitedReader fails a read past its bound instead of ending quietly, so that a file too
// large to be the cache's is not half-parsed.
type limitedReader struct {
	f interface{ Read([]byte) (int, error) }
	n int
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.n <= 0 {
		return 0, errors.New("era cache file too large")
	}
	if len(p) > l.n {
		p = p[:l.n]
	}
	n, err := l.f.Read(p)
	l.n -= n
	return n, err
}

// EraKey identifies the server configuration for the era cache: transport, URL or command
// line, working directory, environment and the names of extra headers. It is only ever
// hashed.
func (sp ServerSpec) EraKey() string {
	var names []string
	for name := range sp.Headers {
		names = append(names, strings.ToLower(name))
	}
	slices.Sort(names)
	key, _ := json.Marshal([]any{sp.Transport, sp.URL, sp.Command, sp.Dir, sp.Env, names})
	return string(key)
}
