package auth

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// fileName is the file store's file in the state directory, and lockName the file its
// writers lock.
const (
	fileName = "auth.json"
	lockName = "auth.lock"
)

// fileVersion is the format of the file store's file.
const fileVersion = 1

// fileData is the file store's file.
type fileData struct {
	Version int      `json:"version"`
	Records []Record `json:"records"`
}

// CorruptError says the store's file cannot be read as a store. The file is left as it
// is: nothing overwrites it until the user repairs or removes it.
type CorruptError struct {
	Path string
	Err  error
}

// Error says what is wrong with the file and what to do.
func (e *CorruptError) Error() string {
	return fmt.Sprintf("token store %s is not readable as a store (%v); it was left untouched: repair or remove it (it may hold tokens), or use --token-store none",
		displayPath(e.Path), e.Err)
}

// Unwrap returns the decoding error.
func (e *CorruptError) Unwrap() error { return e.Err }

// FileStore keeps every record in one JSON file, 0600 in a 0700 directory. Each change
// reads the file, changes it and writes it back through a temporary file renamed over it,
// all under an exclusive lock on a lock file beside it, so two processes never lose each
// other's writes and a reader never sees half a file.
type FileStore struct {
	dir  string
	note string // why the file is used when the keyring was wanted
}

// NewFileStore returns the file store in dir (created on the first write).
func NewFileStore(dir string) *FileStore { return &FileStore{dir: dir} }

// Path is the store's file.
func (f *FileStore) Path() string { return filepath.Join(f.dir, fileName) }

// Describe says "file PATH", and why when the keyring was not available.
func (f *FileStore) Describe() string {
	d := "file " + displayPath(f.Path())
	if f.note != "" {
		d += " (" + f.note + ")"
	}
	return d
}

// Get returns the record for k.
func (f *FileStore) Get(k Key) (*Record, bool, error) {
	var rec *Record
	err := f.locked(func(d *fileData) (bool, error) {
		for i := range d.Records {
			if d.Records[i].Key == k {
				rec = cloneRecord(&d.Records[i])
			}
		}
		return false, nil
	})
	return rec, rec != nil, err
}

// Put adds rec or replaces the record of its key.
func (f *FileStore) Put(rec *Record) error {
	return f.locked(func(d *fileData) (bool, error) {
		for i := range d.Records {
			if d.Records[i].Key == rec.Key {
				d.Records[i] = *cloneRecord(rec)
				return true, nil
			}
		}
		d.Records = append(d.Records, *cloneRecord(rec))
		return true, nil
	})
}

// Delete removes the record of k, if any.
func (f *FileStore) Delete(k Key) error {
	return f.locked(func(d *fileData) (bool, error) {
		for i := range d.Records {
			if d.Records[i].Key == k {
				d.Records = append(d.Records[:i], d.Records[i+1:]...)
				return true, nil
			}
		}
		return false, nil
	})
}

// List returns every key in the file, sorted.
func (f *FileStore) List() ([]Key, error) {
	var keys []Key
	err := f.locked(func(d *fileData) (bool, error) {
		for _, r := range d.Records {
			keys = append(keys, r.Key)
		}
		return false, nil
	})
	sortKeys(keys)
	return keys, err
}

// locked runs fn on the file's contents under the lock and writes them back when fn says
// they changed.
func (f *FileStore) locked(fn func(*fileData) (changed bool, err error)) error {
	if err := ensureDir(f.dir); err != nil {
		return err
	}
	unlock, err := lockFile(filepath.Join(f.dir, lockName))
	if err != nil {
		return fmt.Errorf("lock the token store: %w", err)
	}
	defer unlock()
	d, err := f.read()
	if err != nil {
		return err
	}
	changed, err := fn(d)
	if err != nil || !changed {
		return err
	}
	return f.write(d)
}

// read reads the file; a missing file is an empty store.
func (f *FileStore) read() (*fileData, error) {
	b, err := os.ReadFile(f.Path())
	if errors.Is(err, fs.ErrNotExist) {
		return &fileData{Version: fileVersion}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the token store: %w", err)
	}
	var d fileData
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&d); err != nil {
		return nil, &CorruptError{Path: f.Path(), Err: err}
	}
	if dec.More() {
		return nil, &CorruptError{Path: f.Path(), Err: errors.New("data after the JSON object")}
	}
	if d.Version != fileVersion {
		return nil, &CorruptError{Path: f.Path(), Err: fmt.Errorf("format version %d, this mcpscope reads %d", d.Version, fileVersion)}
	}
	return &d, nil
}

// write replaces the file atomically: a 0600 temporary file in the same directory,
// synced, renamed over it.
func (f *FileStore) write(d *fileData) error {
	d.Version = fileVersion
	b, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(f.dir, ".auth-*.tmp")
	if err != nil {
		return fmt.Errorf("write the token store: %w", err)
	}
	done := false
	defer func() {
		if !done {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	if err := tmp.Chmod(0o600); err != nil {
		return fmt.Errorf("write the token store: %w", err)
	}
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("write the token store: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("write the token store: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write the token store: %w", err)
	}
	if err := os.Rename(tmp.Name(), f.Path()); err != nil {
		return fmt.Errorf("write the token store: %w", err)
	}
	done = true
	syncDir(f.dir)
	return nil
}

// ensureDir makes dir (and its parents) with mode 0700 and narrows dir itself to 0700 if
// it was wider.
func ensureDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("make the state directory: %w", err)
	}
	st, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("make the state directory: %w", err)
	}
	if st.Mode().Perm()&0o077 != 0 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return fmt.Errorf("restrict the state directory to its owner: %w", err)
		}
	}
	return nil
}
