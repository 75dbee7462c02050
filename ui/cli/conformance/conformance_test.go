package conformance_test

import (
	"bufio"
	"bytes"
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// conformanceRun is one scenario of one suite version at one protocol revision ("" for the
// suite's default).
type conformanceRun struct {
	version  sessiontest.ConformanceVersion
	scenario string
	spec     string
}

func (r conformanceRun) name() string {
	n := r.version.Version + "/" + r.scenario
	if r.spec != "" {
		n += "@" + r.spec
	}
	return n
}

// TestConformance runs every client scenario of both pinned versions of the official MCP
// conformance suite against the built mcpscope, through testdata/conformance/adapter.mjs,
// which runs mcpscope's headless commands with default flags. Scenarios that apply to both
// eras also run at 2026-07-28. A scenario that records no check fails. Scenarios listed in
// testdata/conformance/expected-failures.yaml must fail, and every other one must pass, so
// the list can only shrink. The suite's servers listen on every interface and it has no
// option to bind them to loopback, so each scenario runs in a private network namespace
// (unshare -rn) where only loopback exists. MCPSCOPE_CONFORMANCE_RUN=REGEXP runs only the
// runs whose name (VERSION/SCENARIO[@SPEC]) it matches.
func TestConformance(t *testing.T) {
	if testing.Short() {
		t.Skip("the conformance suite needs Node.js and takes about a minute; run without -short")
	}
	env := newConformanceEnv(t)
	expected := readExpectedFailures(t, filepath.Join(env.suite.Testdata, "expected-failures.yaml"))
	var runs []conformanceRun
	seen := map[string]bool{}
	for _, v := range sessiontest.ConformanceVersions {
		for _, sc := range env.listClientScenarios(t, v) {
			seen[sc.name] = true
			runs = append(runs, conformanceRun{version: v, scenario: sc.name})
			// A scenario of both eras runs by default at the latest dated revision; run it
			// at 2026-07-28 as well, where the client must find the stateless era itself.
			if !strings.HasPrefix(sc.name, "auth/") && slices.Contains(sc.specs, "2026-07-28") && sc.specs[0] != "2026-07-28" {
				runs = append(runs, conformanceRun{version: v, scenario: sc.name, spec: "2026-07-28"})
			}
		}
	}
	for name := range expected {
		if !seen[name] && !seen[strings.Split(name, "@")[0]] {
			t.Errorf("expected-failures.yaml lists %q, which no pinned suite version has: remove it", name)
		}
	}
	if pat := os.Getenv("MCPSCOPE_CONFORMANCE_RUN"); pat != "" {
		re, err := regexp.Compile(pat)
		if err != nil {
			t.Fatalf("MCPSCOPE_CONFORMANCE_RUN: %v", err)
		}
		runs = slices.DeleteFunc(runs, func(r conformanceRun) bool { return !re.MatchString(r.name()) })
		if len(runs) == 0 {
			t.Fatalf("MCPSCOPE_CONFORMANCE_RUN=%s matches no run (names are VERSION/SCENARIO[@SPEC])", pat)
		}
	}
	start := time.Now()
	results := env.runAll(t, runs)
	t.Logf("%d runs in %s", len(runs), time.Since(start).Round(time.Millisecond))
	for i, r := range runs {
		o := results[i]
		if o.Took > 10*time.Second {
			t.Logf("%s took %s", r.name(), o.Took.Round(time.Millisecond))
		}
		logWarnings(t, r.name(), o)
		want := expected[r.scenario] || expected[r.scenario+"@"+r.version.Version]
		switch {
		case !o.Passed() && !want:
			t.Errorf("%s failed (%d checks): %s\n%s", r.name(), o.Checks, o.Summary(), o.Log)
		case o.Passed() && want:
			t.Errorf("%s passes now (%d checks): remove it from testdata/conformance/expected-failures.yaml", r.name(), o.Checks)
		}
	}
}

// TestConformanceRepeated runs the two scenarios that depend on ordering and timing
// (the standalone GET stream opened before the first request; SSE resumption with the
// server's retry delay) ten times in a row each.
func TestConformanceRepeated(t *testing.T) {
	if testing.Short() {
		t.Skip("the conformance suite needs Node.js; run without -short")
	}
	env := newConformanceEnv(t)
	stable := sessiontest.ConformanceVersions[0]
	var runs []conformanceRun
	for range 10 {
		for _, sc := range []string{"elicitation-sep1034-client-defaults", "sse-retry"} {
			runs = append(runs, conformanceRun{version: stable, scenario: sc})
		}
	}
	results := env.runAll(t, runs)
	for i, r := range runs {
		logWarnings(t, r.name(), results[i])
		if o := results[i]; !o.Passed() {
			t.Errorf("run %d of %s failed (%d checks): %s\n%s", i/2+1, r.name(), o.Checks, o.Summary(), o.Log)
		}
	}
}

type conformanceEnv struct {
	suite    sessiontest.Conformance
	node     string
	mcpscope string
	cache    string // XDG_CACHE_HOME of the runs, so mcpscope's era cache stays in the test
}

func newConformanceEnv(t *testing.T) *conformanceEnv {
	t.Helper()
	for _, tool := range []string{"unshare", "ip"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is not on $PATH (%v): the conformance suite runs in a private network namespace (util-linux unshare, iproute2 ip)", tool, err)
		}
	}
	return &conformanceEnv{
		suite:    sessiontest.InstallConformance(t),
		node:     sessiontest.NodePath(t),
		mcpscope: sessiontest.BuildMCPScope(t),
		cache:    t.TempDir(),
	}
}

// node runs the suite's command line with args inside a private network namespace whose
// loopback is up, and returns its combined output.
func (e *conformanceEnv) suiteCmd(ctx context.Context, v sessiontest.ConformanceVersion, args ...string) *exec.Cmd {
	shim := filepath.Join(e.suite.Testdata, "node20.mjs")
	argv := append([]string{e.node, "--import", shim, e.suite.Suite(v)}, args...)
	script := `ip link set lo up && exec "$@"`
	cmd := exec.CommandContext(ctx, "unshare", append([]string{"-rn", "sh", "-c", script, "sh"}, argv...)...)
	cmd.Env = append(os.Environ(), "MCPSCOPE="+e.mcpscope, "XDG_CACHE_HOME="+e.cache, "NO_COLOR=1")
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

type clientScenario struct {
	name  string
	specs []string
}

var scenarioLine = regexp.MustCompile(`^\s+- (\S+) \[([^\]]*)\]`)

// listClientScenarios reads the client scenarios of suite v from its list command.
func (e *conformanceEnv) listClientScenarios(t *testing.T, v sessiontest.ConformanceVersion) []clientScenario {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := e.suiteCmd(ctx, v, "list").CombinedOutput()
	if err != nil {
		t.Fatalf("conformance %s list: %v\n%s", v.Version, err, out)
	}
	var list []clientScenario
	inClient := false
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, " ") {
			inClient = strings.HasPrefix(line, "Client scenarios")
			continue
		}
		if m := scenarioLine.FindStringSubmatch(line); inClient && m != nil {
			list = append(list, clientScenario{name: m[1], specs: strings.Split(m[2], ",")})
		}
	}
	if len(list) == 0 {
		t.Fatalf("conformance %s list shows no client scenario:\n%s", v.Version, out)
	}
	return list
}

// runAll runs every run, sessiontest.ConformanceWorkers at a time, and returns their outcomes in order.
func (e *conformanceEnv) runAll(t *testing.T, runs []conformanceRun) []sessiontest.ConformanceOutcome {
	t.Helper()
	results := make([]sessiontest.ConformanceOutcome, len(runs))
	work := make(chan int)
	var wg sync.WaitGroup
	for range sessiontest.ConformanceWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				results[i] = e.run(t, runs[i])
			}
		}()
	}
	for i := range runs {
		work <- i
	}
	close(work)
	wg.Wait()
	return results
}

// run runs one scenario with the adapter as the client and reads its checks.
func (e *conformanceEnv) run(t *testing.T, r conformanceRun) sessiontest.ConformanceOutcome {
	out, err := os.MkdirTemp(t.TempDir(), "run")
	if err != nil {
		return sessiontest.ConformanceOutcome{Log: err.Error()}
	}
	state, err := os.MkdirTemp(t.TempDir(), "state") // mcpscope's token store, per run
	if err != nil {
		return sessiontest.ConformanceOutcome{Log: err.Error()}
	}
	args := []string{"client", "--command", e.node + " " + filepath.Join(e.suite.Testdata, "adapter.mjs"),
		"--scenario", r.scenario, "-o", out, "--timeout", "30000"}
	if r.spec != "" {
		args = append(args, "--spec-version", r.spec)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	began := time.Now()
	cmd := e.suiteCmd(ctx, r.version, args...)
	cmd.Env = append(cmd.Env, "XDG_STATE_HOME="+state, "MCPSCOPE_TOKEN_STORE=file") // never the user's keyring
	log, _ := cmd.CombinedOutput()
	o := sessiontest.ConformanceOutcome{Log: "suite output:\n" + sessiontest.Tail(string(log), 40), Took: time.Since(began)}
	_ = filepath.WalkDir(out, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		switch d.Name() {
		case "checks.json":
			o.ReadChecks(path)
		case "stderr.txt":
			if b, err := os.ReadFile(path); err == nil {
				o.Log += "\nclient stderr:\n" + sessiontest.Tail(string(b), 40)
			}
		}
		return nil
	})
	return o
}

// logWarnings reports the acceptable warnings of a run.
func logWarnings(t *testing.T, name string, o sessiontest.ConformanceOutcome) {
	t.Helper()
	for _, w := range o.Warned {
		t.Logf("%s: warning the suite calls acceptable: %s", name, w)
	}
}

// readExpectedFailures reads the `- scenario` lines of the expected-failures file; a scenario
// may be qualified with the suite version it fails in (`- name@0.2.0-alpha.12`).
func readExpectedFailures(t *testing.T, path string) map[string]bool {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read expected failures: %v", err)
	}
	set := map[string]bool{}
	for n, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, ok := strings.CutPrefix(line, "- ")
		if !ok || strings.ContainsAny(strings.TrimSpace(name), " \t#") {
			t.Fatalf("%s:%d: want `- scenario`, got %q", path, n+1, line)
		}
		set[strings.TrimSpace(name)] = true
	}
	return set
}
