package cli_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// BenchmarkBigCall times `mcpscope call read_text_file` of a 20 MiB text file on the
// reference filesystem server over stdio (pinned in testdata/filesystem; the answer is about
// 21 MiB of JSON), side by side in the same run with its floor, testdata/callfloor: spawn,
// initialize, one tools/call, the answer decoded and written. Both write to a pipe that is
// read and discarded. Reported as medians: ratio is mcpscope's time over the floor's (target
// ≤ 1.3); MiB-peak-RSS is mcpscope's own high-water mark (VmHWM, not the server's) and
// rss-x-answer that over the answer's size (target ≤ 3).
func BenchmarkBigCall(b *testing.B) {
	bin, floor := sessiontest.BuildMCPScope(b), sessiontest.BuildCallFloor(b)
	node, fs := sessiontest.NodePath(b), sessiontest.Filesystem(b)
	dir := b.TempDir()
	file := filepath.Join(dir, "big.txt")
	if err := os.WriteFile(file, bigText(20<<20), 0o644); err != nil {
		b.Fatal(err)
	}
	env := append(os.Environ(), "XDG_CACHE_HOME="+b.TempDir(), "XDG_STATE_HOME="+b.TempDir())
	server := []string{node, fs, dir}
	mine := append([]string{bin, "call", "read_text_file", "path=" + file, "--"}, server...)
	theirs := append([]string{floor, "read_text_file", fmt.Sprintf(`{"path":%q}`, file)}, server...)
	var walls, floors []time.Duration
	var peak, answer int64
	for b.Loop() {
		took, _, n := runPeak(b, env, theirs)
		floors = append(floors, took)
		answer = n
		took, hwm, _ := runPeak(b, env, mine)
		walls = append(walls, took)
		peak = max(peak, hwm)
	}
	wall, fl := median(walls), median(floors)
	b.ReportMetric(ms(wall), "ms-mcpscope")
	b.ReportMetric(ms(fl), "ms-floor")
	b.ReportMetric(float64(wall)/float64(fl), "ratio")
	b.ReportMetric(float64(peak)/(1<<20), "MiB-peak-RSS")
	b.ReportMetric(float64(answer)/(1<<20), "MiB-answer")
	b.ReportMetric(float64(peak)/float64(answer), "rss-x-answer")
}

// runPeak runs args to their end with stdout read and discarded, and returns the wall time,
// the process's own peak resident memory (VmHWM, read from /proc while it runs) and how many
// bytes it wrote.
func runPeak(b *testing.B, env, args []string) (time.Duration, int64, int64) {
	b.Helper()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = env
	var out countWriter
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	var hwm atomic.Int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			_, h, ok := procMemory(cmd.Process.Pid)
			if !ok {
				return
			}
			hwm.Store(h)
			time.Sleep(5 * time.Millisecond)
		}
	}()
	err := cmd.Wait()
	took := time.Since(start)
	<-done
	if err != nil || out.n < 20<<20 {
		b.Fatalf("%v: %v, %d bytes out\n%.2000s", args[:3], err, out.n, stderr.String())
	}
	return took, hwm.Load(), out.n
}

type countWriter struct{ n int64 }

func (w *countWriter) Write(p []byte) (int, error) { w.n += int64(len(p)); return len(p), nil }

// bigText is n bytes of text that looks like source code: quotes, backslashes, tabs and
// newlines that a JSON string must escape, on lines of varied length (whole lines: at least
// n bytes).
func bigText(n int) []byte {
	lines := []string{
		"func (s *Server) handle(w http.ResponseWriter, r *http.Request) {",
		"\tif err := json.NewDecoder(r.Body).Decode(&req); err != nil {",
		"\t\thttp.Error(w, \"bad request: \\\"\"+err.Error()+\"\\\"\", 400)",
		"\t\treturn",
		"\t}",
		"\tpath := strings.ReplaceAll(req.Path, `\\`, \"/\") // Windows paths",
		"}",
		"",
		"// A comment with <html> & ampersands, 'single quotes' and unicode: héllo wörld ✓",
	}
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		b.WriteString(lines[i%len(lines)])
		b.WriteByte('\n')
	}
	return []byte(b.String())
}
