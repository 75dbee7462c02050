package sse_test

import (
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// TestFuzzParserBriefly runs FuzzParser with the fuzzing engine for a few seconds.
func TestFuzzParserBriefly(t *testing.T) {
	sessiontest.FuzzBriefly(t, "FuzzParser", 5*time.Second)
}
