package auth

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// Store modes, the values of --token-store.
const (
	StoreAuto    = "auto"    // the keyring when one answers, else the file
	StoreKeyring = "keyring" // the OS keyring (Secret Service, macOS Keychain, Windows Credential Manager)
	StoreFile    = "file"    // a 0600 JSON file under the XDG state directory
	StoreNone    = "none"    // memory only: nothing outlives the process
)

// StoreModes lists the modes OpenStore accepts, for flags and help.
var StoreModes = []string{StoreAuto, StoreKeyring, StoreFile, StoreNone}

// OpenStore opens the store of the given mode. Auto uses the keyring when one is available
// (with the file for records too large for it) and the file otherwise; keyring fails with ErrNoKeyring (wrapped, saying why) when none
// is. The file store and the keyring store's index lock live in StateDir.
func OpenStore(mode string) (Store, error) {
	switch mode {
	case StoreNone:
		return NewMemStore(), nil
	case StoreFile:
		dir, err := StateDir()
		if err != nil {
			return nil, err
		}
		return NewFileStore(dir), nil
	case StoreKeyring, StoreAuto, "":
		dir, err := StateDir()
		if err != nil {
			return nil, err
		}
		ks := NewKeyringStore(SystemKeyring, dir)
		err = ks.Probe()
		if err == nil {
			if mode != StoreKeyring {
				ks.Overflow = NewFileStore(dir)
			}
			return ks, nil
		}
		if mode == StoreKeyring {
			return nil, err
		}
		fs := NewFileStore(dir)
		fs.note = "no keyring: " + shortReason(err)
		return fs, nil
	}
	return nil, fmt.Errorf("token store %q: want one of %s", mode, strings.Join(StoreModes, ", "))
}

// shortReason is the reason in an ErrNoKeyring error, without the sentence around it.
func shortReason(err error) string {
	var nk *NoKeyringError
	if errors.As(err, &nk) {
		return nk.Reason
	}
	return err.Error()
}

// StateDir is where mcpscope keeps per-user state: $XDG_STATE_HOME/mcpscope, or
// ~/.local/state/mcpscope when XDG_STATE_HOME is unset or not absolute (as the XDG base
// directory specification asks).
func StateDir() (string, error) {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "mcpscope"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("find the state directory: %w (set XDG_STATE_HOME, or use --token-store none)", err)
	}
	return filepath.Join(home, ".local", "state", "mcpscope"), nil
}

// displayPath shows a path with the home directory as ~, for Describe.
func displayPath(p string) string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return p
	}
	if rel, err := filepath.Rel(home, p); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.Join("~", rel)
	}
	return p
}

// MatchResource returns the keys whose resource covers serverURL: the resource equals the
// server's URL, or is a prefix of it at a path boundary (a resource may name a whole origin
// or a path above the endpoint). Scheme and host compare case-insensitively and a trailing
// slash is ignored.
func MatchResource(serverURL string, keys []Key) []Key {
	s := canonicalResource(serverURL)
	var out []Key
	for _, k := range keys {
		r := canonicalResource(k.Resource)
		if r == "" {
			continue
		}
		if s == r || strings.HasPrefix(s, r+"/") || strings.HasPrefix(s, r+"?") {
			out = append(out, k)
		}
	}
	return out
}

// canonicalResource lower-cases a URL's scheme and host and drops its fragment and a
// trailing slash.
func canonicalResource(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" {
		return strings.TrimSuffix(raw, "/")
	}
	u.Scheme = strings.ToLower(u.Scheme)
	u.Host = strings.ToLower(u.Host)
	u.Fragment, u.RawFragment = "", ""
	return strings.TrimSuffix(u.String(), "/")
}

// sortKeys orders keys by resource, then issuer, for stable listings.
func sortKeys(keys []Key) {
	slices.SortFunc(keys, func(a, b Key) int {
		if c := strings.Compare(a.Resource, b.Resource); c != 0 {
			return c
		}
		return strings.Compare(a.Issuer, b.Issuer)
	})
}

// MemStore keeps records in memory only (--token-store none): a login lasts as long as
// the process.
type MemStore struct {
	mu   sync.Mutex
	recs map[Key]Record
}

// NewMemStore returns an empty MemStore.
func NewMemStore() *MemStore { return &MemStore{recs: map[Key]Record{}} }

// Get returns a copy of the record for k.
func (m *MemStore) Get(k Key) (*Record, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.recs[k]
	if !ok {
		return nil, false, nil
	}
	return cloneRecord(&r), true, nil
}

// Put keeps a copy of rec.
func (m *MemStore) Put(rec *Record) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.recs[rec.Key] = *cloneRecord(rec)
	return nil
}

// Delete forgets k; forgetting what is not there is not an error.
func (m *MemStore) Delete(k Key) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.recs, k)
	return nil
}

// List returns the keys held, sorted.
func (m *MemStore) List() ([]Key, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	keys := make([]Key, 0, len(m.recs))
	for k := range m.recs {
		keys = append(keys, k)
	}
	sortKeys(keys)
	return keys, nil
}

// Describe says "none (memory only)".
func (m *MemStore) Describe() string { return "none (memory only)" }

// cloneRecord copies a record so a caller's later changes do not reach the store.
func cloneRecord(r *Record) *Record {
	c := *r
	c.Scopes = slices.Clone(r.Scopes)
	c.DPoPKey = slices.Clone(r.DPoPKey)
	return &c
}
