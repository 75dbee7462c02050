package cli

import (
	"os"
	"path/filepath"
	"testing"
)

// TestArtifactURI: a config file under the working directory is named relative to it, as
// code scanning wants; anything else by the server's name, made a safe path.
func TestArtifactURI(t *testing.T) {
	cwd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ source, name, want string }{
		{filepath.Join(cwd, ".vscode", "mcp.json"), "files", ".vscode/mcp.json"},
		{"/elsewhere/mcp.json", "files", "mcp-server/files"},
		{"", "my server/\x1b[2J", "mcp-server/my_server___2J"},
		{"", "..", "mcp-server/server"},
	} {
		if got := artifactURI(tc.source, tc.name); got != tc.want {
			t.Errorf("artifactURI(%q, %q) = %q, want %q", tc.source, tc.name, got, tc.want)
		}
	}
	if fingerprint("a", "c", "/tools/0", "m1") != fingerprint("a", "c", "/tools/0", "m2") ||
		fingerprint("a", "c", "", "m1") == fingerprint("a", "c", "", "m2") {
		t.Error("fingerprints: a content finding keeps its fingerprint when its message changes; others differ by message")
	}
}
