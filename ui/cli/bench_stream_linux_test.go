package cli_test

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// bigRecordingSize is the size of the recording the streaming benchmarks replay and mock.
const bigRecordingSize = 1 << 30

// bigRecording returns a recording of at least 1 GiB of echo calls of the demo server
// (distinct 2 KB texts), made once in the user cache directory from a real recorded call
// whose request and response are repeated with new numbers, ids and sequence numbers.
func bigRecording(b *testing.B, bin string) (path string, calls int) {
	b.Helper()
	dir := sessiontest.CacheDir(b, "recordings")
	path = filepath.Join(dir, "echo-1GiB-v1.jsonl")
	if n, err := os.ReadFile(path + ".calls"); err == nil {
		if _, err := fmt.Sscan(string(n), &calls); err == nil {
			return path, calls
		}
	}
	seed := filepath.Join(b.TempDir(), "seed.jsonl")
	text := "call 00000000 " + strings.Repeat("0123456789abcdef", 128)
	if out, err := exec.Command(bin, "--protocol", "2025-11-25", "--no-listen", "--record", seed, "call", "echo", "text="+text).CombinedOutput(); err != nil {
		b.Fatalf("record the seed: %v\n%s", err, out)
	}
	r, err := recordings.Open(seed)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	var head, tail []*session.Event
	var req, resp *session.Event
	for i := 0; i < r.Len(); i++ {
		e, err := r.Event(i)
		if err != nil {
			b.Fatal(err)
		}
		switch {
		case e.Kind == session.EvFrame && e.Frame.Method == "tools/call" && e.Frame.Kind == protocol.KindRequest:
			req = e
		case e.Kind == session.EvFrame && req != nil && e.Corr.RequestSeq == req.Seq:
			resp = e
		case req == nil:
			head = append(head, e)
		case resp != nil:
			tail = append(tail, e)
		}
	}
	if req == nil || resp == nil {
		b.Fatal("the seed recording holds no echo call")
	}
	tmp := path + ".tmp"
	os.Remove(tmp)
	w, err := recordings.Create(tmp, r.Header(), recordings.Options{})
	if err != nil {
		b.Fatal(err)
	}
	seq := uint64(0)
	write := func(e *session.Event) {
		seq++
		c := *e
		c.Seq = seq
		if err := w.Write(&c); err != nil {
			b.Fatal(err)
		}
	}
	for _, e := range head {
		write(e)
	}
	oldID := fmt.Sprintf(`"id":%s,`, req.Frame.ID.Raw)
	var written int64
	for n := 1; written < bigRecordingSize; n++ {
		num, id := fmt.Sprintf("call %08d", n), fmt.Sprintf(`"id":%d,`, 100+n)
		for _, e := range []*session.Event{req, resp} {
			raw := strings.Replace(strings.ReplaceAll(string(e.Frame.Raw), "call 00000000", num), oldID, id, 1)
			c := *e
			c.Frame = protocol.Decode([]byte(raw))
			c.Recv.Size = int64(len(raw))
			if e == resp {
				c.Corr.RequestSeq = seq
			}
			write(&c)
			written += int64(2*len(raw)) + 250
		}
		calls = n
	}
	for _, e := range tail {
		write(e)
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(path+".calls", []byte(fmt.Sprint(calls)), 0o644); err != nil {
		b.Fatal(err)
	}
	return path, calls
}

// runMeasured runs cmd to its end and returns its wall time and peak resident memory.
func runMeasured(b *testing.B, cmd *exec.Cmd) (time.Duration, int64, string) {
	b.Helper()
	var out strings.Builder
	cmd.Stdout = &out
	start := time.Now()
	err := cmd.Run()
	took := time.Since(start)
	if err != nil {
		b.Fatalf("%v: %v\n%.2000s", cmd.Args, err, out.String())
	}
	ru, _ := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	return took, ru.Maxrss << 10, out.String()
}

// sameRows reads the replay report's summary: how many requests were the same.
var sameRows = regexp.MustCompile(`(\d+) requests replayed \(handshake included\): (\d+) same;`)

func checkAllSame(b *testing.B, out string, calls int) {
	b.Helper()
	m := sameRows.FindStringSubmatch(out)
	var total, same int
	if m != nil {
		fmt.Sscan(m[1], &total)
		fmt.Sscan(m[2], &same)
	}
	if m == nil || total != same || total < calls {
		b.Fatalf("the replay did not answer every request as recorded:\n%.2000s", out[max(0, len(out)-2000):])
	}
}

// BenchmarkReplay1GiB replays a 1 GiB recording (the echo calls of bigRecording) against the
// demo server: wall time, throughput and the replaying process's peak resident memory.
func BenchmarkReplay1GiB(b *testing.B) {
	bin := sessiontest.BuildMCPScope(b)
	path, calls := bigRecording(b, bin)
	st, _ := os.Stat(path)
	for b.Loop() {
		took, rss, out := runMeasured(b, exec.Command(bin, "replay", path, "--", bin, "demo"))
		checkAllSame(b, out, calls)
		b.ReportMetric(took.Seconds(), "s")
		b.ReportMetric(float64(rss)/(1<<20), "MiB-peak-RSS")
		b.ReportMetric(float64(calls)/took.Seconds(), "calls/s")
		b.ReportMetric(float64(st.Size())/(1<<20)/took.Seconds(), "MiB/s")
	}
}

// BenchmarkMock1GiB serves the same recording with `mock --http` and replays it against
// the mock: the mock's time to serve, its peak resident memory and the replay's.
func BenchmarkMock1GiB(b *testing.B) {
	bin := sessiontest.BuildMCPScope(b)
	path, calls := bigRecording(b, bin)
	st, _ := os.Stat(path)
	for b.Loop() {
		mock := exec.Command(bin, "mock", path, "--http", "127.0.0.1:0")
		stderr, err := mock.StderrPipe()
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		if err := mock.Start(); err != nil {
			b.Fatal(err)
		}
		br := bufio.NewReader(stderr)
		var url string
		for url == "" {
			line, err := br.ReadString('\n')
			if err != nil {
				b.Fatalf("mock: %v", err)
			}
			if i := strings.Index(line, "http://"); i >= 0 {
				url = strings.Fields(line[i:])[0]
			}
		}
		ready := time.Since(start)
		go io.Copy(io.Discard, br) // the mock logs every message it handles
		took, rss, out := runMeasured(b, exec.Command(bin, "replay", path, "--url", url))
		checkAllSame(b, out, calls)
		_ = mock.Process.Signal(os.Interrupt)
		_ = mock.Wait()
		ru, _ := mock.ProcessState.SysUsage().(*syscall.Rusage)
		b.ReportMetric(ready.Seconds(), "s-mock-ready")
		b.ReportMetric(took.Seconds(), "s-replay")
		b.ReportMetric(float64(ru.Maxrss<<10)/(1<<20), "MiB-mock-peak-RSS")
		b.ReportMetric(float64(rss)/(1<<20), "MiB-replay-peak-RSS")
		b.ReportMetric(float64(calls)/took.Seconds(), "calls/s")
		b.ReportMetric(float64(st.Size())/(1<<20)/took.Seconds(), "MiB/s")
	}
}
