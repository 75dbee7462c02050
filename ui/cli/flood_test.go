package cli_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// throttled reads r at about rate bytes a second: a consumer slower than the flood.
type throttled struct {
	r    io.Reader
	rate int
}

func (t throttled) Read(p []byte) (int, error) {
	n, err := t.r.Read(p[:min(len(p), 64<<10)])
	time.Sleep(time.Duration(n) * time.Second / time.Duration(t.rate)) // the pace, not a wait for anything
	return n, err
}

// floodRun is mcpscope run against the badserver's flood tool with --trace read through a
// throttled pipe.
type floodRun struct {
	cmd    *exec.Cmd
	stdout bytes.Buffer
	trace  io.Reader
}

// startFlood starts mcpscope with args (before "--" and the badserver), its stderr (the
// trace) readable at rate bytes a second from run.trace.
func startFlood(t testing.TB, ctx context.Context, rate int, args ...string) *floodRun {
	t.Helper()
	bin, bad := sessiontest.BuildMCPScope(t), sessiontest.BuildBadServer(t)
	fr := &floodRun{cmd: exec.CommandContext(ctx, bin, append(args, "--", bad)...)}
	fr.cmd.Stdout = &fr.stdout
	pipe, err := fr.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	fr.trace = throttled{pipe, rate}
	if err := fr.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return fr
}

// traceAccount reads a whole trace and checks that its events and gap lines account for
// every seq from 1 to the last exactly once, each gap's counts matching its range. It
// returns the number of events written, the gaps and the other (non-JSON) lines.
func traceAccount(t testing.TB, r io.Reader) (events int, gaps []session.Gap, other []string) {
	t.Helper()
	br := bufio.NewReaderSize(r, 1<<20)
	var next uint64 = 1
	cut := false // the last line was cut, not JSON
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			if line[0] != '{' {
				other = append(other, string(line))
			} else {
				var j session.EventJSON
				if err := json.Unmarshal(line, &j); err != nil {
					// Only the line the drain's end cut may be broken, and a gap line
					// that counts its event must follow it.
					if cut {
						t.Fatalf("two broken trace lines in a row: %v: %.200s", err, line)
					}
					cut = true
					continue
				}
				if cut && (j.Kind != "gap" || j.Gap == nil || j.Gap.FirstSeq != next) {
					t.Fatalf("a cut trace line is not followed by the gap line counting its event (seq %d): %.200s", next, line)
				}
				cut = false
				switch {
				case j.Kind == "gap":
					g := j.Gap
					if g == nil || j.Seq != 0 || g.FirstSeq != next || g.Events != g.LastSeq-g.FirstSeq+1 || g.Bytes <= 0 {
						t.Fatalf("gap line %s: want a gap from seq %d with exact counts", line, next)
					}
					if want := g.String(); j.Text != want {
						t.Errorf("gap text %q, want %q", j.Text, want)
					}
					gaps = append(gaps, *g)
					next = g.LastSeq + 1
				case j.Seq != next:
					t.Fatalf("trace event seq %d where %d was due, with no gap line between", j.Seq, next)
				default:
					events++
					next++
				}
			}
		}
		if err == io.EOF {
			if cut {
				t.Fatal("the trace ends in a cut line with no gap line after it")
			}
			return events, gaps, other
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestTraceFloodGapsAndLosslessRecording floods 64 KiB notifications through mcpscope while
// --trace goes to a reader at 4 MB/s: the trace shows gap lines whose counts, with the
// events written, account for every seq exactly; the recording of the same run has every
// event, because the recorder slows the server down instead of dropping.
func TestTraceFloodGapsAndLosslessRecording(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	rec := filepath.Join(t.TempDir(), "flood.jsonl")
	const count = 1500
	fr := startFlood(t, ctx, 4<<20, "--trace", "--event-buffer", "4MiB", "--record", rec,
		"call", "flood", "size=65536", "count="+strconv.Itoa(count))
	events, gaps, other := traceAccount(t, fr.trace)
	if err := fr.cmd.Wait(); err != nil {
		t.Fatalf("mcpscope: %v\nstdout: %s\nother stderr: %q", err, fr.stdout.String(), other)
	}
	if !strings.Contains(fr.stdout.String(), fmt.Sprintf("flooded %d notifications", count)) {
		t.Errorf("result: %s", fr.stdout.String())
	}
	if len(gaps) == 0 {
		t.Fatalf("a reader at 4 MB/s behind a 4 MiB buffer must see gap lines (%d events written)", events)
	}
	var lost uint64
	for _, g := range gaps {
		lost += g.Events
	}
	t.Logf("trace: %d events written, %d gap lines for %d events", events, len(gaps), lost)

	r, err := recordings.Open(rec)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if p := r.Problems(); len(p) > 0 {
		t.Errorf("recording problems: %v", p)
	}
	evs := make([]*session.Event, r.Len())
	for i := range evs {
		if evs[i], err = r.Event(i); err != nil {
			t.Fatal(err)
		}
	}
	notes := sessiontest.CheckWhole(t, evs, "notifications/message")
	if notes != count {
		t.Errorf("recording holds %d of %d notifications", notes, count)
	}
	if uint64(r.Len()) != uint64(events)+lost {
		t.Errorf("the trace accounts for %d events, the recording holds %d", uint64(events)+lost, r.Len())
	}
}

// BenchmarkTraceFloodRSS measures mcpscope's memory while a server floods 256 KiB
// notifications for 6 s and --trace is read at 10 MB/s: the peak resident set (VmHWM) and
// the resident set sampled each half second, which flattens once the buffer is full.
func BenchmarkTraceFloodRSS(b *testing.B) {
	for range b.N {
		ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
		fr := startFlood(b, ctx, 10<<20, "--trace", "call", "flood", "size=262144", "seconds=6")
		pid := fr.cmd.Process.Pid
		done := make(chan struct{})
		var samples []int64
		var hwm int64
		go func() {
			defer close(done)
			tick := time.NewTicker(500 * time.Millisecond)
			defer tick.Stop()
			for {
				rss, peak, ok := procMemory(pid)
				if !ok {
					return
				}
				samples, hwm = append(samples, rss>>20), max(hwm, peak)
				select {
				case <-tick.C:
				case <-ctx.Done():
					return
				}
			}
		}()
		_, gaps, _ := traceAccount(b, fr.trace)
		<-done // the process is gone: /proc has nothing more
		if err := fr.cmd.Wait(); err != nil {
			b.Fatal(err)
		}
		cancel()
		b.ReportMetric(float64(hwm>>20), "peak-MiB")
		b.Logf("VmHWM %d MiB; VmRSS every 0.5 s (MiB): %v; %d gap lines", hwm>>20, samples, len(gaps))
		if len(gaps) == 0 {
			b.Error("no gap line: the reader kept up, so the budget was never reached")
		}
		if hwm > 512<<20 {
			b.Errorf("peak RSS %d MiB over the 512 MiB target", hwm>>20)
		}
	}
}

// procMemory reads VmRSS and VmHWM (bytes) of a running process from /proc; ok is false
// once it is gone (or on a system without /proc).
func procMemory(pid int) (rss, hwm int64, ok bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil || bytes.Contains(b, []byte("State:\tZ")) {
		return 0, 0, false
	}
	for _, l := range strings.Split(string(b), "\n") {
		f := strings.Fields(l)
		if len(f) < 2 || !slices.Contains([]string{"VmRSS:", "VmHWM:"}, f[0]) {
			continue
		}
		kb, _ := strconv.ParseInt(f[1], 10, 64)
		if f[0] == "VmRSS:" {
			rss = kb << 10
		} else {
			hwm = kb << 10
		}
	}
	return rss, hwm, hwm > 0
}

// TestTraceDrainBound: 256 KiB notifications flood a --trace whose reader takes about
// 1 MB/s. The answer comes within seconds; the process then writes the trace for at most
// --trace-drain (and the line under way) and ends it with one gap line for the rest,
// instead of writing the 25 MiB queued for half a minute.
func TestTraceDrainBound(t *testing.T) {
	if _, stderr, code := run(t, "--trace-drain=-1s", "info"); code != 2 || !strings.Contains(stderr, "--trace-drain -1s") {
		t.Errorf("--trace-drain -1s: exit %d, %s", code, stderr)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	start := time.Now()
	fr := startFlood(t, ctx, 1<<20, "--trace", "--trace-drain", "500ms", "call", "flood", "size=262144", "count=100")
	events, gaps, other := traceAccount(t, fr.trace)
	took := time.Since(start)
	if err := fr.cmd.Wait(); err != nil {
		t.Fatalf("mcpscope: %v\nstdout: %s\nother stderr: %q", err, fr.stdout.String(), other)
	}
	if !strings.Contains(fr.stdout.String(), "flooded 100 notifications") {
		t.Errorf("result: %s", fr.stdout.String())
	}
	t.Logf("trace: %d events written, %d gap lines, ended after %s", events, len(gaps), took)
	if len(gaps) == 0 {
		t.Fatalf("no gap line: %d events written in %s", events, took)
	}
	if took > 15*time.Second {
		t.Errorf("the trace held the exit for %s (25 MiB at 1 MB/s); want the drain bounded", took)
	}
}

// TestTraceDrainBigEvent: the drain bound holds inside one large event too. A 20 MiB
// result goes to a --trace read at 1 MB/s: the process ends within seconds of the answer
// (it took the 20 s the whole line needs), the line cut where the drain's end found it and
// the gap line after it counting its event.
func TestTraceDrainBigEvent(t *testing.T) {
	if testing.Short() {
		t.Skip("a 20 MiB result through the real binary")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	start := time.Now()
	fr := startFlood(t, ctx, 1<<20, "--trace", "--trace-drain", "500ms", "call", "bigtext")
	events, gaps, other := traceAccount(t, fr.trace)
	took := time.Since(start)
	if err := fr.cmd.Wait(); err != nil {
		t.Fatalf("mcpscope: %v\nother stderr: %q", err, other)
	}
	if fr.stdout.Len() < 20<<20 {
		t.Errorf("the result on stdout has %d bytes, want the whole 20 MiB text", fr.stdout.Len())
	}
	t.Logf("trace: %d events written, %d gap lines, ended after %s", events, len(gaps), took)
	if len(gaps) == 0 {
		t.Fatalf("no gap line: %d events written in %s", events, took)
	}
	if took > 12*time.Second {
		t.Errorf("the trace held the exit for %s (a 20 MiB line at 1 MB/s); want the drain bounded inside the line", took)
	}
}
