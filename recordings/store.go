package recordings

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Retention defaults of the per-user recordings directory.
const (
	DefaultKeep     = 50      // recordings kept
	DefaultKeepSize = 1 << 30 // bytes kept in total
)

// storePrefix and storeSuffix frame the names of the recordings the interactive view
// makes in the per-user directory (DefaultRecordDir); Prune deletes only files named so.
const (
	storePrefix = "mcpscope-"
	storeSuffix = ".jsonl"
)

// CreateIn makes a new recording in dir (created with mode 0700 when missing), named after
// the time: mcpscope-20260102-150405.jsonl (-1, -2 … when taken). It returns the writer and the file's path.
func CreateIn(dir string, h Header, o Options) (*Writer, string, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, "", fmt.Errorf("create the recordings directory: %w", err)
	}
	o.Overwrite = false
	stamp := time.Now().Format("20060102-150405")
	for n := 0; ; n++ {
		name := storePrefix + stamp + storeSuffix
		if n > 0 {
			name = fmt.Sprintf("%s%s-%d%s", storePrefix, stamp, n, storeSuffix)
		}
		path := filepath.Join(dir, name)
		w, err := Create(path, h, o)
		if err == nil {
			return w, path, nil
		}
		if _, statErr := os.Lstat(path); statErr != nil || n >= 100 {
			return nil, "", err
		}
	}
}

// Prune deletes the oldest recordings in dir (by modification time; only files named
// mcpscope-*.jsonl) until at most keep remain and they take at most maxBytes in total.
// keep ≤ 0 or maxBytes ≤ 0 leaves that limit out. Files whose paths are in spare count
// towards the limits but are never deleted. It returns the paths it deleted.
func Prune(dir string, keep int, maxBytes int64, spare ...string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list recordings: %w", err)
	}
	type file struct {
		path  string
		size  int64
		mod   time.Time
		spare bool
	}
	var files []file
	for _, e := range ents {
		name := e.Name()
		if !e.Type().IsRegular() || !strings.HasPrefix(name, storePrefix) || !strings.HasSuffix(name, storeSuffix) {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		p := filepath.Join(dir, name)
		sp := false
		for _, s := range spare {
			sp = sp || filepath.Clean(s) == p
		}
		files = append(files, file{p, info.Size(), info.ModTime(), sp})
	}
	// Newest first; the spared files first of all, so they use the allowance before others.
	sort.SliceStable(files, func(a, b int) bool {
		if files[a].spare != files[b].spare {
			return files[a].spare
		}
		return files[a].mod.After(files[b].mod)
	})
	var removed []string
	var total int64
	n := 0
	for _, f := range files {
		over := (keep > 0 && n >= keep) || (maxBytes > 0 && total+f.size > maxBytes)
		if over && !f.spare {
			if err := os.Remove(f.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return removed, fmt.Errorf("remove old recording: %w", err)
			}
			removed = append(removed, f.path)
			continue
		}
		n++
		total += f.size
	}
	return removed, nil
}
