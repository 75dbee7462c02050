// Package sessiontest holds helpers for tests that talk to real MCP servers: it builds the
// mcpscope binary and the misbehaving test server once per test binary, installs and starts
// the reference server (@modelcontextprotocol/server-everything, pinned in
// testdata/everything) and the reference filesystem server (@modelcontextprotocol/server-filesystem,
// pinned in testdata/filesystem), serves the built-in demo server over HTTP, records a session's
// events, and checks every frame mcpscope sends against the official JSON Schema of the
// negotiated protocol revision.
//
// It is an ordinary package (not a _test file) so that the tests of several packages can
// share it; nothing outside tests imports it. A helper that cannot provide what a test needs
// (no Go toolchain, no node or npm, no schema files) fails the test with a message that says
// what is missing: it never skips, because a skipped end-to-end test would pass for coverage
// it does not give.
//
// Test binaries that build programs should call Cleanup from TestMain after m.Run, so the
// temporary build directory is removed when the binary exits:
//
//	func TestMain(m *testing.M) {
//		code := m.Run()
//		sessiontest.Cleanup()
//		os.Exit(code)
//	}
package sessiontest
