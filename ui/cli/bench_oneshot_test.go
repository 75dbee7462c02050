package cli_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/session/demo"
	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// serverClock sums the demo server's own handling time of the HTTP requests it serves.
type serverClock struct {
	mu  sync.Mutex
	sum time.Duration
	n   int
}

func (c *serverClock) add(_ *http.Request, took time.Duration) {
	c.mu.Lock()
	c.sum += took
	c.n++
	c.mu.Unlock()
}

func (c *serverClock) take() (time.Duration, int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	sum, n := c.sum, c.n
	c.sum, c.n = 0, 0
	return sum, n
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// BenchmarkOneShot times `mcpscope list tools --url` against the demo server over
// Streamable HTTP from process start to exit, and sets it against what it cannot go below:
// the server's own handling time of the same requests (measured in the server) plus the
// start and exit of the process (`mcpscope version`). The official Inspector's CLI (pinned
// in testdata/inspector) lists the tools of the same server in the same run. Reported as
// medians: ratio is mcpscope's time over server time plus process start (target ≤ 1.3),
// inspector-x how many times longer the Inspector takes (target ≥ 15).
func BenchmarkOneShot(b *testing.B) {
	bin := sessiontest.BuildMCPScope(b)
	node, inspector := sessiontest.NodePath(b), sessiontest.Inspector(b)
	clock := &serverClock{}
	srv := httptest.NewServer(demo.Timed(demo.Handler(io.Discard), clock.add))
	b.Cleanup(func() { srv.CloseClientConnections(); srv.Close() })
	url := srv.URL + "/mcp"
	timed := func(args ...string) time.Duration {
		start := time.Now()
		out, err := exec.Command(args[0], args[1:]...).Output()
		took := time.Since(start)
		if err != nil || len(out) < 100 {
			b.Fatalf("%v: %v (%d bytes)", args, err, len(out))
		}
		return took
	}
	for _, era := range []struct{ name, protocol string }{{"auto", "auto"}, {"stateful", "2025-11-25"}} {
		b.Run(era.name, func(b *testing.B) {
			timed(bin, "list", "tools", "--protocol", era.protocol, "--url", url) // learns the era
			clock.take()
			var walls, servers, starts, insp []time.Duration
			requests := 0
			for b.Loop() {
				start := time.Now()
				if err := exec.Command(bin, "version").Run(); err != nil {
					b.Fatal(err)
				}
				starts = append(starts, time.Since(start))
				walls = append(walls, timed(bin, "list", "tools", "--protocol", era.protocol, "--url", url))
				sum, n := clock.take()
				servers, requests = append(servers, sum), n
				insp = append(insp, timed(node, inspector, "--cli", url, "--transport", "http", "--method", "tools/list"))
				clock.take()
			}
			wall, server, pstart, in := median(walls), median(servers), median(starts), median(insp)
			b.ReportMetric(ms(wall), "ms-mcpscope")
			b.ReportMetric(ms(server), "ms-server")
			b.ReportMetric(ms(pstart), "ms-process-start")
			b.ReportMetric(float64(wall)/float64(server+pstart), "ratio")
			b.ReportMetric(ms(in), "ms-inspector")
			b.ReportMetric(float64(in)/float64(wall), "inspector-x")
			b.ReportMetric(float64(requests), "http-requests")
		})
	}
}
