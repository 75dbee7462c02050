package sessiontest

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"
)

// CacheDir returns (and creates) mcpscope-test/name under the user cache directory: the one
// place outside t.TempDir() where tests write, for installs and state worth keeping between
// runs. Nothing is written into the source tree.
func CacheDir(t testing.TB, name string) string {
	t.Helper()
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Fatalf("sessiontest: user cache directory: %v", err)
	}
	dir := filepath.Join(cache, "mcpscope-test", name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatalf("sessiontest: %v", err)
	}
	return dir
}

// pinnedInstallDir copies the npm pins of src (package.json and package-lock.json, a
// directory relative to the module root) into the cache directory name-HASH, HASH naming the
// pins' content, and returns it, for npmCI to install into.
func pinnedInstallDir(t testing.TB, src, name string) string {
	t.Helper()
	src = filepath.Join(ModuleRoot(t), src)
	manifest, err := os.ReadFile(filepath.Join(src, "package.json"))
	if err != nil {
		t.Fatalf("sessiontest: read the pins of %s: %v", name, err)
	}
	lock, err := os.ReadFile(filepath.Join(src, "package-lock.json"))
	if err != nil {
		t.Fatalf("sessiontest: read the pins of %s: %v", name, err)
	}
	sum := sha256.Sum256(append(append([]byte{}, manifest...), lock...))
	dir := CacheDir(t, name+"-"+hex.EncodeToString(sum[:6]))
	// The copies are written only when they differ, so npm ci's staleness check (the lock
	// file's time against the install's) stays meaningful.
	for file, data := range map[string][]byte{"package.json": manifest, "package-lock.json": lock} {
		path := filepath.Join(dir, file)
		if old, err := os.ReadFile(path); err == nil && string(old) == string(data) {
			continue
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatalf("sessiontest: %v", err)
		}
	}
	return dir
}
