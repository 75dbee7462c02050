package sessiontest

import (
	"path/filepath"
	"testing"
)

// InspectorVersion is the pinned version of @modelcontextprotocol/inspector, the official
// MCP Inspector, whose CLI (--cli) the one-shot benchmarks compare mcpscope with
// (testdata/inspector/package.json).
const InspectorVersion = "2.12.0"

// Inspector makes sure the official Inspector, as pinned in testdata/inspector, is
// installed in the user cache directory (mcpscope-test/inspector-HASH) and returns the path
// of its command (run it with node: node PATH --cli URL --transport http --method tools/list).
func Inspector(t testing.TB) string {
	t.Helper()
	dir := pinnedInstallDir(t, "testdata/inspector", "inspector")
	bin := filepath.Join(dir, "node_modules", "@modelcontextprotocol", "inspector", "clients", "launcher", "build", "index.js")
	npmCI(t, dir, bin)
	return bin
}
