package ui

import (
	"os"
	"testing"

	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// TestMain keeps the tests' tokens out of the user's keyring and removes the programs the
// tests built.
func TestMain(m *testing.M) {
	// Tokens the tests obtain go to the file store under each test's XDG_STATE_HOME,
	// never to the user's keyring (a --token-store flag still wins).
	os.Setenv("MCPSCOPE_TOKEN_STORE", "file")
	code := m.Run()
	sessiontest.Cleanup()
	os.Exit(code)
}
