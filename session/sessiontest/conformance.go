package sessiontest

import (
	"os"
	"path/filepath"
	"testing"
)

// conformanceDir holds the pins of the official MCP conformance suite (package.json and
// package-lock.json), the adapter the suite runs as its client, and the expected failures.
const conformanceDir = "testdata/conformance"

// ConformanceVersions are the pinned lines of @modelcontextprotocol/conformance, by the
// alias each is installed under (testdata/conformance/package.json): the stable 0.1 line and
// the 0.2 alpha, which carries the 2026-07-28 scenarios.
var ConformanceVersions = []ConformanceVersion{
	{Alias: "conformance-stable", Version: "0.1.16"},
	{Alias: "conformance-alpha", Version: "0.2.0-alpha.12"},
}

// ConformanceVersion is one pinned version of the conformance suite.
type ConformanceVersion struct {
	Alias   string // the npm alias it is installed under
	Version string
}

// Conformance is an installed copy of the pinned conformance suites.
type Conformance struct {
	// Modules is the node_modules directory holding both suites.
	Modules string
	// Testdata is testdata/conformance in the source tree (adapter, shim, expected failures).
	Testdata string
}

// Suite returns the path of the suite's command (dist/index.js, run with node).
func (c Conformance) Suite(v ConformanceVersion) string {
	return filepath.Join(c.Modules, v.Alias, "dist", "index.js")
}

// InstallConformance installs the pinned conformance suites into the user cache directory
// (mcpscope-test/conformance-HASH, HASH naming the lock file's content) rather than the
// source tree, with npm ci under a file lock, and returns where they are. Without node or
// npm the test fails.
func InstallConformance(t testing.TB) Conformance {
	t.Helper()
	dir := pinnedInstallDir(t, conformanceDir, "conformance")
	c := Conformance{Modules: filepath.Join(dir, "node_modules"), Testdata: filepath.Join(ModuleRoot(t), conformanceDir)}
	npmCI(t, dir, c.Suite(ConformanceVersions[len(ConformanceVersions)-1]))
	for _, v := range ConformanceVersions {
		if _, err := os.Stat(c.Suite(v)); err != nil {
			t.Fatalf("sessiontest: conformance suite %s is not installed: %v", v.Version, err)
		}
	}
	return c
}
