package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// TestRootsDeclaredOnlyWhenGiven: the roots capability is declared when --root gives a root
// (and --no-roots is not set), never by default.
func TestRootsDeclaredOnlyWhenGiven(t *testing.T) {
	for _, tc := range []struct {
		name  string
		flags ServerFlags
		want  bool
	}{
		{"default", ServerFlags{}, false},
		{"--root", ServerFlags{Roots: []string{"/tmp"}}, true},
		{"--root --no-roots", ServerFlags{Roots: []string{"/tmp"}, NoRoots: true}, false},
		{"--no-roots", ServerFlags{NoRoots: true}, false},
	} {
		tc.flags.Protocol, tc.flags.Elicitation, tc.flags.ServerReqs, tc.flags.EventBuffer = "auto", "form,url", 1, "1MiB"
		cfg, err := tc.flags.sessionConfig()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if cfg.Caps.Roots != tc.want || cfg.Caps.RootsListChanged != tc.want {
			t.Errorf("%s: roots declared %v (listChanged %v), want %v", tc.name, cfg.Caps.Roots, cfg.Caps.RootsListChanged, tc.want)
		}
	}
}

// TestRootsDefaultKeepsServerDirectories runs the reference filesystem server started with a
// directory, with the session mcpscope makes from its default flags: the server is never
// asked for roots, says it uses the directories of its command line, and serves the
// directory. With --root naming another directory the server is offered that one instead.
func TestRootsDefaultKeepsServerDirectories(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the reference filesystem server (npm)")
	}
	node, index := sessiontest.NodePath(t), sessiontest.Filesystem(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "kept-by-the-server.txt"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	other := t.TempDir()

	start := func(f ServerFlags) (*session.Session, *sessiontest.Recorder) {
		f.Protocol, f.Elicitation, f.ServerReqs, f.EventBuffer, f.Timeout = "2025-11-25", "form,url", 4, "8MiB", 30*time.Second
		cfg, err := f.sessionConfig()
		if err != nil {
			t.Fatal(err)
		}
		sp, err := f.spec([]string{node, index, dir})
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Transport, err = sp.NewTransport(); err != nil {
			t.Fatal(err)
		}
		s := session.New(cfg)
		rec := sessiontest.Record(t, s)
		t.Cleanup(func() { s.Close() })
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		if err := s.Connect(ctx); err != nil {
			t.Fatalf("connect: %v\n%s", err, rec.Timeline())
		}
		return s, rec
	}
	stderr := func(text string) func(*session.Event) bool {
		return func(e *session.Event) bool { return e.Kind == session.EvStderr && strings.Contains(e.Text, text) }
	}
	call := func(s *session.Session, tool string, args map[string]any) string {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		resp, err := s.Call(ctx, "tools/call", map[string]any{"name": tool, "arguments": args})
		if err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
		var res struct {
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
			IsError bool `json:"isError"`
		}
		if err := json.Unmarshal(resp.Result, &res); err != nil || len(res.Content) == 0 {
			t.Fatalf("%s: %s", tool, resp.Result)
		}
		if res.IsError {
			t.Fatalf("%s failed: %s", tool, res.Content[0].Text)
		}
		return res.Content[0].Text
	}

	s, rec := start(ServerFlags{})
	rec.WaitFor(t, 30*time.Second, "the server's word that it uses its command line's directories",
		stderr("Client does not support MCP Roots, using allowed directories set from server args"))
	if got := call(s, "list_directory", map[string]any{"path": dir}); !strings.Contains(got, "kept-by-the-server.txt") {
		t.Errorf("list_directory %s: %q", dir, got)
	}
	if e := rec.Find(sessiontest.Received("roots/list")); e != nil {
		t.Errorf("the server asked for roots although none were declared:\n%s", rec.Timeline())
	}

	// With --root the user offers a directory on purpose: the server takes it instead.
	s, rec = start(ServerFlags{Roots: []string{other}})
	rec.WaitFor(t, 30*time.Second, "the server taking the root offered", stderr("Updated allowed directories from MCP roots: 1 valid"))
	if got := call(s, "list_allowed_directories", map[string]any{}); !strings.Contains(got, other) || strings.Contains(got, dir) {
		t.Errorf("with --root %s the allowed directories are %q", other, got)
	}
}
