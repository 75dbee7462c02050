package sessiontest

import "testing"

// filesystemDir holds the pins of the reference filesystem server, relative to the module
// root.
const filesystemDir = "testdata/filesystem"

// Filesystem makes sure @modelcontextprotocol/server-filesystem, as pinned in
// testdata/filesystem, is installed in the user cache directory (mcpscope-test/filesystem-HASH)
// and returns the path of its dist/index.js (run it with node, the allowed directories as
// its arguments). Without node or npm the test fails, as for Everything.
func Filesystem(t testing.TB) string {
	t.Helper()
	return pinnedServer(t, filesystemDir, "filesystem", "server-filesystem")
}
