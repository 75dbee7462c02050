package cli_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/ui/cli"
)

func TestMain(m *testing.M) {
	// Tokens the tests obtain go to the file store under each test's XDG_STATE_HOME,
	// never to the user's keyring (a --token-store flag still wins).
	os.Setenv("MCPSCOPE_TOKEN_STORE", "file")
	code := m.Run()
	sessiontest.Cleanup()
	os.Exit(code)
}

// run runs the built mcpscope binary the way a user would and returns its stdout, stderr
// and exit code.
func run(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return runCmd(t, 90*time.Second, "did not finish within 90s", nil, args...)
}

// runCmd runs the built mcpscope with args under a deadline, prepare setting up the
// command first (its environment, its stdin), and returns its stdout, stderr and exit
// code. A command still running at the deadline fails the test with late, unless late is
// empty.
func runCmd(t *testing.T, deadline time.Duration, late string, prepare func(*exec.Cmd), args ...string) (stdout, stderr string, code int) {
	t.Helper()
	bin := sessiontest.BuildMCPScope(t)
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	if prepare != nil {
		prepare(cmd)
	}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		code = exit.ExitCode()
	default:
		t.Fatalf("mcpscope %s: %v", strings.Join(args, " "), err)
	}
	if late != "" && ctx.Err() != nil {
		t.Fatalf("mcpscope %s %s; stderr:\n%s", strings.Join(args, " "), late, errOut.String())
	}
	return out.String(), errOut.String(), code
}

// runOK runs mcpscope and fails unless it exits 0.
func runOK(t *testing.T, args ...string) string {
	t.Helper()
	stdout, stderr, code := run(t, args...)
	if code != cli.ExitOK {
		t.Fatalf("mcpscope %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, stdout, stderr)
	}
	return stdout
}

// toolNames parses `list tools` output.
func toolNames(t *testing.T, stdout string) []string {
	t.Helper()
	var tools []struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal([]byte(stdout), &tools); err != nil {
		t.Fatalf("list tools did not print a JSON array: %v\n%s", err, stdout)
	}
	var names []string
	for _, tl := range tools {
		names = append(names, tl.Name)
	}
	return names
}

// TestListToolsEverything lists the reference server's tools over each transport.
func TestListToolsEverything(t *testing.T) {
	t.Parallel()
	node, index := sessiontest.NodePath(t), sessiontest.Everything(t)
	streamable := sessiontest.StartEverythingHTTP(t, "streamableHttp")
	sse := sessiontest.StartEverythingHTTP(t, "sse")
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"stdio", []string{"list", "tools", "--", node, index, "stdio"}},
		{"streamable", []string{"--url", streamable + "/mcp", "list", "tools"}},
		{"sse fallback", []string{"--url", sse + "/sse", "list", "tools"}},
		{"sse", []string{"--url", sse + "/sse", "--transport", "sse", "list", "tools"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			names := toolNames(t, runOK(t, tc.args...))
			if !slices.Contains(names, "echo") || !slices.Contains(names, "get-sum") {
				t.Errorf("tools: %q", names)
			}
		})
	}
}

// TestCallGetSum calls a tool with typed key=value arguments.
func TestCallGetSum(t *testing.T) {
	node, index := sessiontest.NodePath(t), sessiontest.Everything(t)
	stdout := runOK(t, "call", "get-sum", "a=1", "b=2", "--", node, index, "stdio")
	var res struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil || len(res.Content) == 0 || !strings.Contains(res.Content[0].Text, "3") {
		t.Errorf("call get-sum a=1 b=2 printed %s (%v)", stdout, err)
	}
}

// TestTraceBanner lists a server that prints a banner first: the command works, and the
// --trace NDJSON on stderr shows the banner as a frame with a finding.
func TestTraceBanner(t *testing.T) {
	bad := sessiontest.BuildBadServer(t)
	stdout, stderr, code := run(t, "--trace", "list", "tools", "--", bad, "-banner")
	if code != cli.ExitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if names := toolNames(t, stdout); !slices.Contains(names, "stall") {
		t.Errorf("tools: %q", names)
	}
	found, events := false, 0
	sc := bufio.NewScanner(strings.NewReader(stderr))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 || line[0] != '{' {
			continue
		}
		var ev struct {
			Kind     string  `json:"kind"`
			Raw      *string `json:"raw"`
			Findings []struct {
				Code string `json:"code"`
			} `json:"findings"`
		}
		if err := json.Unmarshal(line, &ev); err != nil {
			t.Errorf("a trace line is not JSON: %v: %s", err, line)
			continue
		}
		events++
		if ev.Kind == "frame" && ev.Raw != nil && *ev.Raw == "badserver 0.1 starting up (this line is not JSON)" {
			for _, f := range ev.Findings {
				found = found || f.Code == protocol.FindNotJSON
			}
		}
	}
	if !found {
		t.Errorf("no frame event with the banner and a %s finding among %d trace events:\n%s", protocol.FindNotJSON, events, stderr)
	}
}

// TestInfoEras runs info against the built-in demo server (no server arguments) in each era.
func TestInfoEras(t *testing.T) {
	for _, tc := range []struct{ protocol, era string }{
		{"2026-07-28", "stateless"},
		{"2025-11-25", "stateful"},
	} {
		t.Run(tc.protocol, func(t *testing.T) {
			var info struct {
				Era      string `json:"era"`
				Protocol string `json:"protocolVersion"`
				Server   struct {
					Name string `json:"name"`
				} `json:"serverInfo"`
			}
			stdout := runOK(t, "info", "--protocol", tc.protocol)
			if err := json.Unmarshal([]byte(stdout), &info); err != nil {
				t.Fatalf("info did not print JSON: %v\n%s", err, stdout)
			}
			if !strings.HasPrefix(info.Era, tc.era) || info.Protocol != tc.protocol || info.Server.Name != "mcpscope-demo" {
				t.Errorf("info: %+v, want era %s protocol %s from the demo", info, tc.era, tc.protocol)
			}
		})
	}
}

// TestExitCodes checks each documented exit code with a command that earns it.
func TestExitCodes(t *testing.T) {
	bad := sessiontest.BuildBadServer(t)
	for _, tc := range []struct {
		name string
		args []string
		want int
	}{
		{"ok", []string{"call", "echo", "text=hi"}, cli.ExitOK},
		{"json-rpc error", []string{"rpc", "no/such/method"}, cli.ExitRPCError},
		{"usage", []string{"list", "tools", "--no-such-flag"}, cli.ExitUsage},
		{"bad event buffer", []string{"--event-buffer", "lots", "list", "tools"}, cli.ExitUsage},
		{"zero event buffer", []string{"--event-buffer", "0", "list", "tools"}, cli.ExitUsage},
		{"connect", []string{"list", "tools", "--", filepath.Join(t.TempDir(), "no-such-server")}, cli.ExitConnect},
		{"tool error", []string{"call", "fail"}, cli.ExitToolError},
		{"timeout", []string{"--timeout", "300ms", "call", "stall", "--", bad}, cli.ExitTimeout},
		{"check findings", []string{"check", "--call", "notjson", "--", bad}, cli.ExitFindings},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := run(t, tc.args...)
			if code != tc.want {
				t.Errorf("mcpscope %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(tc.args, " "), code, tc.want, stdout, stderr)
			}
		})
	}
}

// TestConfigFiles selects servers from config files of both formats.
func TestConfigFiles(t *testing.T) {
	node, index := sessiontest.NodePath(t), sessiontest.Everything(t)
	bin := sessiontest.BuildMCPScope(t)
	streamable, _ := sessiontest.StartDemoHTTP(t)
	dir := t.TempDir()
	write := func(name string, v any) string {
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	claude := write("claude_desktop_config.json", map[string]any{"mcpServers": map[string]any{
		"everything": map[string]any{"command": node, "args": []string{index, "stdio"}, "env": map[string]string{"E2E": "1"}},
	}})
	vscode := filepath.Join(dir, "mcp.json")
	vsText := `{
  // VS Code allows comments in mcp.json
  "servers": {
    "demo": {"type": "stdio", "command": "` + bin + `", "args": ["demo"]},
    "remote": {"type": "http", "url": "` + streamable + `"}
  }
}`
	if err := os.WriteFile(vscode, []byte(vsText), 0o644); err != nil {
		t.Fatal(err)
	}

	t.Run("mcpServers", func(t *testing.T) {
		names := toolNames(t, runOK(t, "--config", claude, "list", "tools"))
		if !slices.Contains(names, "echo") {
			t.Errorf("tools: %q", names)
		}
	})
	t.Run("vscode stdio", func(t *testing.T) {
		names := toolNames(t, runOK(t, "--config", vscode, "--server", "demo", "list", "tools"))
		if !slices.Contains(names, "ask_user") {
			t.Errorf("tools: %q", names)
		}
	})
	t.Run("vscode http", func(t *testing.T) {
		var info struct {
			Transport string `json:"transport"`
			Server    struct {
				Name string `json:"name"`
			} `json:"serverInfo"`
		}
		stdout := runOK(t, "--config", vscode, "--server", "remote", "info")
		if err := json.Unmarshal([]byte(stdout), &info); err != nil || info.Transport != "http" || info.Server.Name != "mcpscope-demo" {
			t.Errorf("info over the config's http server: %s (%v)", stdout, err)
		}
	})
	t.Run("several servers without --server", func(t *testing.T) {
		_, stderr, code := run(t, "--config", vscode, "info")
		if code != cli.ExitUsage || !strings.Contains(stderr, "--server") {
			t.Errorf("exit %d, stderr %s; want a usage error naming --server", code, stderr)
		}
	})
}
