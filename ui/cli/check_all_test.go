package cli_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// allConfig writes a config file of three hidden servers: two sharing read_file (one naming
// the other's list_dir), one whose description is addressed to the model.
func allConfig(t *testing.T, dir string) string {
	t.Helper()
	bin := sessiontest.BuildHiddenServer(t)
	cfg := map[string]any{"mcpServers": map[string]any{
		"files":  map[string]any{"command": bin, "args": []string{"-tools", "read_file,list_dir", "clean"}},
		"notes":  map[string]any{"command": bin, "args": []string{"-tools", "read_file,search_notes", "-mention", "list_dir", "clean"}},
		"poison": map[string]any{"command": bin, "args": []string{"escape"}},
	}}
	b, _ := json.MarshalIndent(cfg, "", "  ") // a server per line or more, as people write them
	path := filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// checkAllFlags keep the check quick on a busy machine.
var checkAllFlags = []string{"--call-wait", "300ms", "--slow", "10s", "--slow", "startup=30s"}

// allJSON is the part of check --all --format json the tests read.
type allJSON struct {
	Servers []struct {
		Name, Source string
		Report       struct {
			Runs []struct {
				Findings []struct{ Code, Pointer, Message string } `json:"findings"`
				Cost     struct {
					Encoding string
					Total    int
				} `json:"cost"`
			} `json:"runs"`
		} `json:"report"`
	} `json:"servers"`
}

// TestCheckAllSharedTool: check --all over a config file checks each server, reports the
// tool two servers share on both and the description naming another server's tool, and
// prints one table then the details.
func TestCheckAllSharedTool(t *testing.T) {
	cfg := allConfig(t, t.TempDir())
	out, stderr, code := run(t, append([]string{"check", "--all", "--config", cfg, "--format", "json"}, checkAllFlags...)...)
	if code != 8 {
		t.Fatalf("exit %d, want 8 (the escape is an error); stderr:\n%s", code, stderr)
	}
	var rep allJSON
	if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Servers) != 3 {
		t.Fatalf("%v:\n%s", err, out)
	}
	got := map[string][]string{}
	for _, s := range rep.Servers {
		if s.Source != cfg || len(s.Report.Runs) == 0 || s.Report.Runs[0].Cost.Encoding != "o200k_base" || s.Report.Runs[0].Cost.Total == 0 {
			t.Errorf("server %s: source %q, report %+v", s.Name, s.Source, s.Report)
			continue
		}
		for _, f := range s.Report.Runs[0].Findings {
			if strings.HasPrefix(f.Code, "content.") {
				got[s.Name] = append(got[s.Name], f.Code+" "+f.Pointer)
			}
		}
	}
	want := map[string][]string{
		"files":  {"content.shadowed-tool /tools/0/name"},
		"notes":  {"content.shadowed-tool /tools/0/name", "content.cross-reference /tools/0/description"},
		"poison": {"content.terminal-escape /tools/0/description", "content.shadowed-tool /tools/0/name"},
	}
	for name, w := range want {
		slices.Sort(w)
		slices.Sort(got[name])
		if !slices.Equal(got[name], w) {
			t.Errorf("%s: %q, want %q", name, got[name], w)
		}
	}
	if strings.Contains(out, "\x1b") {
		t.Error("the JSON report holds a raw ESC")
	}
	text, _, _ := run(t, append([]string{"check", "--all", "--config", cfg}, checkAllFlags...)...)
	lines := strings.Split(text, "\n")
	if !strings.HasPrefix(lines[0], "SERVER") || !strings.Contains(lines[3], "poison") ||
		!strings.Contains(lines[3], "content.terminal-escape (error)") || !strings.Contains(text, "== notes") ||
		!strings.Contains(text, `\x1b]52;c;ZXZpbA==\x07`) || strings.Contains(text, "\x1b") {
		t.Errorf("text report:\n%s", text)
	}
	// After the servers' reports, the section across servers gathers the rules that need
	// several of them.
	_, across, ok := strings.Cut(text, "\n== across servers\n")
	if !ok || strings.Contains(across, "\n== ") || !strings.Contains(across, `content.cross-reference notes: /tools/0/description of tool "read_file" names tool "list_dir" of server "files"`) ||
		strings.Count(across, "content.shadowed-tool") != 3 {
		t.Errorf("no section across servers after the reports, or not all of it:\n%s", text)
	}
	var jsonAcross struct {
		Across []struct{ Server, Code, Severity, Pointer string } `json:"acrossServers"`
	}
	if err := json.Unmarshal([]byte(out), &jsonAcross); err != nil || len(jsonAcross.Across) != 4 {
		t.Errorf("acrossServers in the JSON report: %+v (%v)", jsonAcross, err)
	}
}

// TestCheckAllHostConfigs: with no --config, --all reads the hosts' config files in their
// usual places.
func TestCheckAllHostConfigs(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	bin := sessiontest.BuildHiddenServer(t)
	write := func(path string, name string) {
		b, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{name: map[string]any{"command": bin, "args": []string{"clean"}}}})
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(home, ".config", "Claude", "claude_desktop_config.json"), "desktop")
	write(filepath.Join(home, ".cursor", "mcp.json"), "cursor")
	out, stderr, code := run(t, append([]string{"check", "--all", "--format", "json", "--fail-on", "none"}, checkAllFlags...)...)
	if code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	var rep allJSON
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range rep.Servers {
		names = append(names, s.Name)
	}
	if !slices.Equal(names, []string{"desktop", "cursor"}) {
		t.Errorf("servers %q, want desktop then cursor", names)
	}
}

// TestCheckSARIF: check --all --format sarif is valid SARIF 2.1.0 (the OASIS schema, shipped
// in testdata), with a rule per finding code and a result per finding naming the server and
// the JSON pointer.
func TestCheckSARIF(t *testing.T) {
	cfg := allConfig(t, t.TempDir())
	out, stderr, code := run(t, append([]string{"check", "--all", "--config", cfg, "--format", "sarif"}, checkAllFlags...)...)
	if code != 8 {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	validateSARIF(t, out)
	var log struct {
		Version string
		Runs    []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID      string
						HelpURI string
						Help    struct{ Text string }
					}
				}
			}
			Results []struct {
				RuleID    string
				Level     string
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine int }
					}
					LogicalLocations []struct {
						Name, FullyQualifiedName, Kind string
						ParentIndex, Index             *int
					}
				}
			}
			LogicalLocations []json.RawMessage
		}
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("%v", err)
	}
	run := log.Runs[0]
	rules := map[string]bool{}
	for _, r := range run.Tool.Driver.Rules {
		rules[r.ID] = true
		if r.ID == "content.terminal-escape" && (r.Help.Text == "" || !strings.Contains(r.HelpURI, "modelcontextprotocol.io")) {
			t.Errorf("rule %+v has no help or spec link", r)
		}
	}
	escapes := 0
	for _, r := range run.Results {
		if len(r.Locations) == 0 || r.Locations[0].PhysicalLocation.ArtifactLocation.URI == "" {
			t.Errorf("result of %s has no physical location: code scanning refuses it", r.RuleID)
		}
		if !rules[r.RuleID] {
			t.Errorf("result of rule %s, which is not listed", r.RuleID)
		}
		if len(r.Locations) > 0 && len(r.Locations[0].LogicalLocations) > 0 {
			server := r.Locations[0].LogicalLocations[0].Name
			if got, want := r.Locations[0].PhysicalLocation.Region.StartLine, lineOf(t, cfg, `"`+server+`":`); got != want {
				t.Errorf("result of %s on %s points at line %d of the config file; its entry starts on line %d", r.RuleID, server, got, want)
			}
		}
		for _, l := range r.Locations {
			for i, ll := range l.LogicalLocations {
				// An index points into run.logicalLocations (SARIF 2.1.0 §3.33.8); without
				// that array the qualified name carries the whole place.
				if (ll.ParentIndex != nil && *ll.ParentIndex >= len(run.LogicalLocations)) ||
					(ll.Index != nil && *ll.Index >= len(run.LogicalLocations)) {
					t.Errorf("result of %s: logical location %+v indexes run.logicalLocations, which has %d", r.RuleID, ll, len(run.LogicalLocations))
				}
				if i > 0 && !strings.HasPrefix(ll.FullyQualifiedName, l.LogicalLocations[0].Name+"/") {
					t.Errorf("result of %s: %q is not qualified by the server %q", r.RuleID, ll.FullyQualifiedName, l.LogicalLocations[0].Name)
				}
			}
		}
		if r.RuleID != "content.terminal-escape" {
			continue
		}
		escapes++
		l := r.Locations[0]
		if r.Level != "error" || l.PhysicalLocation.ArtifactLocation.URI != "mcp-server/poison" || len(l.LogicalLocations) != 2 ||
			l.LogicalLocations[0].Name != "poison" || l.LogicalLocations[1].FullyQualifiedName != "poison/tools/0/description" {
			t.Errorf("result %+v", r)
		}
	}
	if escapes != 1 || strings.Contains(out, "\x1b") {
		t.Errorf("%d escape results (want 1), raw ESC %v", escapes, strings.Contains(out, "\x1b"))
	}
}

// lineOf is the line of path where text first appears.
func lineOf(t *testing.T, path, text string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(b, []byte(text))
	if i < 0 {
		t.Fatalf("%s has no %s", path, text)
	}
	return bytes.Count(b[:i], []byte("\n")) + 1
}

// TestCheckJUnit: check --format junit parses back: a suite per server, a case per step and
// per finding code, failures as --fail-on says.
func TestCheckJUnit(t *testing.T) {
	cfg := allConfig(t, t.TempDir())
	type suites struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Suites   []struct {
			Name     string `xml:"name,attr"`
			Failures int    `xml:"failures,attr"`
			Cases    []struct {
				Name    string    `xml:"name,attr"`
				Failure *struct{} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	for _, tc := range []struct {
		failOn   string
		failures int // content step and content.* code cases that fail
	}{
		{"error", 2},   // poison: the escape (step content, content.terminal-escape)
		{"warning", 8}, // and the shadowed or cross-referenced tools: step and code on each server
		{"none", 0},
	} {
		out, _, _ := run(t, append([]string{"check", "--all", "--config", cfg, "--format", "junit", "--fail-on", tc.failOn}, checkAllFlags...)...)
		var got suites
		if err := xml.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("--fail-on %s: %v\n%s", tc.failOn, err, out)
		}
		cases, failed := 0, 0
		for _, s := range got.Suites {
			for _, c := range s.Cases {
				cases++
				if c.Failure != nil {
					failed++
				}
			}
		}
		if len(got.Suites) != 3 || cases != got.Tests || failed != got.Failures || cases < 3*12 {
			t.Errorf("--fail-on %s: %d suites, %d cases (%d counted), %d failed (%d counted)", tc.failOn, len(got.Suites), cases, got.Tests, failed, got.Failures)
		}
		contentFailures := 0
		for _, s := range got.Suites {
			for _, c := range s.Cases {
				if c.Failure != nil && (c.Name == "step: content" || strings.HasPrefix(c.Name, "content.")) {
					contentFailures++
				}
			}
		}
		if contentFailures != tc.failures {
			t.Errorf("--fail-on %s: %d content cases failed, want %d\n%s", tc.failOn, contentFailures, tc.failures, out)
		}
	}
}

// TestCheckMaxTokens: --max-tokens sets the context cost past which check warns; 0 never
// warns.
func TestCheckMaxTokens(t *testing.T) {
	bin := sessiontest.BuildHiddenServer(t)
	for _, tc := range []struct {
		limit string
		warn  bool
	}{{"5", true}, {"0", false}, {"100000", false}} {
		out, _, code := run(t, append([]string{"check", "--json", "--fail-on", "warning", "--max-tokens", tc.limit}, append(checkAllFlags, "--", bin, "clean")...)...)
		if got := strings.Contains(out, `"code": "content.context-cost"`); got != tc.warn || (code == 8) != tc.warn {
			t.Errorf("--max-tokens %s: warned %v, exit %d\n%s", tc.limit, got, code, out)
		}
		if !strings.Contains(out, `"encoding": "o200k_base"`) {
			t.Errorf("--max-tokens %s: no cost in the JSON report", tc.limit)
		}
	}
}
