package fault_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/fault"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/session/transport"
)

// TestHeldEditSentAnywayDemo: against the demo server over stdio, a held call edited into
// indented text that is not JSON and sent anyway reaches the server as one frame: it
// answers one parse error and goes on serving (sent line by line, it would be a parse
// error per line).
func TestHeldEditSentAnywayDemo(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the demo server")
	}
	bin := sessiontest.BuildMCPScope(t)
	bps := fault.NewBreakpoints()
	s := session.New(session.Config{Protocol: "auto", Caps: session.DefaultCaps(), Responder: &session.Headless{},
		Transport: fault.WrapBreaking(transport.NewStdio(transport.StdioOptions{Command: bin, Args: []string{"demo"}}), nil, bps)})
	rec := sessiontest.Record(t, s)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := s.Connect(ctx); err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer s.Close()
	bps.Add("tool:=echo dir:out")
	done := make(chan error, 1)
	go func() {
		_, err := s.Call(ctx, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"text": "hi"}}, session.WithTimeout(3*time.Second))
		done <- err
	}()
	var held []fault.Held
	for deadline := time.Now().Add(20 * time.Second); len(held) == 0 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
		held = bps.Held()
	}
	if len(held) != 1 {
		t.Fatalf("held %d", len(held))
	}
	pretty := "{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 99,\n  \"method\": \"tools/call\",\n  \"params\": {\n    \"name\": \"echo\"\n  }\n}xx"
	if err := bps.Decide(held[0].ID, fault.Decision{Verb: fault.Forward, Raw: []byte(pretty)}); err != nil {
		t.Fatal(err)
	}
	<-done // the held call gets no answer of its own: it times out
	bps.Remove(bps.List()[0].ID)
	resp, err := s.Call(ctx, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"text": "still here"}})
	if err != nil || !strings.Contains(string(resp.Result), "still here") {
		t.Fatalf("the server after the edit: %v\n%s", err, rec.Timeline())
	}
	parseErrors := strings.Count(rec.Timeline(), "-32700")
	if parseErrors != 1 {
		t.Errorf("%d parse errors, want 1 (one frame):\n%s", parseErrors, rec.Timeline())
	}
}
