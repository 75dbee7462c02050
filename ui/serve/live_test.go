package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/session/transport"
)

func TestMain(m *testing.M) {
	code := m.Run()
	sessiontest.Cleanup()
	os.Exit(code)
}

// stdioOpener opens a stdio session on the target's command, its -e values secret.
func stdioOpener(t Target) (*Opened, error) {
	tr := transport.NewStdio(transport.StdioOptions{Command: t.Command[0], Args: t.Command[1:], Env: t.Env})
	s := session.New(session.Config{Transport: tr, Protocol: "2025-11-25", Caps: session.DefaultCaps(), Responder: &session.Headless{}})
	var secrets []string
	for _, kv := range t.Env {
		_, v, _ := strings.Cut(kv, "=")
		secrets = append(secrets, v)
	}
	return &Opened{Session: s, Header: recordings.Header{Server: strings.Join(t.Command, " "), Transport: "stdio", Protocol: "2025-11-25"},
		Masking: recordings.Options{Secrets: secrets}}, nil
}

// inMemory is a go-sdk client on s, in this process.
func inMemory(t *testing.T, s *Server) *mcp.ClientSession {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := s.MCP().Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func callInto(t *testing.T, cs *mcp.ClientSession, name string, args any, out any) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if res.IsError {
		t.Fatalf("%s: %s", name, res.Content[0].(*mcp.TextContent).Text)
	}
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// TestConcurrentAgents: calls, timelines and frames at once on one session, in this process
// (run with -race); every call's frames are in the timeline and the recording.
func TestConcurrentAgents(t *testing.T) {
	bin := sessiontest.BuildMCPScope(t)
	s := New(Options{Open: stdioOpener, RecordDir: t.TempDir()})
	defer s.Close()
	cs := inMemory(t, s)
	var c Connected
	callInto(t, cs, "connect", map[string]any{"command": []string{bin, "demo"}, "env": []string{"DEMO_KEY=k3y-value-abc123"}}, &c)

	const calls = 12
	var wg sync.WaitGroup
	seqs := make([]uint64, calls)
	for i := range calls {
		wg.Add(2)
		go func() {
			defer wg.Done()
			var a Answer
			callInto(t, cs, "call_tool", map[string]any{"session": c.Session, "name": "echo",
				"arguments": map[string]any{"text": fmt.Sprintf("call %d k3y-value-abc123", i)}}, &a)
			if strings.Contains(string(a.Result), "k3y-value-abc123") {
				t.Errorf("result holds the secret: %s", a.Result)
			}
			seqs[i] = a.Exchange.ResponseSeq
			var f Frame
			callInto(t, cs, "frame", map[string]any{"session": c.Session, "seq": a.Exchange.ResponseSeq}, &f)
			if !strings.Contains(f.Bytes, fmt.Sprintf("call %d ****", i)) {
				t.Errorf("frame %d: %s", f.Seq, f.Bytes)
			}
		}()
		go func() {
			defer wg.Done()
			var tl Timeline
			callInto(t, cs, "timeline", map[string]any{"session": c.Session, "query": "dir:in", "limit": 5}, &tl)
		}()
	}
	wg.Wait()
	var tl Timeline
	callInto(t, cs, "timeline", map[string]any{"session": c.Session, "query": "tool:echo", "limit": 500}, &tl)
	in := map[uint64]bool{}
	for _, ev := range tl.Events {
		in[ev.Seq] = true
	}
	for i, seq := range seqs {
		if !in[seq] {
			t.Errorf("call %d's response %d is not in timeline tool:echo", i, seq)
		}
	}
	var bye Disconnected
	callInto(t, cs, "disconnect", map[string]any{"session": c.Session}, &bye)
	rd, err := recordings.Open(bye.Recording)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	if evs, problems := rd.Events(); len(problems) > 0 || len(evs) < 2*calls {
		t.Errorf("recording: %d events, problems %v", len(evs), problems)
	}
}
