package cli_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/ui/internal/jsonview"
)

// rawIn lists what text carries raw that a terminal must not get (line feeds apart).
func rawIn(text string) []string {
	var bad []string
	for _, l := range strings.Split(text, "\n") {
		for _, sp := range jsonview.AppendEscaped(nil, l, "", "e") {
			if sp.SGR != "" {
				bad = append(bad, sp.Text)
			}
		}
	}
	return bad
}

// TestCLIEscapes: on the escapeserver, whose metadata holds escape sequences and
// characters that hide or reorder text, list and info print JSON with the same values and
// every such character as a \u escape, and check's report shows them escaped as the views
// do; nothing reaches the output raw.
func TestCLIEscapes(t *testing.T) {
	t.Parallel()
	srv := sessiontest.BuildEscapeServer(t)
	const clip = "\x1b]52;c;ZXZpbA==\x07"

	out := runOK(t, "list", "tools", "--", srv)
	if bad := rawIn(out); len(bad) > 0 {
		t.Errorf("list tools prints raw %q:\n%s", bad, out)
	}
	var tools []struct{ Name, Title string }
	if err := json.Unmarshal([]byte(out), &tools); err != nil || len(tools) != 2 {
		t.Fatalf("list tools: %v\n%s", err, out)
	}
	if tools[0].Name != clip+"read_file" || tools[0].Title != "Read\x1b[2J a file\u200b\u202e\u2066\U000E0041\uFE0F\u00ad" || tools[1].Name != "read\u200bfile" {
		t.Errorf("list tools changed the values: %q", tools)
	}
	if !strings.Contains(out, `"name": "\u001b]52;c;ZXZpbA==\u0007read_file"`) || !strings.Contains(out, `"name": "read\u200bfile"`) ||
		!strings.Contains(out, `a file\u200b\u202e\u2066\udb40\udc41\ufe0f\u00ad"`) {
		t.Errorf("list tools does not show the escapes:\n%s", out)
	}

	out = runOK(t, "list", "prompts", "--", srv)
	if bad := rawIn(out); len(bad) > 0 || !strings.Contains(out, `"name": "who\u200b"`) {
		t.Errorf("list prompts prints raw %q:\n%s", bad, out)
	}

	out = runOK(t, "info", "--", srv)
	var info struct {
		Instructions string
		ServerInfo   struct{ Name, Version string }
	}
	if err := json.Unmarshal([]byte(out), &info); err != nil {
		t.Fatalf("info: %v\n%s", err, out)
	}
	if bad := rawIn(out); len(bad) > 0 || info.ServerInfo.Name != "escape"+clip+"server" || info.ServerInfo.Version != "1.0\u009b31m" ||
		!strings.HasSuffix(info.Instructions, "\x1b[2J\u200b\u202e\u2066\U000E0041\uFE0F\u00ad") {
		t.Errorf("info prints raw %q or changes the values %+v:\n%s", bad, info, out)
	}

	// An error quoting the server: its message escaped on stderr.
	_, errOut, code := run(t, "call", "nosuch", "--", srv)
	if bad := rawIn(errOut); code == 0 || len(bad) > 0 || !strings.Contains(errOut, `no such tool\x1b]52;c;ZXZpbA==\x07\u200b`) {
		t.Errorf("call nosuch: exit %d, raw %q on stderr:\n%s", code, bad, errOut)
	}

	out, _, _ = run(t, "check", "--", srv)
	if bad := rawIn(out); len(bad) > 0 {
		t.Errorf("check prints raw %q:\n%s", bad, out)
	}
	if !strings.Contains(out, `check escape\x1b]52;c;ZXZpbA==\x07server 1.0\u009b31m `) {
		t.Errorf("check's report does not name the server escaped:\n%s", out)
	}
}
