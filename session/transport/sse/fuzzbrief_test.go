package sse_test

import (
	"testing"

	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// TestFuzzParserBriefly runs FuzzParser with the fuzzing engine for 30,000 inputs (a few seconds).
func TestFuzzParserBriefly(t *testing.T) {
	sessiontest.FuzzBriefly(t, "FuzzParser", 30000)
}
