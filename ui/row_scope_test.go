package ui

import (
	"testing"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session/transport"
)

// TestHTTPLineSaysScopesNotGranted: the token step's row names the scopes the token lacks.
func TestHTTPLineSaysScopesNotGranted(t *testing.T) {
	h := &transport.HTTPExchange{Step: "token", Method: "POST", URL: "http://127.0.0.1:1/token", Status: 200,
		Problems: []transport.AuthProblem{{Code: protocol.FindAuthScopeNotGranted, Text: "not granted: demo:admin"}}}
	want := "[token] POST /token → 200 · not granted: demo:admin"
	if got := httpLine(h); got != want {
		t.Fatalf("httpLine = %q, want %q", got, want)
	}
}
