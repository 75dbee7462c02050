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
// time each takes (target ≤ 2).
func BenchmarkStartup(b *testing.B) {
	bin := buildMCPScope(b)
	oneline := filepath.Join(b.TempDir(), "oneline")
	if out, err := exec.Command("go", "build", "-o", oneline, "./testdata/oneline").CombinedOutput(); err != nil {
		b.Fatalf("go build oneline: %v\n%s", err, out)
	}
	timed := func(args ...string) time.Duration {
		start := time.Now()
		out, err := exec.Command(args[0], args[1:]...).Output()
		took := time.Since(start)
		if err != nil || len(out) == 0 {
			b.Fatalf("%v: %v", args, err)
		}
		return took
	}
	var floor, version, help []time.Duration
	for b.Loop() {
		floor = append(floor, timed(oneline))
		version = append(version, timed(bin, "version"))
		help = append(help, timed(bin, "--help"))
	}
	med := func(ds []time.Duration) time.Duration {
		s := slices.Clone(ds)
		slices.Sort(s)
		return s[len(s)/2]
	}
	f, v, h := med(floor), med(version), med(help)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(f), "ms-oneline")
	b.ReportMetric(ms(v), "ms-version")
	b.ReportMetric(ms(h), "ms-help")
	b.ReportMetric(float64(v)/float64(f), "x-version")
	b.ReportMetric(float64(h)/float64(f), "x-help")
}
