package lines

import "bytes"

// Splitter cuts a byte stream into lines. Set Max, Emit and either Head or Pieces, then call
// Write with each piece of the stream as it is read, and End when the stream ends. It is not
// safe for concurrent use: one reader feeds it.
type Splitter struct {
	// Max is the longest line emitted whole, in bytes.
	Max int64
	// Head is how much of a line longer than Max is kept and emitted, truncated, with its full
	// size. It is bounded by Max. Unused with Pieces.
	Head int64
	// Pieces emits a line longer than Max as pieces of Max bytes instead of truncating it;
	// a line that fills its last piece exactly leaves no empty piece behind.
	Pieces bool
	// Emit gets each line and owns it: line is a fresh slice, never reused. size is the
	// line's full length (more than len(line) when truncated); unterminated is set for a last
	// line with no "\n".
	Emit func(line []byte, size int64, truncated, unterminated bool)

	line  []byte   // the newest piece of the line so far; only its head once over
	done  [][]byte // the earlier, full pieces of a long line, joined once at its end
	held  int64    // bytes in done
	size  int64    // bytes of the line so far
	over  bool     // the line exceeded Max (not with Pieces)
	split bool     // Pieces: the last piece emitted was cut mid-line
	skip  bool     // bytes were lost: what comes before the next "\n" is no line
}

// Write takes the next bytes of the stream and emits every line they complete. It keeps
// nothing of p once it returns.
func (s *Splitter) Write(p []byte) {
	if s.skip {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			return
		}
		s.skip, p = false, p[i+1:]
	}
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			s.add(p)
			return
		}
		if s.size == 0 && int64(i) <= s.Max {
			// The common case: a whole line in one piece. Emit an exact copy; the empty line
			// after a piece cut exactly at Max is no line.
			if i > 0 || !s.split {
				s.Emit(append(make([]byte, 0, i), p[:i]...), int64(i), false, false)
			}
		} else {
			s.add(p[:i])
			if !s.split || s.size > 0 {
				s.flush(false)
			}
		}
		s.split = false
		p = p[i+1:]
	}
}

// Skip is called when bytes of the stream were lost: the line under way is dropped, since
// the loss cut it, and with toNewline so is everything written up to the next "\n" (the loss
// ended inside a line, so what follows it is no whole line until then).
func (s *Splitter) Skip(toNewline bool) {
	s.line, s.done, s.held, s.size, s.over, s.split = nil, nil, 0, 0, false, false
	s.skip = toNewline
}

// End emits a last line that had no "\n". The Splitter can then take a new stream.
func (s *Splitter) End() {
	s.skip = false
	if s.size > 0 {
		s.flush(true)
	}
	s.split = false
}

// add appends part of a line, emitting pieces or dropping what is past the head.
func (s *Splitter) add(part []byte) {
	if s.Pieces {
		for s.kept()+int64(len(part)) > s.Max {
			take := s.Max - s.kept()
			s.keep(part[:take])
			s.size += take
			part = part[take:]
			s.flush(false)
			s.split = true
		}
		s.keep(part)
		s.size += int64(len(part))
		return
	}
	s.size += int64(len(part))
	head := max(0, min(s.Max, s.Head))
	if !s.over && s.size > s.Max {
		s.over = true
		s.cut(head)
	}
	if s.over {
		if room := head - s.kept(); room > 0 {
			s.keep(part[:min(room, int64(len(part)))])
		}
		return
	}
	s.keep(part)
}

// kept is how many bytes of the line are held.
func (s *Splitter) kept() int64 { return s.held + int64(len(s.line)) }

// keep appends p to the line held. A long line is held as pieces that double in size, each
// written once, and joined once, into a slice of exactly its size, when the line ends:
// appending to one slice would copy it again at every growth (several times the line for a
// frame of many megabytes) and leave it in a slice larger than the line. The first piece is
// exactly the first part, so a line that ends in the next read costs no more than it is.
func (s *Splitter) keep(p []byte) {
	for len(p) > 0 {
		if len(s.line) == cap(s.line) {
			if len(s.line) > 0 {
				s.done = append(s.done, s.line)
				s.held += int64(len(s.line))
			}
			size := max(min(s.held, maxPiece), int64(len(p)))
			s.line = make([]byte, 0, min(size, max(s.Max-s.held, 1)))
		}
		n := copy(s.line[len(s.line):cap(s.line)], p)
		s.line = s.line[:len(s.line)+n]
		p = p[n:]
	}
}

// maxPiece bounds the pieces of a long line: they grow with the line up to it.
const maxPiece = 8 << 20

// cut keeps only the first n bytes of the line held.
func (s *Splitter) cut(n int64) {
	if s.kept() <= n {
		return
	}
	line := s.joined()
	s.line = line[:n]
}

// joined returns the line held as one slice, joining its pieces into one of exactly its size.
func (s *Splitter) joined() []byte {
	if len(s.done) == 0 {
		return s.line
	}
	out := make([]byte, 0, s.kept())
	for _, d := range s.done {
		out = append(out, d...)
	}
	out = append(out, s.line...)
	s.done, s.held = nil, 0
	return out
}

// flush emits the line so far and starts a new one.
func (s *Splitter) flush(unterminated bool) {
	l := s.joined()
	if l == nil {
		l = []byte{}
	}
	s.Emit(l, s.size, s.over, unterminated)
	s.line, s.size, s.over = nil, 0, false
}
