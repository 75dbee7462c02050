package protocol_test

import (
	"testing"

	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// TestFuzzDecodeBriefly runs FuzzDecode with the fuzzing engine for 30,000 inputs (a few seconds).
func TestFuzzDecodeBriefly(t *testing.T) {
	sessiontest.FuzzBriefly(t, "FuzzDecode", 30000)
}
