package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestTopLevel: the top of the repository holds what ARCHITECTURE.md says it does (the
// module, the rooms, the documents, .ci and testdata) and the root package's own files; a
// stray build output or a new room fails here.
func TestTopLevel(t *testing.T) {
	allowed := map[string]bool{"go.mod": true, "go.sum": true, "main.go": true, "README.md": true,
		"ARCHITECTURE.md": true, "SECURITY.md": true, "LICENSE": true, ".gitignore": true,
		"protocol": true, "session": true, "recordings": true, "ui": true, ".ci": true, "testdata": true}
	for _, f := range trackedFiles(t) {
		top := strings.Split(filepath.ToSlash(f), "/")[0]
		if allowed[top] || !strings.Contains(f, "/") && strings.HasSuffix(f, "_test.go") {
			continue
		}
		t.Errorf("%s: the top level holds only the module, its rooms, the documents, .ci and testdata", f)
	}
}
