package recordings

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"time"
	"unicode/utf8"

	"github.com/mcpscope/mcpscope/session"
)

// maxHeader bounds the header line.
const maxHeader = 1 << 20

// Problem is a line of a recording that could not be used.
type Problem struct {
	Line int    // 1-based line number in the file
	Err  string // what is wrong with it
}

func (p Problem) String() string { return fmt.Sprintf("line %d: %s", p.Line, p.Err) }

// LineError is why a line of a recording could not be read as an event.
type LineError struct {
	Path string
	Line int    // 1-based line number in the file
	Why  string // what is wrong with it
}

func (e *LineError) Error() string {
	return fmt.Sprintf("recording %s line %d: %s", e.Path, e.Line, e.Why)
}

// Entry is one recorded event with where it came from.
type Entry struct {
	Event *session.Event
	Mono  time.Duration // since the first recorded event, on the monotonic clock
	Gen   int           // which session of the recording (0 when the line does not say)
	Line  int           // 1-based line number in the file
}

// Reader gives access to the events of a recording. Open indexes the file (the offset and
// length of each line, twelve bytes a line) without keeping lines in memory; events are
// decoded on demand. Every non-empty line after the header is indexed, the ones that cannot
// be events too (not JSON, binary, cut short), so a viewer can show each of them as an
// unreadable row with its line number: Entry returns an error for them. A Reader is safe
// for concurrent use.
type Reader struct {
	f        *os.File
	path     string
	header   Header
	offsets  []int64
	lens     []uint32
	lines    []int32 // line number of each indexed line when it differs from index+2 (empty lines); nil when none
	bad      []uint8 // why each indexed line is unreadable (badNone when it may be an event); nil when none is
	problems []Problem
	size     int64

	chunkBytes int64 // bytes a step of a scan reads (0: scanChunkBytes); tests make it small
}

// Why an indexed line was found unreadable while indexing.
const (
	badNone uint8 = iota
	badCut
	badNotObject
	badTooLong
)

var badText = [...]string{
	badCut:       "cut short (the recording ended in the middle of this line)",
	badNotObject: "not a JSON object (text or binary data)",
	badTooLong:   "longer than 4 GiB",
}

// Open reads a recording's header and indexes its lines. Lines that are cut short (the last
// line of a recording whose writer was killed) or that are not JSON objects are reported by
// Problems, and indexed as unreadable lines; a file whose first line is not a recording
// header is an error.
func Open(path string) (*Reader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open recording: %w", err)
	}
	r := &Reader{f: f, path: path}
	if err := r.index(); err != nil {
		f.Close()
		return nil, err
	}
	return r, nil
}

func (r *Reader) index() error {
	br := bufio.NewReaderSize(io.LimitReader(r.f, maxHeader), 64<<10)
	first, err := br.ReadSlice('\n')
	if err != nil && (err != io.EOF || len(first) == 0) {
		if errors.Is(err, bufio.ErrBufferFull) || err == io.EOF {
			return fmt.Errorf("%s is not an mcpscope recording (its first line is not a recording header)", r.path)
		}
		return fmt.Errorf("read recording %s: %w", r.path, err)
	}
	var probe map[string]json.RawMessage
	if json.Unmarshal(first, &probe) != nil || probe["mcpscope_recording"] == nil {
		return fmt.Errorf("%s is not an mcpscope recording (its first line is not a recording header)", r.path)
	}
	if err := json.Unmarshal(first, &r.header); err != nil {
		return fmt.Errorf("recording %s: header: %w", r.path, err)
	}
	if r.header.Format > FormatVersion {
		return fmt.Errorf("recording %s is format %d; this mcpscope reads format %d: use a newer mcpscope", r.path, r.header.Format, FormatVersion)
	}
	return r.scan(int64(len(first)))
}

// scan indexes the lines after the header, reading the file in large chunks and looking at
// each line's first and last byte only.
func (r *Reader) scan(start int64) error {
	buf := make([]byte, 4<<20)
	off := start // file offset of buf[0]
	lineStart, lineNo := start, 2
	var firstB, lastB byte
	empty := true
	end := func(lineEnd int64, terminated bool) {
		n := lineEnd - lineStart
		if empty {
			return
		}
		empty = true
		why := badNone
		switch {
		case !terminated && !r.validTail(lineStart, n):
			why = badCut
		case firstB != '{' || lastB != '}':
			why = badNotObject
		case n > 1<<32-1:
			why, n = badTooLong, 0
		}
		r.add(lineStart, n, lineNo, why)
	}
	for {
		n, err := r.f.ReadAt(buf, off)
		chunk := buf[:n]
		pos := 0
		for pos < n {
			i := bytes.IndexByte(chunk[pos:], '\n')
			seg := chunk[pos:]
			if i >= 0 {
				seg = chunk[pos : pos+i]
			}
			if len(seg) > 0 && seg[len(seg)-1] == '\r' {
				seg = seg[:len(seg)-1]
			}
			if len(seg) > 0 {
				if empty {
					firstB, empty = seg[0], false
				}
				lastB = seg[len(seg)-1]
			}
			if i < 0 {
				break
			}
			end(off+int64(pos+i), true)
			pos += i + 1
			lineStart = off + int64(pos)
			lineNo++
		}
		off += int64(n)
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("read recording %s: %w", r.path, err)
		}
	}
	end(off, false)
	r.size = off
	return nil
}

// add indexes one line; why says what makes it unreadable, if anything.
func (r *Reader) add(at, n int64, lineNo int, why uint8) {
	i := len(r.offsets)
	if r.lines != nil || lineNo != i+2 {
		if r.lines == nil {
			r.lines = make([]int32, i, cap(r.offsets))
			for j := range r.lines {
				r.lines[j] = int32(j + 2)
			}
		}
		r.lines = append(r.lines, int32(lineNo))
	}
	if r.bad != nil || why != badNone {
		if r.bad == nil {
			r.bad = make([]uint8, i, cap(r.offsets))
		}
		r.bad = append(r.bad, why)
	}
	if why != badNone {
		r.problems = append(r.problems, Problem{lineNo, badText[why]})
	}
	r.offsets = append(r.offsets, at)
	r.lens = append(r.lens, uint32(n))
}

// unreadable is why indexed line i cannot be an event, or "" when it may be one.
func (r *Reader) unreadable(i int) string {
	if r.bad == nil || r.bad[i] == badNone {
		return ""
	}
	return badText[r.bad[i]]
}

// validTail reports whether an unterminated last line is nevertheless a whole JSON value.
func (r *Reader) validTail(at, n int64) bool {
	if n > 64<<20 {
		return false
	}
	b := make([]byte, n)
	if _, err := r.f.ReadAt(b, at); err != nil && err != io.EOF {
		return false
	}
	return json.Valid(b)
}

// Header is the recording's header.
func (r *Reader) Header() Header { return r.header }

// Len is the number of indexed lines: the events, and the lines that cannot be read as
// events (Entry returns an error for those).
func (r *Reader) Len() int { return len(r.offsets) }

// Size is the file's size in bytes.
func (r *Reader) Size() int64 { return r.size }

// Problems lists the lines found unreadable while indexing (not JSON objects, cut short).
// Lines that look like events but do not decode are found by Entry.
func (r *Reader) Problems() []Problem { return r.problems }

// Line is the 1-based line number of indexed line i in the file.
func (r *Reader) Line(i int) int {
	if r.lines != nil {
		return int(r.lines[i])
	}
	return i + 2
}

// Event decodes event i (0 ≤ i < Len()).
func (r *Reader) Event(i int) (*session.Event, error) {
	e, err := r.Entry(i)
	return e.Event, err
}

// Entry decodes event i with its monotonic time and line number.
func (r *Reader) Entry(i int) (Entry, error) {
	l, ln, err := r.decode(i)
	if err != nil {
		return Entry{Line: ln}, err
	}
	e, err := l.toEvent()
	if err != nil {
		return Entry{Line: ln}, &LineError{Path: r.path, Line: ln, Why: "not an event: " + err.Error()}
	}
	return Entry{Event: e, Mono: time.Duration(l.MonoNS), Gen: l.Gen, Line: ln}, nil
}

// Check reports whether indexed line i is an event, as Entry would, without building the
// event: a *LineError says why not. It is several times cheaper than Entry, for counting the
// unreadable lines of a whole recording.
func (r *Reader) Check(i int) error {
	l, _, err := r.decode(i)
	if err == nil {
		_, _, err = l.validate()
		if err != nil {
			err = &LineError{Path: r.path, Line: r.Line(i), Why: "not an event: " + err.Error()}
		}
	}
	return err
}

// decode reads and parses indexed line i.
func (r *Reader) decode(i int) (*line, int, error) {
	if i < 0 || i >= len(r.offsets) {
		return nil, 0, fmt.Errorf("event %d out of range (the recording has %d)", i, len(r.offsets))
	}
	ln := r.Line(i)
	if why := r.unreadable(i); why != "" {
		return nil, ln, &LineError{Path: r.path, Line: ln, Why: why}
	}
	b := make([]byte, r.lens[i])
	if _, err := r.f.ReadAt(b, r.offsets[i]); err != nil && !(err == io.EOF && len(b) > 0) {
		return nil, ln, fmt.Errorf("recording %s line %d: %w", r.path, ln, err)
	}
	var l line
	if err := json.Unmarshal(b, &l); err != nil {
		why := "not an event: " + err.Error()
		if !utf8.Valid(b) {
			why = "not an event: binary data that is not JSON"
		}
		return nil, ln, &LineError{Path: r.path, Line: ln, Why: why}
	}
	return &l, ln, nil
}

// Raw is event i's line as it is in the file, without its newline.
func (r *Reader) Raw(i int) ([]byte, error) {
	if i < 0 || i >= len(r.offsets) {
		return nil, fmt.Errorf("event %d out of range (the recording has %d)", i, len(r.offsets))
	}
	b := make([]byte, r.lens[i])
	if _, err := r.f.ReadAt(b, r.offsets[i]); err != nil && !(err == io.EOF && len(b) > 0) {
		return nil, fmt.Errorf("recording %s line %d: %w", r.path, r.Line(i), err)
	}
	return bytes.TrimSuffix(b, []byte("\r")), nil
}

// Path is the recording's file name as given to Open.
func (r *Reader) Path() string { return r.path }

// Events decodes every event in order, skipping (and returning as problems) the lines that
// look like events but do not decode; the lines Problems lists are skipped too. It holds the whole recording in memory: for replay and mock, not for
// browsing large files.
func (r *Reader) Events() ([]Entry, []Problem) {
	out := make([]Entry, 0, len(r.offsets))
	var bad []Problem
	for i := range r.offsets {
		if r.unreadable(i) != "" {
			continue // already among Problems
		}
		e, err := r.Entry(i)
		if err != nil {
			bad = append(bad, Problem{Line: e.Line, Err: err.Error()})
			continue
		}
		out = append(out, e)
	}
	sort.SliceStable(out, func(a, b int) bool {
		if out[a].Gen != out[b].Gen {
			return out[a].Gen < out[b].Gen
		}
		return out[a].Event.Seq < out[b].Event.Seq
	})
	return out, bad
}

// Close closes the file.
func (r *Reader) Close() error { return r.f.Close() }

func marshalAny(v any) ([]byte, error) { return json.Marshal(v) }

// readEntry reads and decodes the event line of n bytes at off; ln is its line number, for
// errors (0 when unknown).
func readEntry(f io.ReaderAt, path string, off, n int64, ln int) (Entry, error) {
	where := fmt.Sprintf("recording %s line %d", path, ln)
	if ln == 0 {
		where = fmt.Sprintf("recording %s at byte %d", path, off)
	}
	b := make([]byte, n)
	if _, err := f.ReadAt(b, off); err != nil && !(err == io.EOF && len(b) > 0) {
		return Entry{Line: ln}, fmt.Errorf("%s: %w", where, err)
	}
	var l line
	if err := json.Unmarshal(b, &l); err != nil {
		return Entry{Line: ln}, fmt.Errorf("%s: corrupt: %w", where, err)
	}
	e, err := l.toEvent()
	if err != nil {
		return Entry{Line: ln}, fmt.Errorf("%s: %w", where, err)
	}
	return Entry{Event: e, Mono: time.Duration(l.MonoNS), Gen: l.Gen, Line: ln}, nil
}
