package recordings

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// TestTapSlowViewer publishes far more than a viewer that does not read can take: the tap
// never waits for it, and every viewer accounts for each event, received or dropped, ending
// with the latest.
func TestTapSlowViewer(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	tp, err := NewTap(TapConfig{Name: "slow", ExactName: true, Ring: 100})
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
	const n = 3 * viewerQueue
	text := strings.Repeat("x", 4096) // n events of 4 KiB: far beyond what a socket buffers
	got := make(chan [2]uint64, 1)    // events read, seq of the first
	go func() {
		var count, first uint64
		for {
			e, err := fast.Next()
			if err != nil {
				got <- [2]uint64{count, first}
				return
			}
			if first == 0 {
				first = e.Event.Seq
			}
			count++
		}
	}()
	// A blocked viewer would stop this loop: the fast one reads everything while the slow
	// one reads nothing.
	for range n {
		tp.note("test", text)
	}
	closed := make(chan error, 1)
	go func() { closed <- tp.Close() }()
	var seen, first uint64
	for {
		e, err := slow.Next()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				t.Fatal(err)
			}
			break
		}
		seen++
		if first == 0 {
			first = e.Event.Seq
		}
		if e.Event.Seq > n {
			t.Fatalf("seq %d after %d events", e.Event.Seq, n)
		}
	}
	if err := <-closed; err != nil {
		t.Fatal(err)
	}
	if c := <-got; c[0]+fast.Dropped()+c[1]-1 != n {
		t.Errorf("fast viewer: %d events from seq %d and %d dropped, want %d in all", c[0], c[1], fast.Dropped(), n)
	}
	// Events taken out of the queue before the slow viewer read its first one are not
	// gaps it can see.
	if slow.Dropped() == 0 || seen+slow.Dropped()+first-1 != n {
		t.Errorf("slow viewer: %d events from seq %d, %d dropped, of %d", seen, first, slow.Dropped(), n)
	}
}

// TestSplitter cuts streams into lines the way the stdio transport does.
func TestSplitter(t *testing.T) {
	type out struct {
		line         string
		size         int64
		trunc, unter bool
	}
	cases := []struct {
		name   string
		max    int64
		pieces bool
		writes []string
		want   []out
	}{
		{"split across writes", 100, false, []string{"ab", "c\nd", "e\n\n"}, []out{{"abc", 3, false, false}, {"de", 2, false, false}, {"", 0, false, false}}},
		{"unterminated", 100, false, []string{"ab\ncd"}, []out{{"ab", 2, false, false}, {"cd", 2, false, true}}},
		{"crlf kept", 100, false, []string{"ab\r\n"}, []out{{"ab\r", 3, false, false}}},
		{"too long", 4, false, []string{"abcdefg\nh\n"}, []out{{"abcd", 7, true, false}, {"h", 1, false, false}}},
		{"pieces", 3, true, []string{"abcdefg\nhij\nk"}, []out{{"abc", 3, false, false}, {"def", 3, false, false}, {"g", 1, false, false},
			{"hij", 3, false, false}, {"k", 1, false, true}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []out
			s := &splitter{max: c.max, pieces: c.pieces, emit: func(l []byte, size int64, trunc, unter bool) {
				got = append(got, out{string(l), size, trunc, unter})
			}}
			for _, w := range c.writes {
				s.write([]byte(w))
			}
			s.end()
			if len(got) != len(c.want) {
				t.Fatalf("got %+v, want %+v", got, c.want)
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Errorf("line %d: %+v, want %+v", i, got[i], c.want[i])
				}
			}
		})
	}
}
