package main

import (
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// BenchmarkStartup times `mcpscope version` and `mcpscope --help`, process start to exit,
// beside the floor: testdata/oneline, a Go program that prints one line, run alternately in
// the same loop. Reported as medians; x-version and x-help are how many times the floor's
// time each takes (target ≤ 2). Beside them, testdata/onelinedeps: the one-line program
// with mcpscope's third-party packages linked and initialised (x-deps: its time over the
// floor's), what no change to mcpscope's own code can go under, and testdata/onelinereq:
// the same with only the libraries mcpscope must use (x-req).
func BenchmarkStartup(b *testing.B) {
	bin := buildMCPScope(b)
	build := func(name string) string {
		out := filepath.Join(b.TempDir(), name)
		if msg, err := exec.Command("go", "build", "-o", out, "./testdata/"+name).CombinedOutput(); err != nil {
			b.Fatalf("go build %s: %v\n%s", name, err, msg)
		}
		return out
	}
	oneline, onelineDeps, onelineReq := build("oneline"), build("onelinedeps"), build("onelinereq")
	timed := func(args ...string) time.Duration {
		start := time.Now()
		out, err := exec.Command(args[0], args[1:]...).Output()
		took := time.Since(start)
		if err != nil || len(out) == 0 {
			b.Fatalf("%v: %v", args, err)
		}
		return took
	}
	var floor, req, deps, version, help []time.Duration
	for b.Loop() {
		floor = append(floor, timed(oneline))
		req = append(req, timed(onelineReq))
		deps = append(deps, timed(onelineDeps))
		version = append(version, timed(bin, "version"))
		help = append(help, timed(bin, "--help"))
	}
	med := func(ds []time.Duration) time.Duration {
		s := slices.Clone(ds)
		slices.Sort(s)
		return s[len(s)/2]
	}
	f, d, v, h := med(floor), med(deps), med(version), med(help)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(f), "ms-oneline")
	b.ReportMetric(ms(med(req)), "ms-onelinereq")
	b.ReportMetric(float64(med(req))/float64(f), "x-req")
	b.ReportMetric(ms(d), "ms-onelinedeps")
	b.ReportMetric(float64(d)/float64(f), "x-deps")
	b.ReportMetric(ms(v), "ms-version")
	b.ReportMetric(ms(h), "ms-help")
	b.ReportMetric(float64(v)/float64(f), "x-version")
	b.ReportMetric(float64(h)/float64(f), "x-help")
	// The package initialisation's clock: the sum over packages of each one's fastest of
	// five runs (TestInitBudget asserts its bytes and allocations, which do not vary).
	initTotal, _ := leastInitCosts(b, bin, 5)
	b.ReportMetric(initTotal.clock, "init-ms")
}
