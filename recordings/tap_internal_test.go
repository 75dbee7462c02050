package recordings

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// viewerAccount reads a viewer to the end and checks that its events and gap events
// account for every seq from its first to the last exactly once, each gap's counts
// matching its range and the viewer's Dropped. It may run on a goroutine of its own.
func viewerAccount(t *testing.T, l *Live) (events uint64, gaps []session.Gap, first uint64) {
	events, gaps, first, err := viewerRead(l)
	if err != nil {
		t.Error(err)
	}
	return events, gaps, first
}

// viewerRead is viewerAccount's reading, with what went wrong as its error.
func viewerRead(l *Live) (events uint64, gaps []session.Gap, first uint64, err error) {
	var next uint64
	for {
		e, err := l.Next()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				return events, gaps, first, fmt.Errorf("after %d events and %d gaps (next seq %d): %w", events, len(gaps), next, err)
			}
			break
		}
		from, to := e.Event.Seq, e.Event.Seq
		if g := e.Event.Gap; e.Event.Kind == session.EvGap {
			if g == nil || g.Events != g.LastSeq-g.FirstSeq+1 || e.Event.Text != g.String() {
				return events, gaps, first, fmt.Errorf("gap event %+v %+v", e.Event, g)
			}
			gaps = append(gaps, *g)
			from, to = g.FirstSeq, g.LastSeq
		} else {
			events++
		}
		if next != 0 && from != next {
			return events, gaps, first, fmt.Errorf("seq %d..%d where %d was due", from, to, next)
		}
		if first == 0 {
			first = from
		}
		next = to + 1
	}
	var lost uint64
	for _, g := range gaps {
		lost += g.Events
	}
	if lost != l.Dropped() {
		return events, gaps, first, fmt.Errorf("gap events count %d, Dropped %d", lost, l.Dropped())
	}
	return events, gaps, first, nil
}

// TestTapSlowViewer publishes far more than a viewer that does not read can take: the tap
// never waits for it, and every viewer accounts for each event, received or in a gap line,
// ending with the latest. A viewer's queue is bounded by bytes as well as by count.
func TestTapSlowViewer(t *testing.T) {
	for _, tc := range []struct {
		name        string
		n           int
		viewerBytes int64
	}{
		{"count", 3 * viewerQueue, 0},
		{"bytes", 600, 512 << 10}, // fewer events than viewerQueue: only the byte bound drops
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
			// The drain is long: here every viewer reads to the end, however slowly the
			// machine lets it (a viewer still behind after the drain is cut off).
			tp, err := NewTap(TapConfig{Name: "slow", ExactName: true, Ring: 100, ViewerBytes: tc.viewerBytes, Drain: 2 * time.Minute})
			if err != nil {
				t.Fatal(err)
			}
			slow, err := Dial("slow")
			if err != nil {
				t.Fatal(err)
			}
			defer slow.Close()
			fast, err := Dial("slow")
			if err != nil {
				t.Fatal(err)
			}
			defer fast.Close()
			text := strings.Repeat("x", 4096) // 4 KiB events: far beyond what a socket buffers
			type result struct {
				events, first uint64
				gaps          []session.Gap
			}
			got := make(chan result, 1)
			go func() {
				var r result
				r.events, r.gaps, r.first = viewerAccount(t, fast)
				got <- r
			}()
			// A blocked viewer would stop this loop: the fast one reads everything while
			// the slow one reads nothing.
			for range tc.n {
				tp.note("test", text)
			}
			closed := make(chan error, 1)
			go func() { closed <- tp.Close() }()
			seen, gaps, first := viewerAccount(t, slow)
			if err := <-closed; err != nil {
				t.Fatal(err)
			}
			n := uint64(tc.n)
			if c := <-got; c.events+fast.Dropped()+c.first-1 != n {
				t.Errorf("fast viewer: %d events from seq %d and %d dropped, want %d in all", c.events, c.first, fast.Dropped(), n)
			}
			if len(gaps) == 0 || seen+slow.Dropped()+first-1 != n {
				t.Errorf("slow viewer: %d events from seq %d, %d dropped in %d gaps, of %d", seen, first, slow.Dropped(), len(gaps), n)
			}
			for _, g := range gaps {
				if g.Bytes < int64(g.Events)*4096 {
					t.Errorf("gap %+v: its bytes are the lines lost", g)
				}
			}
		})
	}
}

// TestLiveSeqJumpIsGap: a jump in seq without a gap line (a tap of an older version) still
// reaches the viewer as a gap event, before the event after it.
func TestLiveSeqJumpIsGap(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	sessiontest.ServeUnixOnce(t, tapSocket(TapDir(), "old"), `{"mcpscope_recording":1,"server":"x"}`+"\n"+
		`{"seq":1,"time":"2026-01-01T00:00:00Z","kind":"stderr","text":"a","mono_ns":0}`+"\n"+
		`{"seq":5,"time":"2026-01-01T00:00:01Z","kind":"stderr","text":"b","mono_ns":1000000000}`+"\n")
	l, err := Dial("old")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	events, gaps, first := viewerAccount(t, l)
	if events != 2 || first != 1 || len(gaps) != 1 || gaps[0] != (session.Gap{FirstSeq: 2, LastSeq: 4, Events: 3}) {
		t.Errorf("events %d from %d, gaps %+v", events, first, gaps)
	}
	if len(gaps) == 1 && gaps[0].String() != "3 events dropped between seq 2 and 4" {
		t.Errorf("text %q", gaps[0].String())
	}
}
