// Package conformance_test runs the official MCP conformance suite (client mode, pinned
// versions) against the built mcpscope. It is a package of its own so that the suite's
// scenarios, which run node processes two at a time, do not share the command tests'
// package time.
package conformance_test

import (
	"os"
	"testing"

	"github.com/mcpscope/mcpscope/session/sessiontest"
)

func TestMain(m *testing.M) {
	// Tokens the scenarios obtain go to the file store under each run's XDG_STATE_HOME,
	// never to the user's keyring.
	os.Setenv("MCPSCOPE_TOKEN_STORE", "file")
	code := m.Run()
	sessiontest.Cleanup()
	os.Exit(code)
}
