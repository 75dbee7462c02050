package sessiontest

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
)

var (
	rootOnce sync.Once
	rootDir  string
	rootErr  string
)

// ModuleRoot returns the directory holding go.mod, found by walking up from the working
// directory (a test runs in its package's directory).
func ModuleRoot(t testing.TB) string {
	t.Helper()
	rootOnce.Do(func() {
		dir, err := os.Getwd()
		if err != nil {
			rootErr = "working directory: " + err.Error()
			return
		}
		for {
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
				rootDir = dir
				return
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				rootErr = "no go.mod above the working directory"
				return
			}
			dir = parent
		}
	})
	if rootErr != "" {
		t.Fatalf("sessiontest: find the module root: %s", rootErr)
	}
	return rootDir
}
