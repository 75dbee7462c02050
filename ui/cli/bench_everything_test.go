package cli_test

import (
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// BenchmarkOneShotEverything times `mcpscope list tools --url` against the reference
// server (@modelcontextprotocol/server-everything, Streamable HTTP, pinned in
// testdata/everything) from process start to exit, side by side in the same run with:
//   - the floor, testdata/oneshotfloor: the four requests the command needs (initialize,
//     notifications/initialized, tools/list, DELETE) over one keep-alive connection;
//   - process start, `mcpscope version`;
//   - the official Inspector's CLI (pinned in testdata/inspector) listing the same tools.
//
// Reported as medians: ratio is mcpscope's time over floor plus process start (target
// ≤ 1.3), inspector-x how many times longer the Inspector takes (target ≥ 20). The era is
// learnt before the timed runs, as a user's second run finds it cached.
func BenchmarkOneShotEverything(b *testing.B) {
	bin, floor := sessiontest.BuildMCPScope(b), sessiontest.BuildOneShotFloor(b)
	node, inspector := sessiontest.NodePath(b), sessiontest.Inspector(b)
	url := sessiontest.StartEverythingHTTP(b, "streamableHttp") + "/mcp"
	env := append(os.Environ(), "XDG_CACHE_HOME="+b.TempDir(), "XDG_STATE_HOME="+b.TempDir())
	timed := func(args ...string) time.Duration {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Env = env
		start := time.Now()
		out, err := cmd.Output()
		took := time.Since(start)
		if err != nil || len(out) < 10 {
			b.Fatalf("%v: %v (%d bytes)", args, err, len(out))
		}
		return took
	}
	list := []string{bin, "list", "tools", "--url", url}
	timed(list...) // learns the era
	var floors, starts, walls, insp []time.Duration
	for b.Loop() {
		floors = append(floors, timed(floor, url))
		starts = append(starts, timed(bin, "version"))
		walls = append(walls, timed(list...))
		insp = append(insp, timed(node, inspector, "--cli", url, "--transport", "http", "--method", "tools/list"))
	}
	wall, fl, start, in := median(walls), median(floors), median(starts), median(insp)
	b.ReportMetric(ms(wall), "ms-mcpscope")
	b.ReportMetric(ms(fl), "ms-floor")
	b.ReportMetric(ms(start), "ms-process-start")
	b.ReportMetric(float64(wall)/float64(fl+start), "ratio")
	b.ReportMetric(ms(in), "ms-inspector")
	b.ReportMetric(float64(in)/float64(wall), "inspector-x")
}
