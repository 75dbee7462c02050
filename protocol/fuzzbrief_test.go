package protocol_test

import (
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// TestFuzzDecodeBriefly runs FuzzDecode with the fuzzing engine for a few seconds.
func TestFuzzDecodeBriefly(t *testing.T) {
	sessiontest.FuzzBriefly(t, "FuzzDecode", 5*time.Second)
}
