package lines

import (
	"bytes"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
)

type out struct {
	line         string
	size         int64
	trunc, unter bool
}

// split feeds writes to a Splitter and returns what it emitted.
func split(s Splitter, writes ...string) []out {
	var got []out
	s.Emit = func(l []byte, size int64, trunc, unter bool) {
		got = append(got, out{string(l), size, trunc, unter})
	}
	for _, w := range writes {
		s.Write([]byte(w))
	}
	s.End()
	return got
}

func TestSplitter(t *testing.T) {
	cases := []struct {
		name   string
		s      Splitter
		writes []string
		want   []out
	}{
		{"split across writes", Splitter{Max: 100, Head: 100}, []string{"ab", "c\nd", "e\n\n"},
			[]out{{"abc", 3, false, false}, {"de", 2, false, false}, {"", 0, false, false}}},
		{"unterminated", Splitter{Max: 100, Head: 100}, []string{"ab\ncd"}, []out{{"ab", 2, false, false}, {"cd", 2, false, true}}},
		{"crlf kept", Splitter{Max: 100, Head: 100}, []string{"ab\r\n"}, []out{{"ab\r", 3, false, false}}},
		{"empty stream", Splitter{Max: 100, Head: 100}, nil, nil},
		{"exactly max", Splitter{Max: 4, Head: 2}, []string{"abcd\n"}, []out{{"abcd", 4, false, false}}},
		{"too long", Splitter{Max: 4, Head: 2}, []string{"abcdefg\nh\n"}, []out{{"ab", 7, true, false}, {"h", 1, false, false}}},
		{"too long across writes", Splitter{Max: 4, Head: 2}, []string{"a", "bcd", "efg", "\nh\n"},
			[]out{{"ab", 7, true, false}, {"h", 1, false, false}}},
		{"head bounded by max", Splitter{Max: 4, Head: 100}, []string{"abcdefg\n"}, []out{{"abcd", 7, true, false}}},
		{"too long unterminated", Splitter{Max: 4, Head: 2}, []string{"abcdefg"}, []out{{"ab", 7, true, true}}},
		{"pieces", Splitter{Max: 3, Pieces: true}, []string{"abcdefg\nhij\nk"},
			[]out{{"abc", 3, false, false}, {"def", 3, false, false}, {"g", 1, false, false}, {"hij", 3, false, false}, {"k", 1, false, true}}},
		{"piece filled exactly", Splitter{Max: 3, Pieces: true}, []string{"abcdef", "\n", "\nx\n"},
			[]out{{"abc", 3, false, false}, {"def", 3, false, false}, {"", 0, false, false}, {"x", 1, false, false}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := split(c.s, c.writes...)
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

// TestSplitterAnyChunking: how the stream is cut into reads changes nothing.
func TestSplitterAnyChunking(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var stream strings.Builder
	for range 200 {
		stream.WriteString(strings.Repeat(string(rune('a'+r.IntN(26))), r.IntN(40)))
		stream.WriteString([]string{"\n", "\r\n", "\n\n"}[r.IntN(3)])
	}
	stream.WriteString("tail")
	text := stream.String()
	for _, s := range []Splitter{{Max: 16, Head: 5}, {Max: 16, Pieces: true}, {Max: 1000, Head: 1000}} {
		whole := split(s, text)
		for range 50 {
			var writes []string
			for rest := text; rest != ""; {
				n := min(len(rest), 1+r.IntN(30))
				writes = append(writes, rest[:n])
				rest = rest[n:]
			}
			if got := split(s, writes...); !equal(got, whole) {
				t.Fatalf("%+v: cut into %d writes, %d lines differ from %d in one write", s, len(writes), len(got), len(whole))
			}
		}
	}
}

func equal(a, b []out) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestSplitterOwnsLines: a line emitted does not share memory with the buffer written, which
// the reader reuses for its next read.
func TestSplitterOwnsLines(t *testing.T) {
	var got [][]byte
	s := Splitter{Max: 100, Head: 100, Emit: func(l []byte, _ int64, _, _ bool) { got = append(got, l) }}
	buf := []byte("one\ntwo\nthr")
	s.Write(buf)
	copy(buf, "xxxxxxxxxxx")
	s.Write([]byte("ee\n"))
	if len(got) != 3 || !bytes.Equal(got[0], []byte("one")) || !bytes.Equal(got[1], []byte("two")) || string(got[2]) != "three" {
		t.Errorf("lines %q", got)
	}
}

func TestTail(t *testing.T) {
	const keep = 5
	for _, add := range []int{0, 3, keep, keep + 1, 3*keep + 2} {
		tl := NewTail(keep)
		for i := range add {
			tl.Add(strconv.Itoa(i))
		}
		var want []string
		for i := max(0, add-keep); i < add; i++ {
			want = append(want, strconv.Itoa(i))
		}
		if got := tl.Lines(); strings.Join(got, ",") != strings.Join(want, ",") || len(got) != len(want) || (add == 0) != (got == nil) {
			t.Errorf("after %d lines: %v, want %v", add, got, want)
		}
	}
	zero := NewTail(0)
	zero.Add("x")
	if zero.Lines() != nil {
		t.Errorf("a tail of 0 kept %v", zero.Lines())
	}
}

// BenchmarkSplitter cuts 1 KB lines arriving in 64 KiB reads, as the stdio readers get them.
func BenchmarkSplitter(b *testing.B) {
	line := append(bytes.Repeat([]byte("x"), 1023), '\n')
	stream := bytes.Repeat(line, 1024) // 1 MiB
	n := 0
	s := Splitter{Max: 64 << 20, Head: 64 << 10, Emit: func([]byte, int64, bool, bool) { n++ }}
	b.SetBytes(int64(len(stream)))
	for b.Loop() {
		for p := stream; len(p) > 0; {
			k := min(len(p), 64<<10)
			s.Write(p[:k])
			p = p[k:]
		}
	}
	if n == 0 {
		b.Fatal("no lines")
	}
}

// TestSplitterLongLineCost: a line of many megabytes, read in 64 KiB parts, is emitted in a
// slice of exactly its size, and holding it costs about twice the line (its pieces, then the
// joined line), not the several copies of a slice grown by append.
func TestSplitterLongLineCost(t *testing.T) {
	const size = 8 << 20
	part := bytes.Repeat([]byte("x"), 64<<10)
	var got []byte
	s := Splitter{Max: 64 << 20, Head: 1024, Emit: func(l []byte, _ int64, _, _ bool) { got = l }}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range size / len(part) {
		s.Write(part)
	}
	s.Write([]byte("\n"))
	runtime.ReadMemStats(&after)
	if len(got) != size || cap(got) != size {
		t.Fatalf("line of %d bytes in a slice of cap %d, want %d", len(got), cap(got), size)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > size*21/10 {
		t.Errorf("holding a %d-byte line allocated %d bytes (%.2f×), want ≤ 2.1×", size, alloc, float64(alloc)/size)
	}
}

// TestSplitterSkip: after a loss the line under way and the rest of it are dropped; the
// lines after the next "\n" come whole.
func TestSplitterSkip(t *testing.T) {
	var got []string
	s := Splitter{Max: 100, Head: 100, Emit: func(l []byte, _ int64, _, _ bool) { got = append(got, string(l)) }}
	s.Write([]byte("one\ntw"))
	s.Skip(true)
	s.Write([]byte("o-rest"))
	s.Write([]byte("-more\nthree\nfo"))
	s.Skip(true)
	s.Write([]byte("\nfive\nsi"))
	s.Skip(false) // the loss ended a line: "seven" is whole
	s.Write([]byte("seven\n"))
	if want := []string{"one", "three", "five", "seven"}; !slices.Equal(got, want) {
		t.Errorf("lines %q, want %q", got, want)
	}
}
