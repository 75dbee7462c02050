package sessiontest

import (
	"crypto/sha256"
	"encoding/hex"
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
	src := filepath.Join(ModuleRoot(t), conformanceDir)
	lock, err := os.ReadFile(filepath.Join(src, "package-lock.json"))
	if err != nil {
		t.Fatalf("sessiontest: read the conformance suite's pins: %v", err)
	}
	manifest, err := os.ReadFile(filepath.Join(src, "package.json"))
	if err != nil {
		t.Fatalf("sessiontest: read the conformance suite's pins: %v", err)
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Fatalf("sessiontest: user cache directory: %v", err)
	}
	sum := sha256.Sum256(append(append([]byte{}, manifest...), lock...))
	dir := filepath.Join(cache, "mcpscope-test", "conformance-"+hex.EncodeToString(sum[:6]))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatalf("sessiontest: %v", err)
	}
	// The copies are written only when they differ, so npm ci's staleness check (the lock
	// file's time against the install's) stays meaningful.
	for name, data := range map[string][]byte{"package.json": manifest, "package-lock.json": lock} {
		path := filepath.Join(dir, name)
		if old, err := os.ReadFile(path); err == nil && string(old) == string(data) {
			continue
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatalf("sessiontest: %v", err)
		}
	}
	c := Conformance{Modules: filepath.Join(dir, "node_modules"), Testdata: src}
	npmCI(t, dir, c.Suite(ConformanceVersions[len(ConformanceVersions)-1]))
	for _, v := range ConformanceVersions {
		if _, err := os.Stat(c.Suite(v)); err != nil {
			t.Fatalf("sessiontest: conformance suite %s is not installed: %v", v.Version, err)
		}
	}
	return c
}
