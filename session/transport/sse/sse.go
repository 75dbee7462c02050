package sse

import (
	"bufio"
	"bytes"
	"io"
	"math"
	"strconv"
	"time"
)

// DefaultMaxEvent is the size limit NewParser uses when given a non-positive one.
const DefaultMaxEvent = 64 << 20

// readSize is the read buffer size; lines longer than this are assembled across reads.
const readSize = 64 << 10

var bom = []byte{0xEF, 0xBB, 0xBF}

// Event is one block of an event stream: the lines up to and including the blank line that
// ends it.
type Event struct {
	// ID is the value of this block's id field, when HasID. An id field set to the empty
	// string resets the last event ID; LastEventID reports the persisting value.
	ID    string
	HasID bool
	// Type is the event type; "message" when the block has no event field.
	Type string
	// Data is the data lines joined with LF, without the final LF.
	Data string
	// HasData reports that the block had at least one data field: a browser dispatches
	// exactly these events (an event whose only data line is empty has HasData and Data "").
	HasData bool
	// Retry is the reconnection time the block asked for, when HasRetry.
	Retry    time.Duration
	HasRetry bool
	// Comments are the comment lines of the block, without their leading colon.
	Comments []string
	// Raw is the exact bytes of the block, including any blank lines before it and its
	// terminating blank line (at most the size limit; see Truncated).
	Raw []byte
	// Size is the full size of the block on the wire; larger than len(Raw) when Truncated.
	Size int64
	// Truncated reports that the block exceeded the size limit: Raw, Data (and any line
	// longer than the limit) hold only their heads.
	Truncated bool
}

// Parser reads events from a stream. It is not safe for concurrent use.
type Parser struct {
	r       *bufio.Reader
	max     int
	lineCap int
	started bool // the BOM check is done
	skipLF  bool // the last line ended with a CR at the end of the input read so far
	err     error

	idBuf  string // the last event ID buffer (persists across blocks)
	lastID string // the last event ID string, set when a block completes

	line     []byte
	lineOver bool

	// the block being read
	lines    int
	raw      []byte
	size     int64
	trunc    bool
	data     []byte
	hasData  bool
	typ      string
	id       string
	hasID    bool
	retry    time.Duration
	hasRetry bool
	comments []string

	incomplete []byte
}

// NewParser returns a parser reading from r. Each event keeps at most maxEvent bytes of raw
// text and of data (DefaultMaxEvent when maxEvent <= 0); longer events are truncated.
func NewParser(r io.Reader, maxEvent int) *Parser {
	if maxEvent <= 0 {
		maxEvent = DefaultMaxEvent
	}
	return &Parser{
		r:       bufio.NewReaderSize(r, readSize),
		max:     maxEvent,
		lineCap: maxEvent + len("retry: "),
	}
}

// LastEventID is the event stream's last event ID: the value to send as Last-Event-ID when
// reconnecting. It persists across events and changes only when a block with an id field
// completes.
func (p *Parser) LastEventID() string { return p.lastID }

// Incomplete returns the bytes read after the last returned event that did not form a
// complete block before the stream ended (at most the size limit). The standard discards
// them; a caller may still want to show them.
func (p *Parser) Incomplete() []byte { return p.incomplete }

// Next returns the next block that has at least one non-blank line. At the end of the
// stream it returns io.EOF (or the reader's error) and discards an unfinished block; every
// later call returns the same error.
func (p *Parser) Next() (Event, error) {
	if p.err != nil {
		return Event{}, p.err
	}
	for {
		line, err := p.readLine()
		if err != nil {
			p.err = err
			p.incomplete = p.raw
			p.resetBlock()
			return Event{}, err
		}
		if len(line) == 0 && !p.lineOver {
			if p.lines == 0 {
				continue // a blank line outside a block: its bytes go to the next block's Raw
			}
			return p.dispatch(), nil
		}
		p.lines++
		if p.lineOver {
			p.trunc = true
		}
		p.field(line)
	}
}

// field interprets one non-blank line.
func (p *Parser) field(line []byte) {
	if line[0] == ':' {
		p.comments = append(p.comments, string(line[1:]))
		return
	}
	name, value := line, []byte(nil)
	if i := bytes.IndexByte(line, ':'); i >= 0 {
		name, value = line[:i], line[i+1:]
		if len(value) > 0 && value[0] == ' ' {
			value = value[1:]
		}
	}
	switch string(name) {
	case "event":
		p.typ = string(value)
	case "data":
		p.hasData = true
		p.appendData(value)
	case "id":
		if bytes.IndexByte(value, 0) < 0 {
			p.idBuf = string(value)
			p.id, p.hasID = p.idBuf, true
		}
	case "retry":
		if d, ok := parseRetry(value); ok {
			p.retry, p.hasRetry = d, true
		}
	}
}

// parseRetry accepts a non-empty all-ASCII-digits value as milliseconds.
func parseRetry(v []byte) (time.Duration, bool) {
	if len(v) == 0 {
		return 0, false
	}
	for _, c := range v {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	const maxMS = math.MaxInt64 / int64(time.Millisecond)
	ms, err := strconv.ParseInt(string(v), 10, 64)
	if err != nil || ms > maxMS {
		return time.Duration(maxMS) * time.Millisecond, true // digits, but too large: clamp
	}
	return time.Duration(ms) * time.Millisecond, true
}

func (p *Parser) appendData(v []byte) {
	if len(p.data)+len(v)+1 > p.max {
		if room := p.max - len(p.data); room > 0 {
			p.data = append(p.data, v[:min(room, len(v))]...)
		}
		p.trunc = true
		return
	}
	p.data = append(p.data, v...)
	p.data = append(p.data, '\n')
}

// dispatch completes the current block and resets for the next one.
func (p *Parser) dispatch() Event {
	p.lastID = p.idBuf
	data := p.data
	if n := len(data); n > 0 && data[n-1] == '\n' {
		data = data[:n-1]
	}
	ev := Event{
		ID:        p.id,
		HasID:     p.hasID,
		Type:      p.typ,
		Data:      string(data),
		HasData:   p.hasData,
		Retry:     p.retry,
		HasRetry:  p.hasRetry,
		Comments:  p.comments,
		Raw:       p.raw,
		Size:      p.size,
		Truncated: p.trunc,
	}
	if ev.Type == "" {
		ev.Type = "message"
	}
	p.resetBlock()
	return ev
}

func (p *Parser) resetBlock() {
	p.lines, p.raw, p.size, p.trunc = 0, nil, 0, false
	p.data, p.hasData, p.typ = p.data[:0], false, ""
	p.id, p.hasID, p.retry, p.hasRetry, p.comments = "", false, 0, false, nil
}

// addRaw records bytes of the current block, keeping at most the size limit.
func (p *Parser) addRaw(b []byte) {
	p.size += int64(len(b))
	room := p.max - len(p.raw)
	if len(b) > room {
		p.trunc = true
		b = b[:max(room, 0)]
	}
	p.raw = append(p.raw, b...)
}

// keep appends to the current line, keeping at most lineCap bytes.
func (p *Parser) keep(b []byte) {
	room := p.lineCap - len(p.line)
	if len(b) > room {
		p.lineOver = true
		b = b[:max(room, 0)]
	}
	p.line = append(p.line, b...)
}

// readLine reads one line, without its terminator (CR, LF or CRLF). It never waits for
// more input once a line end is seen: an LF that follows a CR in a later read is skipped
// at the start of the next line (and counted in that block's Raw).
func (p *Parser) readLine() ([]byte, error) {
	p.line, p.lineOver = p.line[:0], false
	for {
		if !p.started {
			p.started = true
			// A returnable block needs at least three bytes, so waiting for them here
			// never delays an event.
			if b, _ := p.r.Peek(len(bom)); bytes.Equal(b, bom) {
				p.addRaw(bom)
				_, _ = p.r.Discard(len(bom))
			}
		}
		if p.r.Buffered() == 0 {
			if _, err := p.r.Peek(1); err != nil {
				return p.line, err
			}
		}
		b, _ := p.r.Peek(p.r.Buffered())
		if p.skipLF {
			p.skipLF = false
			if b[0] == '\n' {
				p.addRaw(b[:1])
				_, _ = p.r.Discard(1)
				continue
			}
		}
		i := bytes.IndexAny(b, "\r\n")
		if i < 0 {
			p.keep(b)
			p.addRaw(b)
			_, _ = p.r.Discard(len(b))
			continue
		}
		p.keep(b[:i])
		n := i + 1
		if b[i] == '\r' {
			switch {
			case i+1 == len(b):
				p.skipLF = true
			case b[i+1] == '\n':
				n++
			}
		}
		p.addRaw(b[:n])
		_, _ = p.r.Discard(n)
		return p.line, nil
	}
}
