package ui

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/session/transport"
)

// TestPumpFloodGapRows runs the pump against the badserver flooding 64 KiB notifications
// with a 1 MiB event buffer and a view slower than the flood: the events the view lost are
// gap rows, the status bar's lost counter is their sum and the subscription's count, and
// the rows and gaps account for every seq.
func TestPumpFloodGapRows(t *testing.T) {
	tr := transport.NewStdio(transport.StdioOptions{Command: sessiontest.BuildBadServer(t)})
	s := session.New(session.Config{Transport: tr, EventBytes: 1 << 20})
	defer s.Close()
	sub := s.Subscribe(0)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := s.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	called := make(chan error, 1)
	go func() {
		_, err := s.Call(ctx, "tools/call", map[string]any{"name": "flood", "arguments": map[string]any{"size": 65536, "count": 300}})
		s.Close()
		called <- err
	}()
	// The view takes nothing until the flood is over: slower than the flood on any machine,
	// however loaded (a view that kept pace would see no gap).
	if err := <-called; err != nil {
		t.Fatal(err)
	}
	m := newTimelineModel(t, Options{}, 120, 30)
	var last time.Time
	for {
		time.Sleep(20 * time.Millisecond) // the view's pace: slower than the flood
		msg := PumpCmd(1, s, sub, last)().(EventsMsg)
		last = time.Now()
		m.Update(msg)
		if msg.Closed {
			break
		}
	}
	var next uint64 = 1
	var gaps []string
	for _, e := range m.hist.Entries() {
		ev := e.Ev
		if ev == nil {
			continue
		}
		if ev.Kind != session.EvGap {
			if ev.Seq != next {
				t.Fatalf("row seq %d where %d was due", ev.Seq, next)
			}
			next++
			continue
		}
		if ev.Gap.FirstSeq != next {
			t.Fatalf("gap from %d where %d was due", ev.Gap.FirstSeq, next)
		}
		next = ev.Gap.LastSeq + 1
		gaps = append(gaps, ansi.Strip(rowText(m.c.Styles, e, 120, m.hist.Start, time.Now())))
	}
	if len(gaps) == 0 {
		t.Fatal("the view fell behind a 1 MiB buffer and shows no gap row")
	}
	// One lost event reads "1 event dropped at #N", more "N events dropped between #A and #B".
	if !strings.Contains(gaps[0], "gap    ⋯ ") || !(strings.Contains(gaps[0], " events dropped between #") || strings.Contains(gaps[0], " 1 event dropped at #")) {
		t.Errorf("gap row %q", gaps[0])
	}
	if m.hist.Lost == 0 || m.hist.Lost != sub.Dropped() {
		t.Errorf("lost counter %d, the subscription dropped %d", m.hist.Lost, sub.Dropped())
	}
	if scr := plainScreen(m); !strings.Contains(scr, " lost (view fell behind)") {
		t.Errorf("status bar:\n%s", scr)
	}
}

// TestLiveGapRows attaches the view to a tap that sends a gap line and then skips seqs: both
// losses are gap rows, and the lost counter is their sum.
func TestLiveGapRows(t *testing.T) {
	stderr := func(seq int) string {
		return fmt.Sprintf(`{"seq":%d,"time":"2026-01-01T00:00:%02dZ","kind":"stderr","text":"line %d","mono_ns":%d}`+"\n", seq, seq, seq, seq*1e9)
	}
	sessiontest.ServeUnixOnce(t, filepath.Join(tapRuntimeDir(t), "mcpscope", "gappy.sock"),
		`{"mcpscope_recording":1,"server":"x","transport":"stdio"}`+"\n"+stderr(1)+
			`{"seq":0,"time":"2026-01-01T00:00:09Z","kind":"gap","text":"8 events dropped between seq 2 and 9 (32 KiB)","gap":{"first_seq":2,"last_seq":9,"events":8,"bytes":32768},"mono_ns":9000000000}`+"\n"+
			stderr(10)+stderr(15))
	l, err := recordings.Dial("gappy")
	if err != nil {
		t.Fatal(err)
	}
	feed := NewLiveFeed(l, "gappy")
	t.Cleanup(feed.Close)
	m := NewModel(NewCommon(nil), Options{Live: feed, Target: "gappy", TransportName: "stdio"})
	d := newDriver(t, m)
	d.handle(tea.WindowSizeMsg{Width: 120, Height: 30})
	d.run(m.Init())
	d.until(30*time.Second, "the end of the tap", func() bool { return m.live.ended })
	scr := plainScreen(m)
	for _, want := range []string{"⋯ 8 events dropped between #2 and #9 (32 KiB)", "⋯ 4 events dropped between #11 and #14", "12 events lost"} {
		if !strings.Contains(scr, want) {
			t.Errorf("screen lacks %q:\n%s", want, scr)
		}
	}
	if m.hist.Lost != 12 || m.hist.Lost != l.Dropped() {
		t.Errorf("lost %d, the viewer dropped %d", m.hist.Lost, l.Dropped())
	}
}

// TestLiveFeedBytesBound: the feed stops reading the tap once the events the view has not
// taken reach its byte bound (the tap then drops for this viewer and sends a gap), and
// reads on, losing nothing, once the view takes them.
func TestLiveFeedBytesBound(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"mcpscope_recording":1,"server":"x","transport":"stdio"}` + "\n")
	text := strings.Repeat("x", 64<<10)
	const n = 40
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, `{"seq":%d,"time":"2026-01-01T00:00:00Z","kind":"stderr","text":"%s","mono_ns":0}`+"\n", i, text)
	}
	sessiontest.ServeUnixOnce(t, filepath.Join(tapRuntimeDir(t), "mcpscope", "big.sock"), b.String())
	l, err := recordings.Dial("big")
	if err != nil {
		t.Fatal(err)
	}
	const bound = 512 << 10
	f := newLiveFeed(l, "big", bound)
	t.Cleanup(f.Close)
	deadline := time.Now().Add(30 * time.Second)
	for full := false; !full; {
		f.mu.Lock()
		full = f.q.Full()
		f.mu.Unlock()
		if time.Now().After(deadline) {
			t.Fatal("the feed never filled")
		}
		runtime.Gosched()
	}
	f.mu.Lock()
	held, size := f.q.Len(), f.q.Bytes()
	f.mu.Unlock()
	if held >= n || size > bound+(64<<10)+1024 {
		t.Errorf("the feed holds %d events, %d bytes, over its %d-byte bound", held, size, bound)
	}
	var got uint64
	for ended := false; !ended; {
		msg := liveNextCmd(f, time.Time{})().(liveEventsMsg)
		for _, it := range msg.items {
			if it.ev == nil || it.ev.Seq != got+1 {
				t.Fatalf("after %d events: %+v", got, it)
			}
			got++
		}
		ended = msg.ended
	}
	if got != n {
		t.Errorf("took %d of %d events", got, n)
	}
}
