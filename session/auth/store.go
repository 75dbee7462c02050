package auth

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
)

// MemStore keeps records in memory, for one process (--token-store none).
type MemStore struct {
	mu   sync.Mutex
	recs map[Key]Record
}

// NewMemStore returns an empty MemStore.
func NewMemStore() *MemStore { return &MemStore{recs: map[Key]Record{}} }

// Get implements Store.
func (m *MemStore) Get(k Key) (*Record, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.recs[k]
	if !ok {
		return nil, false, nil
	}
	r.Scopes = slices.Clone(r.Scopes)
	return &r, true, nil
}

// Put implements Store.
func (m *MemStore) Put(rec *Record) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	r := *rec
	r.Scopes = slices.Clone(rec.Scopes)
	m.recs[rec.Key] = r
	return nil
}

// Delete implements Store.
func (m *MemStore) Delete(k Key) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.recs, k)
	return nil
}

// List implements Store.
func (m *MemStore) List() ([]Key, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []Key
	for k := range m.recs {
		out = append(out, k)
	}
	return out, nil
}

// Describe implements Store.
func (m *MemStore) Describe() string { return "none (this process only)" }

// FileStore keeps records in one JSON file, readable by its owner only (0600), rewritten
// whole (through a temporary file and a rename) on every change.
type FileStore struct {
	Path string
	mu   sync.Mutex
}

// NewFileStore returns the store kept in path (created on the first Put).
func NewFileStore(path string) *FileStore { return &FileStore{Path: path} }

type fileRecords struct {
	Records []Record `json:"records"`
}

func (s *FileStore) load() ([]Record, error) {
	data, err := os.ReadFile(s.Path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var f fileRecords
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("token store %s: %w", s.Path, err)
	}
	return f.Records, nil
}

func (s *FileStore) save(recs []Record) error {
	dir := filepath.Dir(s.Path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	// A directory made earlier with a laxer mode is narrowed: only its owner lists it.
	if fi, err := os.Stat(dir); err == nil && fi.Mode().Perm()&0o077 != 0 && runtime.GOOS != "windows" {
		if err := os.Chmod(dir, fi.Mode().Perm()&0o700); err != nil {
			return err
		}
	}
	data, err := json.MarshalIndent(fileRecords{Records: recs}, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(s.Path), ".tokens-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), s.Path)
}

// Get implements Store.
func (s *FileStore) Get(k Key) (*Record, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	recs, err := s.load()
	if err != nil {
		return nil, false, err
	}
	for _, r := range recs {
		if r.Key == k {
			return &r, true, nil
		}
	}
	return nil, false, nil
}

// Put implements Store.
func (s *FileStore) Put(rec *Record) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	recs, err := s.load()
	if err != nil {
		return err
	}
	recs = slices.DeleteFunc(recs, func(r Record) bool { return r.Key == rec.Key })
	return s.save(append(recs, *rec))
}

// Delete implements Store.
func (s *FileStore) Delete(k Key) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	recs, err := s.load()
	if err != nil {
		return err
	}
	return s.save(slices.DeleteFunc(recs, func(r Record) bool { return r.Key == k }))
}

// List implements Store.
func (s *FileStore) List() ([]Key, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	recs, err := s.load()
	var out []Key
	for _, r := range recs {
		out = append(out, r.Key)
	}
	return out, err
}

// Describe implements Store.
func (s *FileStore) Describe() string { return "file " + s.Path }
