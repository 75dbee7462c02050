package sessiontest

import "testing"

// basicAppDir holds the pins of the MCP Apps example server, relative to the module root.
const basicAppDir = "testdata/basicapp"

// BasicApp makes sure @modelcontextprotocol/server-basic-vanillajs, as pinned in
// testdata/basicapp (an MCP Apps example: one tool, get-time, with an app), is installed
// in the user cache directory and returns the path of its dist/index.js; run it with
// node and --stdio. Without node or npm the test fails.
func BasicApp(t testing.TB) string {
	t.Helper()
	return pinnedServer(t, basicAppDir, "basicapp", "server-basic-vanillajs")
}
