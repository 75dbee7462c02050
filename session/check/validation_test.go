package check_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/check"
	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// TestInvalidArguments: the arguments check sends to test input validation fail the
// schema: a typed property (a required one first) given another type, else a required one
// left out; a header-mirrored property is never the one; a schema with no handle gives none.
func TestInvalidArguments(t *testing.T) {
	for _, tc := range []struct {
		schema, args, what string
		ok                 bool
	}{
		{`{"type":"object","properties":{"a":{"type":"string"},"n":{"type":"integer"}},"required":["n"]}`,
			`{"n":"not a number"}`, `"n": a string where it wants an integer`, true},
		{`{"type":"object","properties":{"q":{"type":"string","x-mcp-header":"Q"},"k":{"enum":[1,2]}},"required":["q","k"]}`,
			`{"k":1}`, `required "q" left out`, true},
		{`{"type":"object","properties":{"v":{}}}`, ``, ``, false},
		{`{"type":"object"}`, ``, ``, false},
	} {
		args, what, ok := check.InvalidArguments(json.RawMessage(tc.schema))
		if ok != tc.ok || what != tc.what || (ok && string(args) != tc.args) {
			t.Errorf("%s: %s, %q, %v; want %s, %q, %v", tc.schema, args, what, ok, tc.args, tc.what, tc.ok)
		}
	}
}

// TestCheckInputValidation: from 2025-11-25 a server that answers arguments failing a
// tool's inputSchema with a JSON-RPC error (badserver -strict-tool) gets a warning; one
// negotiating 2025-06-18, when that was allowed, is not asked.
func TestCheckInputValidation(t *testing.T) {
	bad := sessiontest.BuildBadServer(t)
	sp := session.ServerSpec{Command: []string{bad, "-strict-tool"}}
	rep := runCheck(t, sp, check.Options{Slow: patient})
	codes, text := findings(rep, protocol.SevWarning)
	if !slices.Contains(codes, protocol.FindInputValidation) || !strings.Contains(text, `tool "strict" answered arguments that fail its inputSchema`) {
		t.Errorf("no %s finding at %s; findings:%s", protocol.FindInputValidation, rep.Runs[0].Revision, text)
	}
	for _, it := range rep.Runs[0].Items {
		if it.Code == protocol.FindInputValidation && (len(it.Frames) == 0 || it.Spec.Section != "Error Handling") {
			t.Errorf("the finding lacks its frame or spec section: %+v", it)
		}
	}
	rep = runCheck(t, sp, check.Options{Slow: patient, Protocol: "2025-06-18", CallWait: time.Second})
	if rev := rep.Runs[0].Revision; rev != protocol.Rev20250618 {
		t.Fatalf("negotiated %s, want 2025-06-18", rev)
	}
	if codes, text := findings(rep, protocol.SevInfo); slices.Contains(codes, protocol.FindInputValidation) {
		t.Errorf("a 2025-06-18 server was held to 2025-11-25's rule:%s", text)
	}
}
