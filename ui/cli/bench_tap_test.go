package cli_test

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// BenchmarkTapStdio sends sequential pings to the demo server over stdio three ways in the
// same run: directly; through its floor, two extra pipe hops (sh -c 'cat | SERVER | cat');
// and through `mcpscope tap`, recording to a file as it does by default. Reported: the
// median round trip (us-p50-*) and pings a second (per-s-*) of each, and the tap's over the
// floor's (p50-ratio, target ≤ 1.15; rate-ratio, the floor's rate over the tap's, ≤ 1.15).
func BenchmarkTapStdio(b *testing.B) {
	bin := sessiontest.BuildMCPScope(b)
	dir := b.TempDir()
	env := append(os.Environ(), "XDG_RUNTIME_DIR="+dir, "XDG_STATE_HOME="+filepath.Join(dir, "state"),
		"XDG_CACHE_HOME="+filepath.Join(dir, "cache"), recordings.TapDirEnv+"="+filepath.Join(dir, "mcpscope"))
	const pings = 2000
	ways := []struct {
		name string
		args []string
	}{
		{"direct", []string{bin, "demo"}},
		{"floor", []string{"sh", "-c", "cat | '" + bin + "' demo | cat"}},
		{"tap", []string{bin, "tap", "--name", "bench", "--record", "", "--", bin, "demo"}},
	}
	runs := 0
	p50 := map[string][]time.Duration{}
	rate := map[string][]float64{}
	for b.Loop() {
		for _, w := range ways {
			if w.name == "tap" { // a new recording each run: the tap never overwrites one
				runs++
				w.args[5] = filepath.Join(dir, fmt.Sprintf("tap-%d.jsonl", runs))
			}
			lat, total := pingRun(b, env, w.args, pings)
			p50[w.name] = append(p50[w.name], median(lat))
			rate[w.name] = append(rate[w.name], pings/total.Seconds())
		}
	}
	for _, w := range ways {
		b.ReportMetric(float64(median(p50[w.name]).Nanoseconds())/1000, "us-p50-"+w.name)
		b.ReportMetric(medianF(rate[w.name]), "per-s-"+w.name)
	}
	b.ReportMetric(float64(median(p50["tap"]))/float64(median(p50["floor"])), "p50-ratio")
	b.ReportMetric(medianF(rate["floor"])/medianF(rate["tap"]), "rate-ratio")
}

// pingRun starts args as a stdio server, initializes it and sends n pings one after the
// other, each after the last answer; it returns each round trip and the time of all n.
func pingRun(b *testing.B, env, args []string, n int) ([]time.Duration, time.Duration) {
	b.Helper()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = env
	var stderr strings.Builder
	cmd.Stderr = &stderr
	in, _ := cmd.StdinPipe()
	outPipe, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	out := bufio.NewReader(outPipe)
	answer := func(id int) {
		want := fmt.Sprintf(`"id":%d`, id)
		for {
			line, err := out.ReadString('\n')
			if err != nil {
				b.Fatalf("%v: waiting for the answer to %d: %v\n%s", args, id, err, stderr.String())
			}
			if containsID(line, want) {
				return
			}
		}
	}
	fmt.Fprintln(in, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`)
	answer(0)
	fmt.Fprintln(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	lat := make([]time.Duration, 0, n)
	all := time.Now()
	for id := 1; id <= n; id++ {
		start := time.Now()
		fmt.Fprintf(in, `{"jsonrpc":"2.0","id":%d,"method":"ping"}`+"\n", id)
		answer(id)
		lat = append(lat, time.Since(start))
	}
	total := time.Since(all)
	in.Close()
	_, _ = io.Copy(io.Discard, outPipe)
	_ = cmd.Wait()
	return lat, total
}

func containsID(line, want string) bool {
	for i := 0; i+len(want) <= len(line); i++ {
		if line[i:i+len(want)] == want && (i+len(want) == len(line) || line[i+len(want)] < '0' || line[i+len(want)] > '9') {
			return true
		}
	}
	return false
}

func medianF(fs []float64) float64 {
	s := slices.Clone(fs)
	slices.Sort(s)
	return s[len(s)/2]
}
