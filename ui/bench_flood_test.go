package ui

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// floodKey is a key press put in the program's queue at a known time.
type floodKey struct {
	msg tea.KeyPressMsg
	at  time.Time
}

// pressEvery is the user of the flood benchmarks: every 40 ms, until stop closes, it
// hands send a key press (up and down in turn) stamped with the time it enters the queue.
func pressEvery(stop <-chan struct{}, send func(floodKey)) {
	tick := time.NewTicker(40 * time.Millisecond)
	defer tick.Stop()
	keys := []tea.KeyPressMsg{{Code: tea.KeyUp}, {Code: tea.KeyDown}}
	for i := 0; ; i++ {
		select {
		case <-stop:
			return
		case <-tick.C:
		}
		send(floodKey{keys[i%2], time.Now()})
	}
}

// rssSampler reads the process's resident set size every 100 ms.
type rssSampler struct {
	mu      sync.Mutex
	samples []int64 // bytes, one per tick
	stop    chan struct{}
	done    chan struct{}
}

func startRSS() *rssSampler {
	s := &rssSampler{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			if n, err := residentBytes(); err == nil {
				s.mu.Lock()
				s.samples = append(s.samples, n)
				s.mu.Unlock()
			}
			select {
			case <-s.stop:
				return
			case <-tick.C:
			}
		}
	}()
	return s
}

// end stops sampling and returns the samples.
func (s *rssSampler) end() []int64 {
	close(s.stop)
	<-s.done
	return s.samples
}

// residentBytes is VmRSS of this process (Linux).
func residentBytes() (int64, error) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := bytes.CutPrefix(sc.Bytes(), []byte("VmRSS:")); ok {
			kb, err := strconv.ParseInt(string(bytes.TrimSpace(bytes.TrimSuffix(bytes.TrimSpace(v), []byte("kB")))), 10, 64)
			return kb << 10, err
		}
	}
	return 0, os.ErrNotExist
}

// keypressRealFlood runs the interactive view's model on a real session with the
// misbehaving server's flood tool: notifications/message of 256 KiB for 10 s, recorded to
// a file as the interactive view does by default, with the default memory bounds. The
// program's loop is played as the runtime plays it (one queue of messages, a render after
// each), commands run concurrently, and a key press enters the queue every 40 ms.
// Reported: peak RSS of the process, RSS at 5 s and at the end of the flood (flat once
// the budget is reached), the median and worst key press to rendered screen, the
// notifications taken in, and the bytes the history holds.
func keypressRealFlood(b *testing.B) {
	if _, err := residentBytes(); err != nil {
		b.Skip("RSS is read from /proc/self/status (Linux only)")
	}
	bad := sessiontest.BuildBadServer(b)
	defer traffic.SetMemoryLimit(0)() // as Run does
	for b.Loop() {
		opts := stdioOptions(b, "badserver", bad, nil, nil)
		path := filepath.Join(b.TempDir(), "flood.jsonl")
		w, err := recordings.Create(path, recordings.Header{Server: "badserver", Transport: "stdio"}, recordings.Options{})
		if err != nil {
			b.Fatal(err)
		}
		opts.Recorder = NewRecorder(path, w)
		m := NewModel(NewCommon(nil), opts)
		d := newDriver(b, m)
		d.handle(tea.WindowSizeMsg{Width: 160, Height: 48})
		d.run(m.Init())
		d.until(60*time.Second, "the handshake", func() bool { return m.state == session.StateReady })

		rss := startRSS()
		start := time.Now()
		args, _ := json.Marshal(map[string]any{"name": "flood", "arguments": map[string]any{"size": 256 << 10, "seconds": 10}})
		d.run(callCmd(m.gen, m.sess, "tools/call", args))
		stopKeys := make(chan struct{})
		go pressEvery(stopKeys, func(k floodKey) { d.send(k) })
		var lat []time.Duration
		var sent *sentMsg
		deadline := time.After(90 * time.Second)
		for sent == nil {
			select {
			case msg := <-d.msgs:
				switch msg := msg.(type) {
				case floodKey:
					m.Update(msg.msg)
					m.Render()
					lat = append(lat, time.Since(msg.at))
					continue
				case sentMsg:
					sent = &msg
				}
				d.handle(msg)
				m.Render()
			case <-deadline:
				b.Fatalf("the flood did not end within 90 s")
			}
		}
		close(stopKeys)
		elapsed := time.Since(start)
		samples := rss.end()
		if sent.Err != nil {
			b.Fatalf("flood call: %v", sent.Err)
		}
		b.StopTimer()
		held, notes := m.hist.Bytes, m.hist.Dropped+uint64(m.hist.Len())
		_ = opts.Recorder.Close()
		b.StartTimer()

		slices.Sort(lat)
		mb := func(n int64) float64 { return float64(n) / (1 << 20) }
		at := func(d time.Duration) int64 { return samples[min(len(samples)-1, int(d/(100*time.Millisecond)))] }
		b.ReportMetric(mb(slices.Max(samples)), "peak-rss-MB")
		b.ReportMetric(mb(at(5*time.Second)), "rss-5s-MB")
		b.ReportMetric(mb(samples[len(samples)-1]), "rss-end-MB")
		b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "key-median-ms")
		b.ReportMetric(float64(lat[len(lat)-1].Microseconds())/1000, "key-max-ms")
		b.ReportMetric(float64(notes), "rows")
		b.ReportMetric(mb(held), "history-MB")
		b.ReportMetric(elapsed.Seconds(), "flood-s")
	}
}
