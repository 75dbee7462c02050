package main

import (
	"bufio"
	"bytes"
	"cmp"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The package initialisation of the mcpscope binary, as GODEBUG=inittrace=1 reports it.
// Every command pays it, `mcpscope version` included, so a dependency that does work when
// the program starts (registers hundreds of lexers, compiles meta-schemas, parses an
// embedded vocabulary) costs every user on every run. Bytes and allocations are the steady
// measures (the same on a loaded machine), so they are what the test asserts; the clock is
// reported by BenchmarkStartup (init-ms), never asserted. The count of packages that have
// work to do at start catches a dependency that brings dozens of them (OpenTelemetry's SDK,
// gRPC and protobuf were 87). Measured on a 2-core machine: 162 packages, 2.26 MB, of which
// the JSON Schema validator is 1.70 MB.
//
// The validator (santhosh-tekuri/jsonschema v6.0.3) compiles the meta-schemas of its five
// drafts in an init function: 1,700,672 bytes in 21,279 allocations, measured. The forms,
// `check` and the demo server need it, and Go initialises every package the binary links, so
// the budget pays for it, and only for it: the rest of mcpscope keeps its 700 KiB.
const (
	initBudgetPackages   = 180
	jsonschemaInitBytes  = 1_700_672
	jsonschemaInitAllocs = 21_279
	initBudgetBytes      = 700<<10 + jsonschemaInitBytes
	initBudgetAllocs     = 4000 + jsonschemaInitAllocs
)

// initCost is one package's initialisation.
type initCost struct {
	pkg    string
	clock  float64 // ms
	bytes  int64
	allocs int64
}

// parseInitTrace reads GODEBUG=inittrace=1 lines:
// "init PKG @0.5 ms, 0.031 ms clock, 2344 bytes, 6 allocs". Other lines are skipped.
func parseInitTrace(out []byte) ([]initCost, error) {
	var costs []initCost
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 11 || f[0] != "init" || f[6] != "clock," || f[8] != "bytes," || f[10] != "allocs" {
			continue
		}
		clock, err1 := strconv.ParseFloat(f[4], 64)
		b, err2 := strconv.ParseInt(f[7], 10, 64)
		a, err3 := strconv.ParseInt(f[9], 10, 64)
		if err := cmp.Or(err1, err2, err3); err != nil {
			return nil, fmt.Errorf("inittrace line %q: %w", sc.Text(), err)
		}
		costs = append(costs, initCost{f[1], clock, b, a})
	}
	return costs, sc.Err()
}

func TestParseInitTrace(t *testing.T) {
	out := []byte("mcpscope 0.1.0\ninit runtime @0.044 ms, 0.35 ms clock, 0 bytes, 0 allocs\n" +
		"init github.com/alecthomas/chroma/v2/lexers @5.1 ms, 5.4 ms clock, 2736704 bytes, 31428 allocs\n")
	got, err := parseInitTrace(out)
	want := []initCost{{"runtime", 0.35, 0, 0}, {"github.com/alecthomas/chroma/v2/lexers", 5.4, 2736704, 31428}}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("parseInitTrace = %v, %v; want %v", got, err, want)
	}
}

// buildMCPScope builds the module's main package into a temporary directory.
func buildMCPScope(t testing.TB) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "mcpscope")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestInitBudget fails when the package initialisation of the built binary grows past its
// budget, naming the packages that cost the most: a new import that does work at start is
// caught when it lands. Each package's cost is its least over a few runs, so a run slowed
// by other work on the machine does not count.
func TestInitBudget(t *testing.T) {
	total, all := leastInitCosts(t, buildMCPScope(t), 3)
	t.Logf("package init: %d packages, %.2f ms, %d bytes, %d allocations", len(all), total.clock, total.bytes, total.allocs)
	if len(all) > initBudgetPackages {
		t.Errorf("%d packages of mcpscope do work at start (budget %d): a new dependency brings packages with init work; "+
			"import it only where it is used, or do without it", len(all), initBudgetPackages)
	}
	for _, c := range all {
		// A few hundred bytes come and go with the binary's layout (map buckets, string
		// headers): 1% of slack; a new version of the library costs far more.
		if c.pkg == "github.com/santhosh-tekuri/jsonschema/v6" && (c.bytes > jsonschemaInitBytes*101/100 || c.allocs > jsonschemaInitAllocs*101/100) {
			t.Errorf("the JSON Schema validator's init is %d bytes in %d allocations, past the %d and %d the budget pays "+
				"for it: measure the new version and say so beside the budget", c.bytes, c.allocs, jsonschemaInitBytes, jsonschemaInitAllocs)
		}
	}
	if total.bytes <= initBudgetBytes && total.allocs <= initBudgetAllocs {
		return
	}
	heaviest := func(by func(a, b initCost) int) string {
		slices.SortFunc(all, by)
		var b strings.Builder
		for _, c := range all[:min(6, len(all))] {
			fmt.Fprintf(&b, "\n  %-60s %7.3f ms %9d bytes %6d allocs", c.pkg, c.clock, c.bytes, c.allocs)
		}
		return b.String()
	}
	t.Errorf("package init of mcpscope is %d bytes in %d allocations (budget %d bytes, %d allocations): "+
		"a package does work when the program starts; build it on first use instead.\nby bytes:%s\nby allocations:%s",
		total.bytes, total.allocs, initBudgetBytes, initBudgetAllocs,
		heaviest(func(a, b initCost) int { return cmp.Compare(b.bytes, a.bytes) }),
		heaviest(func(a, b initCost) int { return cmp.Compare(b.allocs, a.allocs) }))
}

// leastInitCosts runs `bin version` with GODEBUG=inittrace=1 the given number of times and
// returns each package's least cost over the runs, and their sum.
func leastInitCosts(tb testing.TB, bin string, runs int) (initCost, []initCost) {
	tb.Helper()
	least := map[string]initCost{}
	for range runs {
		cmd := exec.Command(bin, "version")
		cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			tb.Fatalf("mcpscope version: %v\n%s", err, stderr.String())
		}
		costs, err := parseInitTrace(stderr.Bytes())
		if err != nil || len(costs) < 10 {
			tb.Fatalf("GODEBUG=inittrace=1 gave %d package lines (%v):\n%s", len(costs), err, stderr.String())
		}
		for _, c := range costs {
			if l, ok := least[c.pkg]; ok {
				c.clock, c.bytes, c.allocs = min(c.clock, l.clock), min(c.bytes, l.bytes), min(c.allocs, l.allocs)
			}
			least[c.pkg] = c
		}
	}
	var total initCost
	all := make([]initCost, 0, len(least))
	for _, c := range least {
		total.clock += c.clock
		total.bytes += c.bytes
		total.allocs += c.allocs
		all = append(all, c)
	}
	return total, all
}
