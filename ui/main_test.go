package ui

import (
	"os"
	"testing"

	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// TestMain removes the programs the tests built.
func TestMain(m *testing.M) {
	code := m.Run()
	sessiontest.Cleanup()
	os.Exit(code)
}
