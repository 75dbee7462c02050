package ui_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// hostHome lays out a home directory as the hosts leave it: Cursor's ~/.cursor/mcp.json
// naming the reference server (over stdio), VS Code's user mcp.json naming the demo. It
// returns the environment that makes mcpscope look there.
func hostHome(t *testing.T) []string {
	t.Helper()
	root := t.TempDir()
	home, config := filepath.Join(root, "home"), filepath.Join(root, "config")
	write := func(path string, v any) {
		t.Helper()
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	type server struct {
		Type    string   `json:"type,omitempty"`
		Command string   `json:"command"`
		Args    []string `json:"args"`
	}
	write(filepath.Join(home, ".cursor", "mcp.json"), map[string]any{"mcpServers": map[string]server{
		"everything": {Command: sessiontest.NodePath(t), Args: []string{sessiontest.Everything(t)}}}})
	write(filepath.Join(config, "Code", "User", "mcp.json"), map[string]any{"servers": map[string]server{
		"second-demo": {Type: "stdio", Command: sessiontest.BuildMCPScope(t), Args: []string{"demo"}}}})
	return []string{"HOME=" + home, "XDG_CONFIG_HOME=" + config}
}

// TestTmuxServerPicker: mcpscope on the demo finds the servers of Cursor's and VS Code's
// config files in a home laid out as they leave it, switches to the reference server and
// back to the demo from the picker, disconnects and connects again; the timeline keeps a
// marker row per switch; at 80×24 and at 160×45.
func TestTmuxServerPicker(t *testing.T) {
	t.Parallel()
	env := hostHome(t)
	for _, size := range [][2]int{{80, 24}, {160, 45}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			tm := startTermEnv(t, env, size[0], size[1], "--no-record")
			tm.waitFor(`status "ready" on the demo`, func(s string) bool {
				return ready(s) && strings.Contains(statusLine(s), "mcpscope-demo") && listsAnswered(s)
			})
			tm.keys("5")
			tm.waitFor("the picker: the command line's demo connected, Cursor's and VS Code's servers, where it looked", func(s string) bool {
				return bodyHas(s, "● demo", "command line") && bodyHas(s, "everything", "Cursor") &&
					bodyHas(s, "second-demo", "VS Code") && bodyContains(s, "Looked in") && bodyHas(s, "✓", ".cursor/mcp.json")
			})
			tm.keys("j", "Enter")
			tm.waitFor("the reference server ready", func(s string) bool {
				return ready(s) && strings.Contains(statusLine(s), "everything") && listsAnswered(s)
			})
			tm.filter("switch to everything")
			tm.waitFor("the switch's marker row", func(s string) bool { return bodyContains(s, "switch to everything (Cursor)") })
			tm.clearFilter()

			tm.keys("6")
			tm.waitFor("the stats page of the reference server", func(s string) bool {
				return bodyContains(s, "everything · since") && bodyHas(s, "tools/list", "0") && bodyContains(s, "all methods")
			})

			tm.keys("5")
			tm.waitFor("the picker marking the reference server", func(s string) bool { return bodyHas(s, "● everything") })
			tm.keys("d")
			tm.waitFor("disconnected", func(s string) bool {
				return strings.Contains(statusLine(s), "closed") && bodyContains(s, "disconnected from everything")
			})
			tm.keys("Enter")
			tm.waitFor("connected again, on the timeline", func(s string) bool {
				return ready(s) && strings.Contains(statusLine(s), "everything") && listsAnswered(s)
			})
			tm.filter("connect to everything")
			tm.waitFor("the marker of connecting again", func(s string) bool { return bodyContains(s, "connect to everything (Cursor)") })
			tm.clearFilter()
			tm.keys("5")
			tm.waitFor("the picker marking the reference server connected", func(s string) bool {
				return bodyContains(s, "connected to everything") && bodyHas(s, "● everything")
			})
			tm.keys("k", "Enter")
			tm.waitFor("the demo ready again", func(s string) bool {
				return ready(s) && strings.Contains(statusLine(s), "mcpscope-demo")
			})
			tm.filter("switch to demo")
			tm.waitFor("the marker of the switch back", func(s string) bool { return bodyContains(s, "switch to demo (command line)") })
			tm.clearFilter()
			tm.waitFor("the demo's rows", func(s string) bool { return bodyContains(s, "/list") })
			if s := intact(tm.last, size[0], size[1]); s != "" {
				t.Errorf("screen not intact: %s", s)
			}
			tm.quit()
		})
	}
}

// TestTmuxPickerNoConfig: with no host config file anywhere, the picker says so and where
// it looked.
func TestTmuxPickerNoConfig(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	tm := startTermEnv(t, []string{"HOME=" + filepath.Join(root, "home"), "XDG_CONFIG_HOME=" + filepath.Join(root, "config")}, 80, 24, "--no-record")
	tm.waitFor(`status "ready" on the demo`, ready)
	tm.keys("5")
	tm.waitFor("no configuration found, and the places looked in", func(s string) bool {
		return bodyContains(s, "No MCP server configuration found") && bodyHas(s, "Claude Desktop", "claude_desktop_config.json") &&
			bodyHas(s, "Cursor", "~/.cursor/mcp.json") && bodyHas(s, "Claude Code", "~/.claude.json")
	})
	tm.quit()
}

// TestTmuxPickerConfigFile: --config FILE with several servers and no --server opens the
// picker connected to none; enter connects to the demo, then the reference server.
func TestTmuxPickerConfigFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "mcp.json")
	cfg := map[string]any{"mcpServers": map[string]any{
		"demo":       map[string]any{"command": sessiontest.BuildMCPScope(t), "args": []string{"demo"}},
		"everything": map[string]any{"command": sessiontest.NodePath(t), "args": []string{sessiontest.Everything(t)}},
	}}
	b, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	tm := startTerm(t, 80, 24, "--no-record", "--config", path)
	tm.waitFor("the picker, connected to none", func(s string) bool {
		return strings.Contains(statusLine(s), "not connected") && bodyHas(s, "2 servers", "not connected") &&
			bodyHas(s, "demo", "--config") && bodyHas(s, "everything", "--config")
	})
	tm.keys("Enter")
	tm.waitFor("the demo ready", func(s string) bool {
		return ready(s) && strings.Contains(statusLine(s), "mcpscope-demo") && listsAnswered(s)
	})
	tm.keys("5", "j", "Enter")
	tm.waitFor("the reference server ready", func(s string) bool {
		return ready(s) && strings.Contains(statusLine(s), "everything") && listsAnswered(s)
	})
	tm.quit()
}
