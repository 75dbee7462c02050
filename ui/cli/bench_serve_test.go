package cli_test

import (
	"context"
	"os/exec"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/session/transport"
)

// BenchmarkServeCallTool is one agent's call_tool of the demo's echo through mcpscope serve
// over stdio, one at a time as an agent calls: the agent's round trip to serve, serve's to
// the demo, the recording and the timeline.
func BenchmarkServeCallTool(b *testing.B) {
	bin := sessiontest.BuildMCPScope(b)
	cmd := exec.Command(bin, "serve", "--record-dir", b.TempDir())
	cmd.Env = append(cmd.Environ(), "XDG_STATE_HOME="+b.TempDir())
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "connect", Arguments: map[string]any{"command": []string{bin, "demo"}, "protocol": "2025-11-25"}})
	if err != nil || res.IsError {
		b.Fatalf("connect: %v %+v", err, res)
	}
	args := map[string]any{"session": "s1", "name": "echo", "arguments": map[string]any{"text": "hello from the benchmark"}}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "call_tool", Arguments: args})
		if err != nil || res.IsError {
			b.Fatalf("call_tool: %v %+v", err, res)
		}
	}
}

// BenchmarkServeCallToolDirect is the floor of BenchmarkServeCallTool: the same calls, one at
// a time, through a Session on the demo, without serve.
func BenchmarkServeCallToolDirect(b *testing.B) {
	bin := sessiontest.BuildMCPScope(b)
	s := session.New(session.Config{Transport: transport.NewStdio(transport.StdioOptions{Command: bin, Args: []string{"demo"}}), Protocol: "2025-11-25"})
	ctx := context.Background()
	if err := s.Connect(ctx); err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	params := []byte(`{"name":"echo","arguments":{"text":"hello from the benchmark"}}`)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.Call(ctx, "tools/call", params); err != nil {
			b.Fatal(err)
		}
	}
}
