package auth

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/zalando/go-keyring"
)

// Keyring is the part of an OS keyring the keyring store uses (go-keyring's calls).
// SystemKeyring is the real one.
type Keyring interface {
	Set(service, user, secret string) error
	Get(service, user string) (string, error)
	Delete(service, user string) error
}

// SystemKeyring is the OS keyring: the Secret Service over D-Bus on Linux and the BSDs,
// the Keychain on macOS, the Credential Manager on Windows.
var SystemKeyring Keyring = systemKeyring{}

type systemKeyring struct{}

func (systemKeyring) Set(service, user, secret string) error {
	return keyring.Set(service, user, secret)
}
func (systemKeyring) Get(service, user string) (string, error) {
	return keyring.Get(service, user)
}
func (systemKeyring) Delete(service, user string) error { return keyring.Delete(service, user) }

// keyringService names mcpscope's items in the keyring; indexUser is the item listing the
// keys stored (a keyring cannot list its items).
const (
	keyringService = "mcpscope"
	indexUser      = "index"
)

// keyringLockName is the file locked while the index changes. It is not the file store's
// lock: a change may write the overflow file, which takes that one (always in this order).
const keyringLockName = "keyring.lock"

// probeTimeout bounds the first keyring call: a keyring that waits on an unlock prompt
// nobody answers counts as unavailable.
const probeTimeout = 20 * time.Second

// NoKeyringError says why no keyring is available.
type NoKeyringError struct{ Reason string }

// Error says why there is no keyring and what to use instead.
func (e *NoKeyringError) Error() string {
	return "no keyring available (" + e.Reason + "); use --token-store file or none"
}

// KeyringStore keeps one keyring item per Key holding the Record's JSON, and an index item
// listing the keys. Changes to the index are made under a lock file in the state
// directory, so two processes do not lose each other's keys.
type KeyringStore struct {
	kr  Keyring
	dir string // where the lock file is
	// Overflow, when set, takes the records the keyring refuses as too large (the Windows
	// Credential Manager holds 2,560 bytes, the macOS Keychain about 3,000: a pair of JWTs
	// can be more); Get, List and Delete look there too.
	Overflow *FileStore
}

// NewKeyringStore returns a store in kr, locking with a file in dir.
func NewKeyringStore(kr Keyring, dir string) *KeyringStore {
	return &KeyringStore{kr: kr, dir: dir}
}

// Probe checks that the keyring answers: reading the index succeeds or finds nothing. Any
// other outcome (no D-Bus session bus, no Secret Service on it, an unsupported system, no
// answer within 20 s) is a *NoKeyringError.
func (s *KeyringStore) Probe() error {
	done := make(chan error, 1)
	go func() {
		_, err := s.kr.Get(keyringService, indexUser)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || errors.Is(err, keyring.ErrNotFound) {
			return nil
		}
		return &NoKeyringError{Reason: keyringReason(err)}
	case <-time.After(probeTimeout):
		return &NoKeyringError{Reason: fmt.Sprintf("the keyring did not answer within %s (locked?)", probeTimeout)}
	}
}

// keyringReason says in a few words why the keyring failed.
func keyringReason(err error) string {
	msg := err.Error()
	switch {
	case errors.Is(err, keyring.ErrUnsupportedPlatform):
		return "no keyring on this system"
	case strings.Contains(msg, "org.freedesktop.secrets"):
		return "no Secret Service on the D-Bus session bus"
	case strings.Contains(msg, "DBUS_SESSION_BUS_ADDRESS"), strings.Contains(msg, "dbus-launch"),
		strings.Contains(msg, "connect: "), strings.Contains(msg, "no such file"):
		return "no D-Bus session bus"
	}
	return msg
}

// Describe says "keyring", and where records too large for it go.
func (s *KeyringStore) Describe() string {
	if s.Overflow != nil {
		return "keyring (records too large for it: " + s.Overflow.Describe() + ")"
	}
	return "keyring"
}

// overflowInUse reports whether the overflow file exists (it is made only when needed).
func (s *KeyringStore) overflowInUse() bool {
	if s.Overflow == nil {
		return false
	}
	_, err := os.Stat(s.Overflow.Path())
	return err == nil
}

// keyringUser is the item name of k's record.
func keyringUser(k Key) string { return "token " + k.Resource + " " + k.Issuer }

// Get reads k's item.
func (s *KeyringStore) Get(k Key) (*Record, bool, error) {
	v, err := s.kr.Get(keyringService, keyringUser(k))
	if errors.Is(err, keyring.ErrNotFound) {
		if s.overflowInUse() {
			return s.Overflow.Get(k)
		}
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("read the keyring: %w", err)
	}
	var rec Record
	if err := json.Unmarshal([]byte(v), &rec); err != nil {
		return nil, false, fmt.Errorf("the keyring item %q is not a stored record (%v): remove it with `mcpscope auth logout`", keyringUser(k), err)
	}
	rec.Key = k
	return &rec, true, nil
}

// Put writes rec's item and adds its key to the index.
func (s *KeyringStore) Put(rec *Record) error {
	b, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	return s.withIndex(func(keys []Key) ([]Key, error) {
		if err := s.kr.Set(keyringService, keyringUser(rec.Key), string(b)); err != nil {
			if !errors.Is(err, keyring.ErrSetDataTooBig) {
				return nil, fmt.Errorf("write the keyring: %w", err)
			}
			if s.Overflow == nil {
				return nil, fmt.Errorf("the keyring refused a record of %d bytes as too big: use --token-store file or auto", len(b))
			}
			// Too big for the keyring: the file takes it, and an older, smaller copy in
			// the keyring goes (and its key from the index).
			if err := s.Overflow.Put(rec); err != nil {
				return nil, err
			}
			return s.forget(keys, rec.Key)
		}
		if s.overflowInUse() {
			if err := s.Overflow.Delete(rec.Key); err != nil {
				return nil, err
			}
		}
		for _, k := range keys {
			if k == rec.Key {
				return nil, nil
			}
		}
		return append(keys, rec.Key), nil
	})
}

// Delete removes k's item and its key from the index.
func (s *KeyringStore) Delete(k Key) error {
	return s.withIndex(func(keys []Key) ([]Key, error) {
		if s.overflowInUse() {
			if err := s.Overflow.Delete(k); err != nil {
				return nil, err
			}
		}
		return s.forget(keys, k)
	})
}

// forget deletes k's keyring item and returns the index without k (nil: unchanged).
func (s *KeyringStore) forget(keys []Key, k Key) ([]Key, error) {
	if err := s.kr.Delete(keyringService, keyringUser(k)); err != nil && !errors.Is(err, keyring.ErrNotFound) {
		return nil, fmt.Errorf("delete from the keyring: %w", err)
	}
	out := keys[:0:0]
	for _, x := range keys {
		if x != k {
			out = append(out, x)
		}
	}
	if len(out) == len(keys) {
		return nil, nil
	}
	return out, nil
}

// List returns the keys in the index, sorted.
func (s *KeyringStore) List() ([]Key, error) {
	keys, err := s.readIndex()
	if err == nil && s.overflowInUse() {
		var more []Key
		if more, err = s.Overflow.List(); err == nil {
			for _, k := range more {
				if !slices.Contains(keys, k) {
					keys = append(keys, k)
				}
			}
		}
	}
	sortKeys(keys)
	return keys, err
}

// readIndex reads the index item; none is an empty index.
func (s *KeyringStore) readIndex() ([]Key, error) {
	v, err := s.kr.Get(keyringService, indexUser)
	if errors.Is(err, keyring.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the keyring: %w", err)
	}
	var keys []Key
	if err := json.Unmarshal([]byte(v), &keys); err != nil {
		return nil, fmt.Errorf("the keyring's %s item %q is not a list of keys (%v); it was left untouched: remove it with your keyring's tool", keyringService, indexUser, err)
	}
	return keys, nil
}

// withIndex runs fn under the lock with the index and writes back what it returns (nil:
// unchanged).
func (s *KeyringStore) withIndex(fn func([]Key) ([]Key, error)) error {
	if err := ensureDir(s.dir); err != nil {
		return err
	}
	unlock, err := lockFile(filepath.Join(s.dir, keyringLockName))
	if err != nil {
		return fmt.Errorf("lock the token store: %w", err)
	}
	defer unlock()
	keys, err := s.readIndex()
	if err != nil {
		return err
	}
	next, err := fn(keys)
	if err != nil || next == nil {
		return err
	}
	sortKeys(next)
	b, err := json.Marshal(next)
	if err != nil {
		return err
	}
	if err := s.kr.Set(keyringService, indexUser, string(b)); err != nil {
		return fmt.Errorf("write the keyring's index: %w", err)
	}
	return nil
}
