package recordings

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
)

// scanChunkBytes is about how many bytes of the file one step of a scan reads: large enough
// that a read and a search pass run at memory speed, small enough that the first steps'
// results come at once.
const scanChunkBytes = 4 << 20

// chunk is one step of a scan: the indexed lines [lo, hi), whose bytes (from the start of
// line lo to the end of line hi-1, newlines included) are data, read from file offset off.
type chunk struct {
	lo, hi int
	off    int64
	data   []byte
}

// line is the bytes of indexed line i of the chunk, without its newline.
func (c *chunk) line(r *Reader, i int) []byte {
	at := r.offsets[i] - c.off
	return c.data[at : at+int64(r.lens[i])]
}

// lineAt is the indexed line of the chunk that holds byte p of data.
func (c *chunk) lineAt(r *Reader, p int) int {
	at := c.off + int64(p)
	return c.lo + sort.Search(c.hi-c.lo, func(k int) bool { return r.offsets[c.lo+k] > at }) - 1
}

// chunkEnd is the end of the chunk that starts at indexed line lo: lines are added while
// the chunk stays under scanChunkBytes, and a chunk has at least one line.
func (r *Reader) chunkEnd(lo int) int {
	limit := r.offsets[lo] + cmp.Or(r.chunkBytes, scanChunkBytes)
	n := len(r.offsets)
	hi := lo + sort.Search(n-lo, func(k int) bool {
		i := lo + k
		return r.offsets[i]+int64(r.lens[i]) > limit
	})
	return max(hi, lo+1)
}

// forChunks scans the indexed lines from line from to the end: work runs on each chunk, on
// several goroutines at once (one per CPU), and deliver receives each chunk's result in
// the file's order, on the calling goroutine. The chunk's data is only valid during work.
// It stops when deliver returns false (nil) or ctx ends (its error).
func (r *Reader) forChunks(ctx context.Context, from int, work func(c *chunk) any, deliver func(lo, hi int, v any) bool) error {
	n := len(r.offsets)
	if from >= n {
		return ctx.Err()
	}
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer func() {
		cancel()
		wg.Wait() // no worker reads the file after the scan returns
	}()
	type job struct {
		seq    int
		lo, hi int
	}
	type result struct {
		seq    int
		lo, hi int
		v      any
		err    error
	}
	workers := max(1, runtime.GOMAXPROCS(0))
	jobs := make(chan job)
	results := make(chan result, workers)
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(jobs)
		for seq, lo := 0, from; lo < n; seq++ {
			hi := r.chunkEnd(lo)
			select {
			case jobs <- job{seq, lo, hi}:
			case <-ctx.Done():
				return
			}
			lo = hi
		}
	}()
	var workersDone sync.WaitGroup
	workersDone.Add(workers)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer workersDone.Done()
			var buf []byte
			for j := range jobs {
				c := chunk{lo: j.lo, hi: j.hi, off: r.offsets[j.lo]}
				size := r.offsets[j.hi-1] + int64(r.lens[j.hi-1]) - c.off
				if int64(cap(buf)) < size {
					buf = make([]byte, size)
				}
				c.data = buf[:size]
				res := result{seq: j.seq, lo: j.lo, hi: j.hi}
				if _, err := r.f.ReadAt(c.data, c.off); err != nil && !(err == io.EOF && size > 0) {
					res.err = fmt.Errorf("read recording %s: %w", r.path, err)
				} else {
					res.v = work(&c)
				}
				select {
				case results <- res:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() {
		workersDone.Wait()
		close(results)
	}()
	pending := map[int]result{}
	next, done := 0, from
	for res := range results {
		pending[res.seq] = res
		for {
			p, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			if p.err != nil {
				return p.err
			}
			if err := ctx.Err(); err != nil {
				return err // cancelled: nothing more is delivered
			}
			if !deliver(p.lo, p.hi, p.v) {
				return nil
			}
			done = p.hi
		}
	}
	if done < n {
		return ctx.Err() // cancelled before every chunk was delivered
	}
	return nil
}

// Prefilter names byte strings a line must contain to be worth decoding, so that a search
// skips most of a recording at the speed of bytes.Index. Strings are compared ASCII
// case-insensitively and must be given in lower case; they must not contain what the
// Writer escapes in a JSON string (quotes, backslashes, control characters), as they are
// looked for in the line as written.
type Prefilter struct {
	// All: a line that lacks any of these cannot match. Empty: every line is decoded.
	All [][]byte
	// Any: a line that contains one of these is decoded whatever All and Terms say (lines
	// that match any query, or that hold text in another form, like "raw_base64").
	Any [][]byte
	// Terms: a line that fails any of these cannot match.
	Terms []LineTerm
}

// LineTerm is a test of a line's bytes: the line holds one of Any and passes Keep. Its
// strings are members as the Writer writes them (in lower case, as for Prefilter): the
// line may be given in lower case, when the prefilter has All strings, or as written.
type LineTerm struct {
	// Lines are indices of lines that pass whatever Any says (ascending).
	Lines []int32
	Any   [][]byte
	// Keep judges a line that holds one of Any: i is its index. Nil keeps it. It is called
	// from several goroutines at once.
	Keep func(i int, line []byte) bool
}

// keeps reports whether the line passes the term.
func (t *LineTerm) keeps(i int, line []byte) bool {
	if _, ok := slices.BinarySearch(t.Lines, int32(i)); ok {
		return true
	}
	for _, a := range t.Any {
		if bytes.Contains(line, a) {
			return t.Keep == nil || t.Keep(i, line)
		}
	}
	return false
}

// SearchStep is what one step of Search found.
type SearchStep struct {
	Matches []int32 // indices of the lines that matched, ascending
	Next    int     // the lines before this index have all been searched
}

// Search looks, from indexed line from to the end, for the events that pass test, reading
// the file in chunks in parallel. Lines that the prefilter rules out, and lines that are
// not events, are skipped; test is called with each other event, from several goroutines
// at once. found receives the matches in the file's order, one step at a time, as soon as
// the steps before it are done (a step may have no matches: it tells progress); it returns
// false to stop. Search returns when the whole file was searched (nil), or with ctx's
// error when ctx ends first.
func (r *Reader) Search(ctx context.Context, from int, pf Prefilter, test func(i int, e Entry) bool, found func(SearchStep) bool) error {
	needles := append([][]byte(nil), pf.All...)
	// The longest needle is searched for first: it is usually the rarest.
	sort.SliceStable(needles, func(a, b int) bool { return len(needles[a]) > len(needles[b]) })
	// Without needles the first term finds the lines: one that names them all, if any.
	terms := append([]LineTerm(nil), pf.Terms...)
	sort.SliceStable(terms, func(a, b int) bool { return len(terms[a].Any) == 0 && len(terms[b].Any) > 0 })
	work := func(c *chunk) any {
		var out []int32
		for _, i := range r.candidates(c, needles, pf.Any, terms) {
			if ctx.Err() != nil {
				return out
			}
			e, err := r.Entry(i)
			if err == nil && test(i, e) {
				out = append(out, int32(i))
			}
		}
		return out
	}
	return r.forChunks(ctx, from, work, func(_, hi int, v any) bool {
		m, _ := v.([]int32)
		return found(SearchStep{Matches: m, Next: hi})
	})
}

// candidates lists the lines of c that may be events passing the prefilter: the lines
// holding all needles and passing every term, or holding any of anyOf; with neither
// needles nor terms, every readable line. With needles it lowers c's data in place.
func (r *Reader) candidates(c *chunk, needles, anyOf [][]byte, terms []LineTerm) []int {
	if len(needles) == 0 && len(terms) == 0 {
		out := make([]int, 0, c.hi-c.lo)
		for i := c.lo; i < c.hi; i++ {
			if r.unreadable(i) == "" {
				out = append(out, i)
			}
		}
		return out
	}
	if len(needles) > 0 {
		lowerASCII(c.data) // the needles are compared ASCII case-insensitively
	}
	keep := func(i int, line []byte) bool {
		for _, n := range needles[min(1, len(needles)):] { // linesWith found the first
			if !bytes.Contains(line, n) {
				return false
			}
		}
		for k := range terms {
			if !terms[k].keeps(i, line) {
				return false
			}
		}
		return true
	}
	var hits []int
	if len(needles) > 0 {
		hits = r.linesWith(c, needles[0], keep)
	} else {
		// The first term's lines and strings find the lines (keep judges them whole: no
		// needles).
		t := &terms[0]
		lo, _ := slices.BinarySearch(t.Lines, int32(c.lo))
		hi, _ := slices.BinarySearch(t.Lines, int32(c.hi))
		for _, i := range t.Lines[lo:hi] {
			hits = append(hits, int(i))
		}
		for _, a := range t.Any {
			hits = mergeLines(hits, r.linesWith(c, a, nil))
		}
		out := hits[:0]
		for _, i := range hits {
			if keep(i, c.line(r, i)) {
				out = append(out, i)
			}
		}
		hits = out
	}
	for _, a := range anyOf {
		hits = mergeLines(hits, r.linesWith(c, a, nil))
	}
	out := hits[:0]
	for _, i := range hits {
		if r.unreadable(i) == "" {
			out = append(out, i)
		}
	}
	return out
}

// Lines runs work on each line of r that holds one of anyOf (compared byte for byte, on
// the line as written: members as the Writer writes them), from several goroutines at
// once, reading the file in chunks in parallel; work appends what it finds to out (line
// is only valid during the call, and work may change it). deliver receives each chunk's findings in the file's
// order, on the calling goroutine, with the index of the line after the chunk. It stops
// when deliver returns false (nil) or ctx ends (its error). Unreadable lines are skipped.
func Lines[T any](ctx context.Context, r *Reader, anyOf [][]byte, work func(i int, line []byte, out []T) []T, deliver func(found []T, next int) bool) error {
	return r.forChunks(ctx, 0, func(c *chunk) any {
		var hits []int
		for _, a := range anyOf {
			hits = mergeLines(hits, r.linesWith(c, a, nil))
		}
		var out []T
		for _, i := range hits {
			if ctx.Err() != nil {
				return out
			}
			if r.unreadable(i) == "" {
				out = work(i, c.line(r, i), out)
			}
		}
		return out
	}, func(_, hi int, v any) bool {
		found, _ := v.([]T)
		return deliver(found, hi)
	})
}

// linesWith lists the lines of c (lowered) that contain needle and pass keep (nil: all).
func (r *Reader) linesWith(c *chunk, needle []byte, keep func(i int, line []byte) bool) []int {
	var out []int
	data := c.data
	// bytes.Index goes from one place of the needle's first byte to the next: it looks
	// from the needle's rarest byte instead, and checks the bytes before it.
	skip := rareStart(needle)
	head, tail := needle[:skip], needle[skip:]
	for pos := skip; pos < len(data); {
		j := bytes.Index(data[pos:], tail)
		if j < 0 {
			break
		}
		at := pos + j - skip
		if !bytes.Equal(data[at:at+skip], head) {
			pos += j + 1
			continue
		}
		i := c.lineAt(r, at)
		line := c.line(r, i)
		if keep == nil || keep(i, line) {
			out = append(out, i)
		}
		pos = int(r.offsets[i]-c.off) + len(line) + 1
	}
	return out
}

// rareStart is where in needle to start looking for it: at the byte least common in a
// recording's lines (JSON punctuation is everywhere, then small letters, most common
// first), keeping at least four bytes (or the whole needle) to look for.
func rareStart(needle []byte) int {
	best, bestRank := 0, 1<<30
	for k := 0; k < len(needle) && (k == 0 || len(needle)-k >= 4); k++ {
		if rk := byteRank(needle[k]); rk < bestRank {
			best, bestRank = k, rk
		}
	}
	return best
}

// byteRank is how common byte b is in a recording's lines, roughly (higher: more).
func byteRank(b byte) int {
	const letters = "zqjxkvbpygfwmucldrhsnioate" // least to most common in text
	switch {
	case bytes.IndexByte([]byte(`"{}[]:, \`), b) >= 0:
		return 100
	case 'a' <= b && b <= 'z':
		return 40 + strings.IndexByte(letters, b)
	case '0' <= b && b <= '9':
		return 50
	case 'A' <= b && b <= 'Z':
		return 30
	}
	return 20 // _ / - . and the rest
}

// LowerASCII turns the ASCII capitals of b into small letters, in place.
func LowerASCII(b []byte) { lowerASCII(b) }

// mergeLines merges two ascending lists of line indices, each index once.
func mergeLines(a, b []int) []int {
	if len(b) == 0 {
		return a
	}
	out := make([]int, 0, len(a)+len(b))
	for len(a) > 0 || len(b) > 0 {
		switch {
		case len(b) == 0 || len(a) > 0 && a[0] < b[0]:
			out, a = append(out, a[0]), a[1:]
		case len(a) == 0 || b[0] < a[0]:
			out, b = append(out, b[0]), b[1:]
		default:
			out, a, b = append(out, a[0]), a[1:], b[1:]
		}
	}
	return out
}

// lowerASCII turns the ASCII capitals of b into small letters, eight bytes at a time.
func lowerASCII(b []byte) {
	const ones, high = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		h := x &^ high
		ge := h + ones*(0x80-'A')   // high bit set where the byte is at least 'A'
		gt := h + ones*(0x80-'Z'-1) // …and where it is past 'Z'
		if m := ge &^ gt &^ x & high; m != 0 {
			binary.LittleEndian.PutUint64(b[i:], x|m>>2)
		}
	}
	for ; i < len(b); i++ {
		if c := b[i]; 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
}
