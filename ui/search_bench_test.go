package ui

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// searchBenchSize is the size of the recording BenchmarkSearch1GB filters.
const searchBenchSize = 1 << 30

// searchBenchRecording is a recording of about 1 GB of mixed traffic written with the real
// Writer, with, near the start, in the middle and at the end, a tools/list exchange and a
// call of the tool "rare" that reports progress and answers after 2.5 s. It is written
// once into the user cache directory and reused (its name says what it holds).
func searchBenchRecording(b *testing.B) string {
	b.Helper()
	dir, err := os.UserCacheDir()
	if err != nil {
		b.Skip("no user cache directory:", err)
	}
	dir = filepath.Join(dir, "mcpscope-test")
	path := filepath.Join(dir, "search-1GiB-v2.jsonl")
	if st, err := os.Stat(path); err == nil && st.Size() >= searchBenchSize {
		return path
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	tmp := path + ".part"
	w, err := recordings.Create(tmp, recordings.Header{Server: "bench", Transport: "stdio"}, recordings.Options{Overwrite: true})
	if err != nil {
		b.Fatal(err)
	}
	wire := newEvWire()
	write := func(evs []*session.Event) {
		for _, e := range evs {
			if err := w.WriteGen(e, 1); err != nil {
				b.Fatal(err)
			}
		}
	}
	list := func() {
		r := wire.req(dirOut, 1_000_000+int(wire.seq), "tools/list", `{}`)
		write([]*session.Event{r, wire.res(2*time.Millisecond, r, `{"tools":[{"name":"slow","inputSchema":{"type":"object"}}]}`)})
		c := wire.req(dirOut, 1_000_000+int(wire.seq), "tools/call", `{"name":"rare","arguments":{},"_meta":{"progressToken":"r"}}`)
		write([]*session.Event{c, wire.progress(c, 1, 2, "half"), wire.res(2500*time.Millisecond, c, `{"content":[]}`)})
	}
	written, middle := int64(0), false
	write(mixedTraffic(wire, 1000))
	list()
	for written < searchBenchSize {
		write(mixedTraffic(wire, 10_000))
		st, err := os.Stat(tmp)
		if err != nil {
			b.Fatal(err)
		}
		written = st.Size()
		if !middle && written > searchBenchSize/2 {
			list()
			middle = true
		}
	}
	list()
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkSearch1GB filters a 1 GB recording as the opened view does (the parallel
// search with its byte prefilter, after the pass of each term that needs the rows around
// an event), side by side in the same run with a plain line-by-line bytes.Index scan of the
// same file, and reports both throughputs and their ratio, the time to the first match, the
// peak resident memory during the search (VmHWM, reset first), and mcpscope stats over the
// same file. Queries: method:=tools/list (a literal), tool:=rare (a tool's calls and their
// answers), slow:>2s (latency, from the answers), has:progress tool:=rare (two passes).
// The file is read from the page cache: the baseline runs first and warms it. Run it once:
// -benchtime 1x.
func BenchmarkSearch1GB(b *testing.B) {
	path := searchBenchRecording(b)
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	size := float64(st.Size())
	r, err := recordings.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	queries := []struct {
		name, q string
		want    int // matches
	}{
		{"", "method:=tools/list", 0}, // as many as the line scan finds
		{"tool-", "tool:=rare", 6},
		{"slow-", "slow:>2s", 6},
		{"progress-", "has:progress tool:=rare", 3},
	}
	type run struct {
		search, first time.Duration
		hwm           int64
		found         int
	}
	runs := make([]run, len(queries))
	var base, stats time.Duration
	var baseFound int
	for b.Loop() {
		start := time.Now()
		baseFound = indexLineScan(b, path, []byte(`"method":"tools/list"`))
		base = time.Since(start)
		for k, q := range queries {
			runtime.GC()
			resetPeakRSS()
			start = time.Now()
			ch := make(chan openSearchMsg, 1)
			go runSearch(context.Background(), r, 0, &Timeline{query: traffic.ParseQuery(q.q)}, ch)
			run := run{}
			for msg := range ch {
				if len(msg.matches) > 0 && run.first == 0 {
					run.first = time.Since(start)
				}
				run.found += len(msg.matches)
				if msg.err != nil {
					b.Fatal(msg.err)
				}
			}
			run.search = time.Since(start)
			run.hwm = peakRSS()
			runs[k] = run
		}
		start = time.Now()
		if _, err := r.Stats(context.Background(), nil); err != nil {
			b.Fatal(err)
		}
		stats = time.Since(start)
	}
	mbps := func(d time.Duration) float64 { return size / 1e6 / d.Seconds() }
	b.ReportMetric(size/1e6, "file-MB")
	b.ReportMetric(float64(r.Len()), "events")
	b.ReportMetric(mbps(base), "baseline-MB/s")
	for k, q := range queries {
		run := runs[k]
		want := q.want
		if want == 0 {
			want = baseFound
		}
		if run.found != want || run.found == 0 {
			b.Fatalf("%s: the search found %d rows, want %d", q.q, run.found, want)
		}
		b.ReportMetric(float64(run.found), q.name+"matches")
		b.ReportMetric(mbps(run.search), q.name+"search-MB/s")
		b.ReportMetric(run.search.Seconds()/base.Seconds(), q.name+"ratio")
		b.ReportMetric(float64(run.first.Microseconds())/1000, q.name+"first-match-ms")
		b.ReportMetric(float64(run.search.Microseconds())/1000, q.name+"search-ms")
		b.ReportMetric(float64(run.hwm)/(1<<20), q.name+"peak-RSS-MiB")
	}
	b.ReportMetric(mbps(stats), "stats-MB/s")
}

// indexLineScan is the baseline: every line of the file read in turn and searched with
// bytes.Index. It returns the number of lines that hold needle.
func indexLineScan(b *testing.B, path string, needle []byte) int {
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	n := 0
	for sc.Scan() {
		if bytes.Contains(sc.Bytes(), needle) {
			n++
		}
	}
	if err := sc.Err(); err != nil {
		b.Fatal(err)
	}
	return n
}

// resetPeakRSS starts the process's peak resident memory (VmHWM) again from its current
// size (Linux; elsewhere nothing).
func resetPeakRSS() { _ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

// peakRSS is the process's peak resident memory in bytes (VmHWM; 0 where unknown).
func peakRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}
