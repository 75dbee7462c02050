package ui_test

import (
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// TestTmuxServeJourney: a coding agent drives mcpscope serve (a go-sdk client over stdio),
// calls the demo's failing tool and reads the failing frame; then the user opens the same
// session with mcpscope open and finds the failing response and its text.
func TestTmuxServeJourney(t *testing.T) {
	bin := sessiontest.BuildMCPScope(t)
	cmd := exec.Command(bin, "serve", "--record-dir", t.TempDir())
	cmd.Env = append(cmd.Environ(), "XDG_STATE_HOME="+t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	call := func(name string, args map[string]any, out any) {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %+v", name, err, res)
		}
		b, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatal(err)
		}
	}
	var conn struct{ Session, Recording string }
	call("connect", map[string]any{"command": []string{bin, "demo"}}, &conn)
	var answer struct {
		Exchange struct {
			ResponseSeq uint64 `json:"response_seq"`
			ToolError   bool   `json:"tool_error"`
		}
	}
	call("call_tool", map[string]any{"session": conn.Session, "name": "fail", "arguments": map[string]any{}}, &answer)
	var frame struct{ Bytes string }
	call("frame", map[string]any{"session": conn.Session, "seq": answer.Exchange.ResponseSeq}, &frame)
	if !answer.Exchange.ToolError || !strings.Contains(frame.Bytes, "failed on purpose") {
		t.Fatalf("the failing call: %+v, frame %s", answer, frame.Bytes)
	}
	var bye struct{ Recording string }
	call("disconnect", map[string]any{"session": conn.Session}, &bye)

	tm := startTerm(t, 80, 24, "open", bye.Recording)
	tm.waitFor("the agent's call in the recording", func(s string) bool { return bodyContains(s, "tools/call fail") })
	tm.filter("has:error")
	tm.waitFor("only the failing response", func(s string) bool {
		return allRows(s, func(l string) bool { return strings.Contains(l, "tools/call") && strings.Contains(l, "tool error") })
	})
	tm.keys("g")
	tm.keys("Enter")
	tm.waitFor("the failing response's text", func(s string) bool { return bodyContains(s, "The demo tool failed on purpose") })
	tm.quit()
}
