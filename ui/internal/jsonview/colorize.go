package jsonview

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcpscope/mcpscope/protocol"
)

// Options say how Colorize lays JSON out.
type Options struct {
	// Indent re-indents with two spaces, one member or element a line (the layout
	// json.Indent gives); otherwise the text is compacted onto one line.
	Indent bool
	Limit  Limit
	// Pointers names the JSON pointer of each line (Result.Pointers): a scalar's line (with
	// its key), or the opening or closing line of an object or array.
	Pointers bool
}

// Result is Colorize's outcome.
type Result struct {
	Lines    []Line
	Pointers []string // one per line, when Options.Pointers is set
	Bytes    int      // bytes of text emitted
	Cut      bool     // stopped at the limit
}

// Colorize colours src in one pass, keeping the sender's key order and string escapes. It
// never fails: bytes that are not JSON are shown escaped in the Escape colour.
func Colorize(p *Palette, src []byte, o Options) Result {
	c := &colorizer{p: p, o: o, all: make([]Span, 0, len(src)/4+4)}
	c.run(string(src))
	if len(c.starts) == 0 || c.starts[len(c.starts)-1] < len(c.all) {
		c.endLine()
	}
	lines := make([]Line, len(c.starts))
	from := 0
	for i, end := range c.starts {
		lines[i] = c.all[from:end:end]
		from = end
	}
	return Result{Lines: lines, Pointers: c.ptrs, Bytes: c.used, Cut: c.cut}
}

// Pretty colours src with a two-space indent when it is one JSON value, and otherwise
// shows it as it is, escaped, every line at the whole value's pointer ("").
func Pretty(p *Palette, src []byte, o Options) Result {
	if json.Valid(src) {
		o.Indent = true
		return Colorize(p, src, o)
	}
	r := Result{Lines: Plain(src, "", p.Escape), Bytes: len(src)}
	if o.Pointers {
		r.Pointers = make([]string, len(r.Lines))
	}
	return r
}

// colorizer is one run of Colorize.
type colorizer struct {
	p      *Palette
	o      Options
	all    []Span // every span, line after line
	starts []int  // where each finished line ends in all
	used   int    // bytes emitted
	cut    bool   // stopped at the limit

	// With Options.Pointers: the containers open, the pointer of the value read next, and
	// the pointer of each finished line and of the current one.
	open    []container
	next    string
	ptrs    []string
	linePtr string
	ptrSet  bool
}

// container is an object or array being read, for pointers.
type container struct {
	ptr   string
	array bool
	n     int // elements seen (arrays)
}

func (c *colorizer) run(src string) {
	var stack []byte
	expectKey := false
	for i := 0; i < len(src) && !c.cut; {
		b := src[i]
		switch b {
		case ' ', '\t', '\n', '\r':
			i++
		case '{', '[':
			closer := byte('}')
			if b == '[' {
				closer = ']'
			}
			c.mark(c.next)
			if j := skipWS(src, i+1); j < len(src) && src[j] == closer {
				c.add(src[i:i+1]+string(closer), c.p.Punct)
				i, expectKey = j+1, false
				continue
			}
			c.add(src[i:i+1], c.p.Punct)
			stack = append(stack, b)
			c.push(b)
			c.newline(len(stack))
			expectKey = b == '{'
			i++
		case '}', ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
				c.newline(len(stack))
			}
			c.mark(c.pop())
			c.add(src[i:i+1], c.p.Punct)
			expectKey = false
			i++
		case ',':
			c.add(",", c.p.Punct)
			c.nextElement()
			c.newline(len(stack))
			expectKey = len(stack) > 0 && stack[len(stack)-1] == '{'
			i++
		case ':':
			c.add(":", c.p.Punct)
			if c.o.Indent {
				c.add(" ", "")
			}
			expectKey = false
			i++
		case '"':
			j := scanString(src, i)
			sgr := c.p.String
			if expectKey {
				sgr = c.p.Key
				c.key(src[i:j])
			}
			c.mark(c.next)
			c.addBytes(src[i:j], sgr)
			i = j
		default:
			j := i
			for j < len(src) && isLiteralByte(src[j]) {
				j++
			}
			c.mark(c.next)
			if j == i {
				_, n := utf8.DecodeRuneInString(src[i:])
				c.addBytes(src[i:i+n], c.p.Escape)
				i += n
				continue
			}
			c.addBytes(src[i:j], c.literalSGR(src[i:j]))
			i = j
		}
	}
}

func (c *colorizer) literalSGR(lit string) string {
	switch lit {
	case "true", "false":
		return c.p.Bool
	case "null":
		return c.p.Null
	}
	if lit[0] == '-' || (lit[0] >= '0' && lit[0] <= '9') {
		return c.p.Number
	}
	return c.p.Escape
}

// push opens a container at the pointer of the value being read; an array's first element
// is read next.
func (c *colorizer) push(b byte) {
	if !c.o.Pointers {
		return
	}
	c.open = append(c.open, container{ptr: c.next, array: b == '['})
	if b == '[' {
		c.next += "/0"
	}
}

// pop closes the innermost container and returns its pointer.
func (c *colorizer) pop() string {
	if !c.o.Pointers || len(c.open) == 0 {
		return c.next
	}
	top := c.open[len(c.open)-1]
	c.open = c.open[:len(c.open)-1]
	c.next = top.ptr
	return top.ptr
}

// nextElement moves the pointer to an array's next element after a comma.
func (c *colorizer) nextElement() {
	if !c.o.Pointers || len(c.open) == 0 || !c.open[len(c.open)-1].array {
		return
	}
	top := &c.open[len(c.open)-1]
	top.n++
	c.next = top.ptr + "/" + strconv.Itoa(top.n)
}

// key moves the pointer to the member named by the quoted key q.
func (c *colorizer) key(q string) {
	if !c.o.Pointers || len(c.open) == 0 {
		return
	}
	var name string
	if json.Unmarshal([]byte(q), &name) != nil {
		name = strings.Trim(q, `"`)
	}
	c.next = c.open[len(c.open)-1].ptr + "/" + protocol.PointerToken(name)
}

// mark names the current line's pointer by its first token.
func (c *colorizer) mark(ptr string) {
	if c.o.Pointers && !c.ptrSet {
		c.linePtr, c.ptrSet = ptr, true
	}
}

// endLine finishes the current line.
func (c *colorizer) endLine() {
	c.starts = append(c.starts, len(c.all))
	if c.o.Pointers {
		c.ptrs = append(c.ptrs, c.linePtr)
		c.linePtr, c.ptrSet = "", false
	}
}

// newline ends the current line and indents the next one (indent mode only).
func (c *colorizer) newline(depth int) {
	if !c.o.Indent || c.cut {
		return
	}
	c.endLine()
	if c.o.Limit.Lines > 0 && len(c.starts) >= c.o.Limit.Lines {
		c.cut = true
		return
	}
	if depth > 0 {
		c.add(indentation(depth), "")
	}
}

// add appends text known to be safe (punctuation, indentation).
func (c *colorizer) add(text, sgr string) {
	if c.cut {
		return
	}
	if c.o.Limit.Bytes > 0 && c.used+len(text) > c.o.Limit.Bytes {
		c.cut = true
		return
	}
	c.used += len(text)
	c.all = append(c.all, Span{text, sgr})
}

// addBytes appends source bytes, escaping what a terminal must not see raw.
func (c *colorizer) addBytes(b string, sgr string) {
	if c.cut {
		return
	}
	if c.o.Limit.Bytes > 0 && c.used+len(b) > c.o.Limit.Bytes {
		b = b[:CutUTF8(b, c.o.Limit.Bytes-c.used)]
		c.cut = true
	}
	c.used += len(b)
	c.all = AppendEscaped(c.all, b, sgr, c.p.Escape)
}

// spaces backs indentation: nesting deeper than it is rare and gets a fresh string.
var spaces = strings.Repeat(" ", 128)

// indentation is two spaces per level.
func indentation(depth int) string {
	if 2*depth <= len(spaces) {
		return spaces[:2*depth]
	}
	return strings.Repeat("  ", depth)
}

func skipWS(src string, i int) int {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r') {
		i++
	}
	return i
}

// scanString returns the index just past the string starting at src[i] (a quote), or
// len(src) when it is not closed.
func scanString(src string, i int) int {
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(src)
}

func isLiteralByte(b byte) bool {
	return b == '-' || b == '+' || b == '.' || (b >= '0' && b <= '9') || (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z')
}
