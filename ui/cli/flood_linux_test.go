//go:build linux

package cli_test

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/ui/cli"
)

// pingFloodRun is one run of mcpscope against a server that floods it with pings and never
// reads its stdin again.
type pingFloodRun struct {
	stderr string
	code   int
	vmHWM  int64 // peak RSS in bytes from /proc/PID/status, last read before exit
	maxRSS int64 // peak RSS in bytes from the exit's rusage
}

// pingFlood runs `mcpscope call pingflood` with count pings and the deaf server, sampling
// /proc/PID/status until the process exits.
func pingFlood(t testing.TB, count int) pingFloodRun {
	t.Helper()
	bin, bad := sessiontest.BuildMCPScope(t), sessiontest.BuildBadServer(t)
	cmd := exec.Command(bin, "call", "pingflood", "--args", fmt.Sprintf(`{"count":%d,"deaf":true}`, count),
		"--timeout", "4s", "--grace", "100ms", "--", bad)
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	var run pingFloodRun
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(90 * time.Second)
	for done := false; !done; {
		select {
		case err := <-exited:
			if _, ok := err.(*exec.ExitError); err != nil && !ok {
				t.Fatal(err)
			}
			done = true
		case <-tick.C:
			if hwm, ok := vmHWM(cmd.Process.Pid); ok {
				run.vmHWM = hwm
			}
		case <-deadline:
			cmd.Process.Kill()
			t.Fatalf("mcpscope did not finish within 90s; stderr:\n%s", errOut.String())
		}
	}
	run.stderr, run.code = errOut.String(), cmd.ProcessState.ExitCode()
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		run.maxRSS = ru.Maxrss << 10
	}
	return run
}

// vmHWM reads a process's peak resident set size.
func vmHWM(pid int) (int64, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, false
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10, err == nil
		}
	}
	return 0, false
}

// TestPingFloodBounded: 300,000 pings from a server that does not read its stdin leave
// mcpscope under 512 MB, and are reported as one flood with its counts.
func TestPingFloodBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("300,000 requests through the real binary")
	}
	r := pingFlood(t, 300000)
	t.Logf("peak RSS: VmHWM %d MB, rusage %d MB", r.vmHWM>>20, r.maxRSS>>20)
	if r.code != cli.ExitTimeout {
		t.Errorf("exit %d, want %d (the call is never answered)\n%s", r.code, cli.ExitTimeout, r.stderr)
	}
	// VmHWM is mcpscope's own high-water mark. The exit's rusage is logged only: it also
	// counts the descendants mcpscope waited for (the flooding server, whose own buffers
	// grow when a loaded machine schedules it ahead of mcpscope).
	if r.vmHWM == 0 || r.vmHWM > 512<<20 {
		t.Errorf("peak RSS: VmHWM %d bytes; want under 512 MB", r.vmHWM)
	}
	// The flood report is one line; the findings line at the end names the code once more.
	if n := strings.Count(r.stderr, protocol.FindRequestFlood+": "); n != 1 ||
		!strings.Contains(r.stderr, "requests while not reading its stdin: ") || !strings.Contains(r.stderr, "refused with error -32000") {
		t.Errorf("want one flood report on stderr, got %d:\n%s", n, r.stderr)
	}
}

// BenchmarkPingFloodRSS prints mcpscope's peak RSS while a server sends 300,000 pings and
// does not read its stdin: go test ./ui/cli -run '^$' -bench PingFloodRSS -benchtime 1x
func BenchmarkPingFloodRSS(b *testing.B) {
	var peak int64
	for b.Loop() {
		r := pingFlood(b, 300000)
		peak = max(peak, r.vmHWM) // mcpscope's own (rusage counts the server too)
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-RSS-MB")
}
