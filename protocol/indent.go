package protocol

import (
	"bufio"
	"fmt"
	"io"
)

// WriteIndented writes the JSON value raw to w indented exactly as json.Indent(dst, raw, "",
// indent) would lay it out, but streaming: it checks raw in one pass of the scanner, then
// writes it through a small buffer, so a value of many megabytes is never held twice. Each
// string literal (with its quotes) goes through str when str is not nil, which may return it
// or an equivalent literal (escaping what a terminal must not get raw). raw that is not one
// JSON value, or that nests beyond MaxNesting levels (an error wrapping ErrTooDeep), is an
// error, and then nothing is written; a failure of w is a *WriteError.
func WriteIndented(w io.Writer, raw []byte, indent string, str func([]byte) []byte) error {
	start := skipSpace(raw, 0)
	end, depth, serr := scanValue(raw, start)
	if serr != nil {
		return serr
	}
	if depth > MaxNesting {
		return fmt.Errorf("the JSON nests %d levels: %w", depth, ErrTooDeep)
	}
	if rest := skipSpace(raw, end); rest != len(raw) {
		return errAt(raw, rest, "end of input")
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	level, open := 0, false // open: a '{' or '[' was written and its first member not yet
	newline := func() {
		_ = bw.WriteByte('\n')
		for range level {
			_, _ = bw.WriteString(indent)
		}
	}
	for i := start; i < end; {
		c := raw[i]
		if isSpace(c) {
			i++
			continue
		}
		if open && c != '}' && c != ']' {
			open = false
			level++
			newline()
		}
		switch c {
		case '"':
			e, _, _ := scanString(raw, i)
			lit := raw[i:e]
			if str != nil {
				lit = str(lit)
			}
			_, _ = bw.Write(lit)
			i = e
			continue
		case '{', '[':
			open = true
			_ = bw.WriteByte(c)
		case ',':
			_ = bw.WriteByte(c)
			newline()
		case ':':
			_, _ = bw.WriteString(": ")
		case '}', ']':
			if open {
				open = false // an empty object or array stays {} or []
			} else {
				level--
				newline()
			}
			_ = bw.WriteByte(c)
		default:
			e, _ := scanScalar(raw, i)
			_, _ = bw.Write(raw[i:e])
			i = e
			continue
		}
		i++
	}
	_, _ = bw.Write(raw[end:]) // trailing space is kept, as json.Indent keeps it
	if err := bw.Flush(); err != nil {
		return &WriteError{err}
	}
	return nil
}

// WriteError is WriteIndented's error when its writer failed (the JSON itself was valid).
type WriteError struct{ Err error }

func (e *WriteError) Error() string { return e.Err.Error() }
func (e *WriteError) Unwrap() error { return e.Err }
