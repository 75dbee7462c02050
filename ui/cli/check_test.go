package cli_test

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/ui/cli"
)

// checkJSON is the part of check --json the tests read.
type checkJSON struct {
	Runs []struct {
		Revision string `json:"revision"`
		Findings []struct {
			Code     string   `json:"code"`
			Severity string   `json:"severity"`
			Message  string   `json:"message"`
			Frames   []uint64 `json:"frames"`
			Excerpt  string   `json:"excerpt"`
			Spec     struct {
				Revision, Page, Section, URL string
			} `json:"spec"`
		} `json:"findings"`
		Calls       []string `json:"calls"`
		Definitions struct {
			Tools []json.RawMessage `json:"tools"`
		} `json:"definitions"`
	} `json:"runs"`
}

func parseCheck(t *testing.T, stdout string) checkJSON {
	t.Helper()
	var rep checkJSON
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || len(rep.Runs) == 0 {
		t.Fatalf("check --json printed no report (%v):\n%s", err, stdout)
	}
	return rep
}

// TestCheckCommandDemo: the built-in demo passes check with no finding at all, both as JSON
// and as the readable report, which has no colour when stdout is not a terminal.
func TestCheckCommandDemo(t *testing.T) {
	rep := parseCheck(t, runOK(t, "check", "--json", "--read", "2", "--call-wait", "300ms", "--slow", "10s", "--slow", "startup=30s"))
	if f := rep.Runs[0].Findings; len(f) != 0 {
		t.Errorf("the demo has findings: %+v", f)
	}
	if len(rep.Runs[0].Definitions.Tools) == 0 || len(rep.Runs[0].Calls) == 0 {
		t.Errorf("no tools listed or called: %+v", rep.Runs[0])
	}
	human := runOK(t, "check", "--read", "2", "--call-wait", "300ms", "--slow", "10s", "--slow", "startup=30s")
	if !strings.Contains(human, "result: 0 errors, 0 warnings, 0 info") || !strings.Contains(human, "mcpscope-demo") ||
		strings.Contains(human, "\x1b[") {
		t.Errorf("readable report:\n%s", human)
	}
}

// TestCheckCommandExitCodes: check's exit code follows --fail-on, and a finding names its
// frames, an excerpt and its spec section.
func TestCheckCommandExitCodes(t *testing.T) {
	bad := sessiontest.BuildBadServer(t)
	args := []string{"check", "--json", "--call", "notjson", "--call", "duplicate", "--call-wait", "300ms", "--", bad}
	stdout, stderr, code := run(t, args...)
	if code != cli.ExitFindings {
		t.Fatalf("exit %d, want %d (an error finding with --fail-on error)\n%s\n%s", code, cli.ExitFindings, stdout, stderr)
	}
	rep := parseCheck(t, stdout)
	var codes []string
	for _, f := range rep.Runs[0].Findings {
		codes = append(codes, f.Code)
		if f.Code == "wire.not-json" {
			if len(f.Frames) == 0 || f.Excerpt == "" || f.Severity != "error" ||
				f.Spec.URL != "https://modelcontextprotocol.io/specification/2025-11-25/basic/transports" ||
				f.Spec.Page != "docs/specification/2025-11-25/basic/transports.mdx" {
				t.Errorf("wire.not-json finding: %+v", f)
			}
		}
	}
	if !slices.Contains(codes, "wire.not-json") || !slices.Contains(codes, "session.duplicate-response") {
		t.Errorf("findings %v: want wire.not-json and session.duplicate-response", codes)
	}
	if _, _, code := run(t, "check", "--fail-on", "none", "--call", "notjson", "--", bad); code != cli.ExitOK {
		t.Errorf("--fail-on none: exit %d, want 0", code)
	}
	if _, _, code := run(t, "check", "--fail-on", "warning", "--call", "duplicate", "--", bad); code != cli.ExitFindings {
		t.Errorf("--fail-on warning with a warning: exit %d, want %d", code, cli.ExitFindings)
	}
	if _, _, code := run(t, "check", "--call", "duplicate", "--", bad); code != cli.ExitOK {
		t.Errorf("--fail-on error with warnings only: exit %d, want 0", code)
	}
	if _, _, code := run(t, "check", "--slow", "soon", "--", bad); code != cli.ExitUsage {
		t.Errorf("--slow soon: exit %d, want %d", code, cli.ExitUsage)
	}
}

// TestCheckCommandRecordedCalls: --calls makes the tools/call requests of a recording, with
// their arguments, and --no-read-only-calls leaves out the rest.
func TestCheckCommandRecordedCalls(t *testing.T) {
	file := filepath.Join(t.TempDir(), "calls.jsonl")
	runOK(t, "--record", file, "call", "add", "a=2", "b=3")
	rep := parseCheck(t, runOK(t, "check", "--json", "--no-read-only-calls", "--calls", file, "--read", "0"))
	if calls := rep.Runs[0].Calls; !slices.Equal(calls, []string{"add"}) {
		t.Errorf("calls %v, want [add]", calls)
	}
}

// TestCheckReportCountsAndCost: the readable report on the demo writes counts with the
// plural that fits ("1 template", "1 app"), leaves the app-only view_dice_reroll out of the
// model's context and names it apart, and writes the context cost with the same number in
// the summary and in the finding past --max-tokens.
func TestCheckReportCountsAndCost(t *testing.T) {
	out, _, _ := run(t, "check", "--read", "0", "--call-wait", "300ms", "--slow", "10s", "--slow", "startup=30s",
		"--max-tokens", "100", "--fail-on", "none")
	for _, want := range []string{" · 1 template · ", " · 1 app · ", "not in the model's context (view_dice_reroll)"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in the report:\n%s", want, out)
		}
	}
	var total, finding string
	for _, l := range strings.Split(out, "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(l), "context: "); ok {
			total, _, _ = strings.Cut(rest, " ")
		}
		if strings.Contains(l, "most expensive:") && strings.Contains(l, "view_dice_reroll") {
			t.Errorf("the app-only tool is among the model's most expensive: %s", l)
		}
		if _, rest, ok := strings.Cut(l, "content.context-cost the definitions cost "); ok {
			finding, _, _ = strings.Cut(rest, " ")
		}
	}
	if total == "" || total != finding || !strings.Contains(total, ",") {
		t.Errorf("context total %q, finding's %q: want the same number, with thousands separated\n%s", total, finding, out)
	}
}

// TestCheckTimingIsANote: a timing finding depends on the machine as much as on the
// server, so it is a note (info) that --fail-on warning does not fail on; --strict-timing
// makes it a warning that does.
func TestCheckTimingIsANote(t *testing.T) {
	hidden := sessiontest.BuildHiddenServer(t)
	args := []string{"check", "--fail-on", "warning", "--slow", "1ns", "--slow", "startup=1ns"}
	stdout, stderr, code := run(t, append(args, "--", hidden, "clean")...)
	if code != cli.ExitOK || !strings.Contains(stdout, "INFO    server.startup") || !strings.Contains(stdout, "INFO    session.slow") {
		t.Errorf("timings as notes: exit %d, want 0 with the timings as INFO\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	stdout, stderr, code = run(t, append(args, "--strict-timing", "--", hidden, "clean")...)
	if code != cli.ExitFindings || !strings.Contains(stdout, "WARNING server.startup") {
		t.Errorf("--strict-timing: exit %d, want %d with the timings as warnings\nstdout:\n%s\nstderr:\n%s", code, cli.ExitFindings, stdout, stderr)
	}
}
