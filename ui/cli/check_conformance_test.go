package cli_test

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// crossCheck is one server scenario of the conformance suite that check also covers: the
// revision it runs at and whether check's report has a finding on the same ground.
type crossCheck struct {
	scenario string
	spec     string
	covers   func(code, message string) bool
}

func codeIs(codes ...string) func(string, string) bool {
	return func(code, _ string) bool {
		for _, c := range codes {
			if code == c {
				return true
			}
		}
		return false
	}
}

// crossChecks are the suite's server scenarios that check covers, with the findings that
// would be check's verdict on the same ground.
var crossChecks = []crossCheck{
	{"server-initialize", "2025-11-25", codeIs("mcp.handshake")},
	{"ping", "2025-11-25", codeIs("mcp.ping")},
	{"logging-set-level", "2025-11-25", func(code, msg string) bool {
		return code == "mcp.capability-mismatch" && strings.Contains(msg, "logging")
	}},
	{"tools-list", "2026-07-28", codeIs("mcp.tool-name", "mcp.tool-schema", "mcp.pagination")},
	{"resources-list", "2025-11-25", codeIs("mcp.resource-definition", "mcp.pagination")},
	{"prompts-list", "2026-07-28", codeIs("mcp.prompt-arguments", "mcp.pagination")},
	{"sep-2164-resource-not-found", "2026-07-28", func(code, msg string) bool {
		return code == "mcp.error-code" && strings.Contains(msg, "resource that does not exist")
	}},
}

// TestCheckConformanceCrossCheck runs the official conformance suite's server scenarios
// that check also covers against the demo server (demo --http), and check itself with
// --all-eras: for each scenario both must agree, the suite passing exactly when check has
// no finding on the same ground.
func TestCheckConformanceCrossCheck(t *testing.T) {
	if testing.Short() {
		t.Skip("the conformance suite needs Node.js and takes about twenty seconds; run without -short")
	}
	suite := sessiontest.InstallConformance(t)
	node := sessiontest.NodePath(t)
	url := startDemoHTTP(t)
	rep := parseCheck(t, runOK(t, "check", "--json", "--all-eras", "--read", "3", "--call-wait", "300ms", "--fail-on", "none", "--url", url))
	byRev := map[string][]string{}
	for _, run := range rep.Runs {
		for _, f := range run.Findings {
			byRev[run.Revision] = append(byRev[run.Revision], f.Code+"\x00"+f.Message)
		}
	}
	alpha := sessiontest.ConformanceVersions[len(sessiontest.ConformanceVersions)-1]
	outcomes := make([]sessiontest.ConformanceOutcome, len(crossChecks))
	var wg sync.WaitGroup
	work := make(chan int)
	for range sessiontest.ConformanceWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				outcomes[i] = runServerScenario(t, node, suite, alpha, url, crossChecks[i])
			}
		}()
	}
	for i := range crossChecks {
		work <- i
	}
	close(work)
	wg.Wait()
	for i, cc := range crossChecks {
		o := outcomes[i]
		var found []string
		for _, f := range byRev[cc.spec] {
			code, msg, _ := strings.Cut(f, "\x00")
			if cc.covers(code, msg) {
				found = append(found, code+": "+msg)
			}
		}
		if _, ok := byRev[cc.spec]; !ok && len(rep.Runs) < 2 {
			t.Fatalf("check did not run at %s", cc.spec)
		}
		if o.Checks == 0 {
			t.Errorf("%s@%s: the suite recorded no check\n%s", cc.scenario, cc.spec, o.Log)
			continue
		}
		if o.Passed() != (len(found) == 0) {
			t.Errorf("%s@%s: the suite says passed=%v (%s), check found %q\n%s", cc.scenario, cc.spec, o.Passed(),
				o.Summary(), found, o.Log)
		}
	}
}

// runServerScenario runs one server scenario of suite version v against url.
func runServerScenario(t *testing.T, node string, suite sessiontest.Conformance, v sessiontest.ConformanceVersion, url string, cc crossCheck) sessiontest.ConformanceOutcome {
	out, err := os.MkdirTemp(t.TempDir(), "server")
	if err != nil {
		return sessiontest.ConformanceOutcome{Log: err.Error()}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	shim := filepath.Join(suite.Testdata, "node20.mjs")
	cmd := exec.CommandContext(ctx, node, "--import", shim, suite.Suite(v), "server", "--url", url,
		"--scenario", cc.scenario, "--spec-version", cc.spec, "-o", out)
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	cmd.WaitDelay = 5 * time.Second
	log, _ := cmd.CombinedOutput()
	o := sessiontest.ConformanceOutcome{Log: "suite output:\n" + sessiontest.Tail(string(log), 30)}
	_ = filepath.WalkDir(out, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() == "checks.json" {
			o.ReadChecks(path)
		}
		return nil
	})
	return o
}
