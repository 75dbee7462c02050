package cli_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/ui/cli"
)

func TestSkillsListAndGet(t *testing.T) {
	ms := sessiontest.StartSkillsServer(t, sessiontest.SkillText)
	out := runOK(t, "skills", "list", "--url", ms.URL)
	var list []struct{ URI string }
	if err := json.Unmarshal([]byte(out), &list); err != nil || len(list) != 1 || list[0].URI != sessiontest.SkillURI {
		t.Fatalf("skills list: %v\n%s", err, out)
	}
	if n := len(ms.Requests("resources/read")); n != 0 {
		t.Fatalf("skills list read %d files", n)
	}
	out = runOK(t, "skills", "get", "pdf-processing", "references/FORMS.md", "--url", ms.URL)
	var got struct {
		Files []struct {
			URI      string
			Verified bool
			Text     string
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || len(got.Files) != 2 ||
		!got.Files[0].Verified || got.Files[0].Text != sessiontest.SkillText || got.Files[1].Text != sessiontest.FormsText {
		t.Fatalf("skills get: %v\n%s", err, out)
	}
}

func TestSkillsGetTampered(t *testing.T) {
	ms := sessiontest.StartSkillsServer(t, strings.Replace(sessiontest.SkillText, "Use", "Rm!", 1))
	stdout, stderr, code := run(t, "skills", "get", sessiontest.SkillURI, "--all", "--url", ms.URL)
	if code != cli.ExitFailure || !strings.Contains(stderr, "failed verification, not used") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if strings.Contains(stdout, "Rm!") || !strings.Contains(stdout, `"verified": false`) {
		t.Fatalf("unverified content printed:\n%s", stdout)
	}
	// The supporting file of a skill that failed verification is never read.
	if n := len(ms.Requests("resources/read")); n != 1 {
		t.Fatalf("%d reads, want only SKILL.md", n)
	}
}

func TestListToolsExcludesInvalidHeaders(t *testing.T) {
	ms := sessiontest.StartHeaderToolsServer(t)
	stdout, stderr, code := run(t, "list", "tools", "--url", ms.URL)
	if code != cli.ExitOK || strings.Contains(stdout, "bad_number") || !strings.Contains(stdout, "execute_sql") ||
		!strings.Contains(stderr, `excluded tool "bad_number" (`+protocol.FindToolHeader+`)`) {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	_, stderr, code = run(t, "call", "bad_number", "score=1.5", "--url", ms.URL)
	if code == cli.ExitOK || !strings.Contains(stderr, `tool "bad_number" is excluded`) || len(ms.Requests("tools/call")) != 0 {
		t.Fatalf("call of an excluded tool: exit %d, %d calls sent\n%s", code, len(ms.Requests("tools/call")), stderr)
	}
	runOK(t, "call", "execute_sql", "region=eu", "priority=3", "--url", ms.URL)
	if h := ms.Requests("tools/call"); len(h) != 1 || h[0].Get("Mcp-Param-Region") != "eu" || h[0].Get("Mcp-Param-Priority") != "3" {
		t.Fatalf("headers %v", h)
	}
}

// The demo server rejects a get_weather call without Mcp-Param-City (-32020): with default
// flags over Streamable HTTP the call goes through.
func TestCallMirrorsHeadersForDemo(t *testing.T) {
	streamable, _ := sessiontest.StartDemoHTTP(t)
	out := runOK(t, "call", "get_weather", "city=Oslo", "--url", streamable)
	if !strings.Contains(out, `"city": "Oslo"`) {
		t.Fatalf("get_weather:\n%s", out)
	}
}
