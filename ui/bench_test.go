package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
)

// pumpBatch is how many events one pump batch carries at 10,000 events a second.
const pumpBatch = 250

// filledModel is a 160×48 model whose history holds n events of mixed traffic, fed in
// pump-sized batches.
func filledModel(b *testing.B, n int) (*Model, *evWire) {
	b.Helper()
	m := newTimelineModel(b, Options{}, 160, 48)
	w := newEvWire()
	evs := mixedTraffic(w, n)
	for i := 0; i < len(evs); i += pumpBatch {
		feedEvents(m, evs[i:min(i+pumpBatch, len(evs))]...)
	}
	return m, w
}

// BenchmarkView100k renders the traffic page at 160×48 over a history of 1,000 and 100,000
// frames, following the end and paused in the middle. Its cost must not depend on the
// history's size.
func BenchmarkView100k(b *testing.B) {
	for _, n := range []int{1_000, 100_000} {
		for _, where := range []string{"follow", "middle"} {
			b.Run(fmt.Sprintf("frames=%d/%s", n, where), func(b *testing.B) {
				m, _ := filledModel(b, n)
				if where == "middle" {
					pressKey(m, "g")
					m.timeline.Move(n / 2)
				}
				m.Render()
				b.ReportAllocs()
				for b.Loop() {
					m.Render()
				}
			})
		}
	}
}

// BenchmarkIngest100k feeds 100,000 events through Update in pump-sized batches (each
// batch also syncs the timeline and updates the detail pane) and renders after each batch
// as the runtime would.
func BenchmarkIngest100k(b *testing.B) {
	w := newEvWire()
	evs := mixedTraffic(w, 100_000)
	for _, render := range []bool{false, true} {
		b.Run(fmt.Sprintf("render=%v", render), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				m := newTimelineModel(b, Options{}, 160, 48)
				for i := 0; i < len(evs); i += pumpBatch {
					feedEvents(m, evs[i:min(i+pumpBatch, len(evs))]...)
					if render {
						m.Render()
					}
				}
				if m.hist.Len() != len(evs) {
					b.Fatalf("history holds %d", m.hist.Len())
				}
			}
		})
	}
}

// BenchmarkKeypressUnderFlood measures keypress-to-redraw under two floods: "10k-notes"
// (below) and "badserver-256KiB" (a real session on the misbehaving server's flood tool;
// see keypressRealFlood).
func BenchmarkKeypressUnderFlood(b *testing.B) {
	b.Run("10k-notes", keypressSyntheticFlood)
	b.Run("badserver-256KiB", keypressRealFlood)
}

// keypressSyntheticFlood measures keypress-to-redraw while 10,000 notifications a second
// arrive: a producer goroutine makes notifications in real time and delivers them in a
// batch every 25 ms, as the pump does, while a key press arrives every 40 ms. The program's
// loop handles each message and renders after it, on top of a history of 100,000 frames.
// Reported: the median and worst time from a key press's arrival to the end of the render
// that shows it.
func keypressSyntheticFlood(b *testing.B) {
	m, w := filledModel(b, 100_000)
	for b.Loop() {
		msgs := make(chan any, 256)
		stop := make(chan struct{})
		done := make(chan struct{})
		go func() { // the session and its pump: 250 notifications every 25 ms
			defer close(done)
			tick := time.NewTicker(pumpInterval)
			defer tick.Stop()
			for {
				select {
				case <-stop:
					return
				case <-tick.C:
				}
				evs := make([]*session.Event, pumpBatch)
				for i := range evs {
					evs[i] = w.note(dirIn, "notifications/message", `{"level":"info","logger":"flood","data":"tick"}`, session.Correlation{})
				}
				select {
				case msgs <- EventsMsg{Gen: 1, Events: evs}:
				case <-stop:
					return
				}
			}
		}()
		go pressEvery(stop, func(k floodKey) {
			select {
			case msgs <- k:
			case <-stop:
			}
		})
		var lat []time.Duration
		for len(lat) < 25 {
			switch msg := (<-msgs).(type) {
			case floodKey:
				m.Update(msg.msg)
				m.Render()
				lat = append(lat, time.Since(msg.at))
			case EventsMsg:
				m.Update(msg)
				m.Render()
			}
		}
		close(stop)
		<-done
		slices.Sort(lat)
		b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "median-ms")
		b.ReportMetric(float64(lat[len(lat)-1].Microseconds())/1000, "max-ms")
	}
}

// BenchmarkKeypressAfterBatch is the same path without the clock: a pump batch of 250
// notifications is taken in and rendered, then a key press is handled and rendered, over a
// history of 100,000 frames. ns/op is the whole worst-case wait of one key press.
func BenchmarkKeypressAfterBatch(b *testing.B) {
	m, w := filledModel(b, 100_000)
	batches := make([][]*session.Event, 64)
	for i := range batches {
		batches[i] = make([]*session.Event, pumpBatch)
		for j := range batches[i] {
			batches[i][j] = w.note(dirIn, "notifications/message", `{"level":"info","data":"tick"}`, session.Correlation{})
		}
	}
	keys := []string{"up", "down"}
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		// Reuse events: the history takes them in as new entries each time.
		feedEvents(m, batches[i%len(batches)]...)
		m.Render()
		pressKey(m, keys[i%2])
		m.Render()
		i++
	}
}

// BenchmarkOpenRecording opens a generated recording of about 200 MB of mixed traffic
// read-only and measures the time to the first rendered screen (index the file, read the
// first window, render), the time until the explorer's lists are found (a scan of the
// whole file from its end, in the background in the program), and the heap in use after
// a garbage collection with the model open.
func BenchmarkOpenRecording(b *testing.B) {
	const size = 200 << 20
	path := filepath.Join(b.TempDir(), "large.jsonl")
	w, err := recordings.Create(path, recordings.Header{Server: "bench", Transport: "stdio"}, recordings.Options{})
	if err != nil {
		b.Fatal(err)
	}
	wire := newEvWire()
	events := 0
	for {
		for _, e := range mixedTraffic(wire, 10_000) {
			if err := w.WriteGen(e, 1); err != nil {
				b.Fatal(err)
			}
		}
		events += 10_000
		if st, err := os.Stat(path); err != nil || st.Size() >= size {
			break
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	st, _ := os.Stat(path)
	var first, lists, check time.Duration
	var heap uint64
	for b.Loop() {
		start := time.Now()
		r, err := recordings.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		m := NewModel(NewCommon(nil), Options{Recording: r, Target: path})
		m.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
		m.Update(m.open.loadCmd(0, 0)())
		if !strings.Contains(m.Render(), "row 1 of") {
			b.Fatal("the first screen is not the recording's")
		}
		first = time.Since(start)
		start = time.Now()
		m.Update(openListsCmd(r)())
		lists = time.Since(start)
		start = time.Now()
		for next := 0; next < r.Len(); {
			msg := openCheckCmd(r, next)().(openCheckMsg)
			m.Update(msg)
			next = msg.next
		}
		check = time.Since(start)
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		heap = ms.HeapInuse
		runtime.KeepAlive(m)
		r.Close()
	}
	b.ReportMetric(float64(st.Size())/(1<<20), "file-MB")
	b.ReportMetric(float64(events), "events")
	b.ReportMetric(float64(first.Microseconds())/1000, "first-screen-ms")
	b.ReportMetric(float64(lists.Microseconds())/1000, "lists-ms")
	b.ReportMetric(float64(check.Microseconds())/1000, "check-all-lines-ms")
	b.ReportMetric(float64(heap)/(1<<20), "heap-inuse-MB")
}
