package cli_test

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// BenchmarkTapHTTP sends sequential POSTs through `mcpscope tap --listen --upstream`
// (recording to a file, as it does by default) and, in the same run, through its floor,
// testdata/proxyfloor (a plain httputil.ReverseProxy), to an upstream that answers each with
// a JSON-RPC result of 1 KB or 1 MB, as application/json or as one text/event-stream event.
// Reported per case: the median round trip of each (us-p50-tap, us-p50-floor) and the tap's
// over the floor's (ratio; target ≤ 1.15).
func BenchmarkTapHTTP(b *testing.B) {
	bin, floor := sessiontest.BuildMCPScope(b), sessiontest.BuildProxyFloor(b)
	dir := b.TempDir()
	env := append(os.Environ(), "XDG_RUNTIME_DIR="+dir, "XDG_STATE_HOME="+filepath.Join(dir, "state"),
		"XDG_CACHE_HOME="+filepath.Join(dir, "cache"), recordings.TapDirEnv+"="+filepath.Join(dir, "mcpscope"))
	for _, size := range []int{1 << 10, 1 << 20} {
		for _, sse := range []bool{false, true} {
			body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":%q}]}}`, strings.Repeat("x", size))
			up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_, _ = io.Copy(io.Discard, r.Body)
				if sse {
					w.Header().Set("Content-Type", "text/event-stream")
					_, _ = io.WriteString(w, "event: message\ndata: "+body+"\n\n")
					return
				}
				w.Header().Set("Content-Type", "application/json")
				_, _ = io.WriteString(w, body)
			}))
			name := fmt.Sprintf("%dKB-json", size>>10)
			if sse {
				name = fmt.Sprintf("%dKB-sse", size>>10)
			}
			b.Run(name, func(b *testing.B) {
				runs := 0
				var taps, floors []time.Duration
				for b.Loop() {
					runs++
					rec := filepath.Join(dir, fmt.Sprintf("%s-%d.jsonl", name, runs))
					taps = append(taps, proxied(b, env, len(body), bin, "tap", "--listen", "127.0.0.1:0", "--upstream", up.URL+"/mcp",
						"--record", rec, "--name", "bench"))
					floors = append(floors, proxied(b, env, len(body), floor, up.URL+"/mcp"))
				}
				tp, fl := median(taps), median(floors)
				b.ReportMetric(float64(tp.Nanoseconds())/1000, "us-p50-tap")
				b.ReportMetric(float64(fl.Nanoseconds())/1000, "us-p50-floor")
				b.ReportMetric(float64(tp)/float64(fl), "ratio")
			})
			up.Close()
		}
	}
}

// proxied starts a proxy (args), waits for the address it listens on, sends it 200
// sequential POSTs over one keep-alive connection, each body read whole (want bytes at
// least), and returns the median round trip.
func proxied(b *testing.B, env []string, want int, args ...string) time.Duration {
	b.Helper()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = env
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	sc := bufio.NewScanner(stderr)
	var addr string
	for addr == "" && sc.Scan() {
		if m := regexp.MustCompile(`listening on (http://\S+)`).FindStringSubmatch(sc.Text()); m != nil {
			addr = strings.TrimRight(m[1], ".,;")
		}
	}
	if addr == "" {
		b.Fatalf("%v said nowhere it listens", args[:2])
	}
	var tail strings.Builder
	go func() {
		for sc.Scan() {
			if tail.Len() < 4096 {
				tail.WriteString(sc.Text() + "\n")
			}
		}
	}()
	c := &http.Client{Transport: &http.Transport{MaxConnsPerHost: 1}}
	req := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{}}}`)
	var lat []time.Duration
	for i := range 220 {
		start := time.Now()
		r, _ := http.NewRequest(http.MethodPost, addr, bytes.NewReader(req))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := c.Do(r)
		if err != nil {
			b.Fatalf("%v: %v", args[:2], err)
		}
		n, _ := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if n < int64(want) {
			time.Sleep(100 * time.Millisecond) // for the proxy's own words on stderr
			b.Fatalf("%v: %d bytes of %d (status %d)\n%s", args[:2], n, want, resp.StatusCode, tail.String())
		}
		if i >= 20 { // the first requests warm the connection and the caches
			lat = append(lat, time.Since(start))
		}
	}
	return median(lat)
}
