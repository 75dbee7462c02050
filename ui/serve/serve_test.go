package serve

import (
	"context"
	"encoding/json"
	"regexp"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// TestToolsDesignedForAModel: every tool has a short snake_case name, a description, an
// output schema, annotations that say whether it reads only or reaches the world, and the
// tools/list result fits the MCP schema.
func TestToolsDesignedForAModel(t *testing.T) {
	s := New(Options{Open: func(Target) (*Opened, error) { t.Fatal("no connect in this test"); return nil, nil }})
	defer s.Close()
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := s.MCP().Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if cs.InitializeResult().Instructions == "" {
		t.Error("no instructions")
	}
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(res)
	if err := sessiontest.Schemas(t).CheckResult(cs.InitializeResult().ProtocolVersion, "ListToolsResult", raw); err != nil {
		t.Error(err)
	}
	name := regexp.MustCompile(`^[a-z][a-z_]{2,15}$`)
	readOnly := map[string]bool{"sessions": true, "timeline": true, "frame": true, "diff": true, "recording": true, "pending": true, "await_call": true, "log_tail": true, "skills": true, "await_auth": true,
		"events_list": true, "events_poll": true, "events_stream": true}
	want := map[string]bool{}
	for _, n := range []string{"connect", "sessions", "disconnect", "list", "call_tool", "read_resource", "get_prompt",
		"complete", "send_raw", "timeline", "frame", "check", "pin", "diff", "recording", "pending", "answer", "await_call", "tasks", "roots", "log_level", "log_tail", "subscribe", "skills", "await_auth",
		"events_list", "events_poll", "events_stream"} {
		want[n] = true
	}
	for _, tl := range res.Tools {
		delete(want, tl.Name)
		if !name.MatchString(tl.Name) || tl.Description == "" || tl.OutputSchema == nil || tl.Annotations == nil {
			t.Errorf("tool %s: name, description, outputSchema or annotations missing", tl.Name)
			continue
		}
		if tl.Annotations.ReadOnlyHint != readOnly[tl.Name] {
			t.Errorf("tool %s: readOnlyHint %v", tl.Name, tl.Annotations.ReadOnlyHint)
		}
		if tl.Annotations.DestructiveHint == nil || tl.Annotations.OpenWorldHint == nil {
			t.Errorf("tool %s: destructiveHint and openWorldHint are left to their defaults", tl.Name)
		}
	}
	for n := range want {
		t.Errorf("no tool %s", n)
	}
	// A tool on no session says what to do.
	r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "timeline", Arguments: map[string]any{"session": "s9"}})
	if err != nil || !r.IsError || len(r.Content) == 0 || r.Content[0].(*mcp.TextContent).Text != `no session "s9": no session is open; call connect first` {
		t.Errorf("timeline on no session: %v %+v", err, r)
	}
}

func TestCutUTF8(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want string
	}{{"abc", 5, "abc"}, {"abc", 2, "ab"}, {"aé", 2, "a"}, {"aé", 3, "aé"}, {"€", 2, ""}} {
		if got := cutUTF8(c.s, c.n); got != c.want {
			t.Errorf("cutUTF8(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
		}
	}
}

func TestOpenCommand(t *testing.T) {
	if got := openCommand("/tmp/a.jsonl"); got != "mcpscope open /tmp/a.jsonl" {
		t.Error(got)
	}
	if got := openCommand("/tmp/it's here.jsonl"); got != `mcpscope open '/tmp/it'\''s here.jsonl'` {
		t.Error(got)
	}
}
