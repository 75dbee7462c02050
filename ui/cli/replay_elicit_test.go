package cli_test

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/ui/cli"
)

// sameCall is the report's row of a tools/call answered as recorded, naming its tool.
var sameCall = regexp.MustCompile(`tools/call \S+ +same`)

// TestReplayURLElicitation records a tool call whose server asks for a URL elicitation
// (a new elicitationId each time) and replays it against the same server: the server's
// request finds its recorded answer by shape, the new id left out, and the result, which
// names the id, is compared with the live id in place of the recorded one. Matching by the
// exact params finds no answer (the replay declines) and reports the difference; matching
// by order finds it again.
func TestReplayURLElicitation(t *testing.T) {
	dir := t.TempDir()
	type server struct {
		name string
		call []string
		args []string // the server selection
	}
	servers := []server{
		{"demo", []string{"call", "ask_url"}, nil},
	}
	if !testing.Short() {
		node, index := sessiontest.NodePath(t), sessiontest.Everything(t)
		servers = append(servers, server{"everything", []string{"call", "trigger-url-elicitation", "url=https://example.com/connect"},
			[]string{"--", node, index, "stdio"}})
	}
	for _, sv := range servers {
		for _, proto := range []string{"2025-11-25", "2026-07-28"} {
			if sv.name == "everything" && proto == "2026-07-28" {
				continue // the reference server speaks the stateful era only
			}
			name := sv.name + "@" + proto
			file := filepath.Join(dir, sv.name+"-"+proto+".jsonl")
			args := append([]string{"--protocol", proto, "--elicit", "accept-defaults", "--record", file}, sv.call...)
			out := runOK(t, append(args, sv.args...)...)
			if strings.Contains(out, "not to open") || strings.Contains(out, "declined") {
				t.Fatalf("%s: the recorded call was not accepted: %s", name, out)
			}
			replay := func(extra ...string) (string, int) {
				stdout, stderr, code := run(t, append(append(append([]string{"replay", file}, extra...), "--protocol", proto), sv.args...)...)
				if code != cli.ExitOK && code != cli.ExitRPCError {
					t.Fatalf("%s: replay %v: exit %d\n%s\n%s", name, extra, code, stdout, stderr)
				}
				return stdout, code
			}
			if stdout, code := replay(); code != cli.ExitOK || !sameCall.MatchString(stdout) {
				t.Errorf("%s: replay matching by shape: exit %d\n%s", name, code, stdout)
			}
			if stdout, code := replay("--answer-match", "order"); code != cli.ExitOK {
				t.Errorf("%s: replay matching by order: exit %d\n%s", name, code, stdout)
			}
			if stdout, code := replay("--answer-match", "params"); code != cli.ExitRPCError || !strings.Contains(stdout, "different") {
				t.Errorf("%s: replay matching by exact params: exit %d, want a difference\n%s", name, code, stdout)
			}
		}
	}
}
