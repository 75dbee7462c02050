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

// Entry is one recorded event with where it came from.
type Entry struct {
	Event *session.Event
	Mono  time.Duration // since the first recorded event, on the monotonic clock
	Gen   int           // which session of the recording (0 when the line does not say)
	Line  int           // 1-based line number in the file
}

// Reader gives access to the events of a recording. Open indexes the file (the offset and
// length of each event line, twelve bytes an event) without keeping lines in memory; events
// are decoded on demand. A Reader is safe for concurrent use.
type Reader struct {
	f        *os.File
	path     string
	header   Header
	offsets  []int64
	lens     []uint32
	lines    []int32 // line number of each event when it differs from index+2 (skipped lines); nil when none
	problems []Problem
	size     int64
}

// Open reads a recording's header and indexes its event lines. Lines that are cut short
// (the last line of a recording whose writer was killed) or that are not JSON objects are
// reported by Problems and skipped; a file whose first line is not a recording header is
// an error.
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
		switch {
		case empty:
		case !terminated && !r.validTail(lineStart, n):
			r.problems = append(r.problems, Problem{lineNo, "cut short (the recording ended in the middle of this line); skipped"})
		case firstB != '{' || lastB != '}':
			r.problems = append(r.problems, Problem{lineNo, "not a JSON object; skipped"})
		case n > 1<<32-1:
			r.problems = append(r.problems, Problem{lineNo, "longer than 4 GiB; skipped"})
		default:
			if r.lines != nil || lineNo != len(r.offsets)+2 {
				if r.lines == nil {
					r.lines = make([]int32, len(r.offsets), cap(r.offsets))
					for i := range r.lines {
						r.lines[i] = int32(i + 2)
					}
				}
				r.lines = append(r.lines, int32(lineNo))
			}
			r.offsets = append(r.offsets, lineStart)
			r.lens = append(r.lens, uint32(n))
		}
		empty = true
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

// Len is the number of indexed events.
func (r *Reader) Len() int { return len(r.offsets) }

// Size is the file's size in bytes.
func (r *Reader) Size() int64 { return r.size }

// Problems lists the lines that were skipped, and those found corrupt when decoded.
func (r *Reader) Problems() []Problem { return r.problems }

// Line is the 1-based line number of event i in the file.
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
	if i < 0 || i >= len(r.offsets) {
		return Entry{}, fmt.Errorf("event %d out of range (the recording has %d)", i, len(r.offsets))
	}
	return readEntry(r.f, r.path, r.offsets[i], int64(r.lens[i]), r.Line(i))
}

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
// do not decode. It holds the whole recording in memory: for replay and mock, not for
// browsing large files.
func (r *Reader) Events() ([]Entry, []Problem) {
	out := make([]Entry, 0, len(r.offsets))
	var bad []Problem
	for i := range r.offsets {
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
