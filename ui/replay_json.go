package ui

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/recordings"
)

// pline is one line of pretty JSON with the JSON pointer of the value it belongs to: a
// scalar's line (with its key), or the opening or closing line of an object or array.
type pline struct {
	text string
	ptr  string
}

// prettyPointers pretty-prints raw (two-space indent, keys in the order they were sent)
// and names each line's JSON pointer, so a difference's lines can be found. Text that is
// not JSON is shown as it is, every line at the whole value ("").
func prettyPointers(raw []byte) []pline {
	p := &pointerPrinter{dec: json.NewDecoder(bytes.NewReader(raw))}
	p.dec.UseNumber()
	if err := p.value("", "", 0); err != nil || p.dec.More() {
		var out []pline
		for l := range strings.SplitSeq(string(raw), "\n") {
			out = append(out, pline{text: l})
		}
		return out
	}
	return p.lines
}

// pointerPrinter walks a JSON text token by token.
type pointerPrinter struct {
	dec   *json.Decoder
	lines []pline
}

var errNotJSON = errors.New("not JSON")

// value prints the value at ptr, its first line starting with prefix (indentation and key).
func (p *pointerPrinter) value(ptr, prefix string, depth int) error {
	tok, err := p.dec.Token()
	if err != nil {
		return err
	}
	d, ok := tok.(json.Delim)
	if !ok {
		p.lines = append(p.lines, pline{prefix + scalarText(tok), ptr})
		return nil
	}
	closer := "}"
	if d == '[' {
		closer = "]"
	} else if d != '{' {
		return errNotJSON
	}
	if !p.dec.More() {
		_, err := p.dec.Token()
		p.lines = append(p.lines, pline{prefix + d.String() + closer, ptr})
		return err
	}
	p.lines = append(p.lines, pline{prefix + d.String(), ptr})
	ind := strings.Repeat("  ", depth+1)
	for i := 0; p.dec.More(); i++ {
		child, childPrefix := ptr+"/"+strconv.Itoa(i), ind
		if d == '{' {
			kt, err := p.dec.Token()
			if err != nil {
				return err
			}
			k, ok := kt.(string)
			if !ok {
				return errNotJSON
			}
			child, childPrefix = ptr+"/"+pointerSegment(k), ind+scalarText(k)+": "
		}
		if err := p.value(child, childPrefix, depth+1); err != nil {
			return err
		}
		if p.dec.More() {
			p.lines[len(p.lines)-1].text += ","
		}
	}
	if _, err := p.dec.Token(); err != nil {
		return err
	}
	p.lines = append(p.lines, pline{strings.Repeat("  ", depth) + closer, ptr})
	return nil
}

// scalarText renders a decoded scalar as JSON, strings without HTML escaping.
func scalarText(tok json.Token) string {
	switch v := tok.(type) {
	case nil:
		return "null"
	case json.Number:
		return v.String()
	case bool:
		return strconv.FormatBool(v)
	case string:
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(v)
		return strings.TrimSuffix(b.String(), "\n")
	}
	return ""
}

// pointerSegment escapes a member name as a JSON pointer segment (RFC 6901).
func pointerSegment(k string) string {
	return strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
}

// differs reports whether the value at ptr is, or lies inside, a place that differs.
func differs(ptr string, diffs []recordings.Difference) bool {
	for _, d := range diffs {
		if d.Path == "" || ptr == d.Path || strings.HasPrefix(ptr, d.Path+"/") {
			return true
		}
	}
	return false
}

// rline is one screen line of a response: a piece of a pretty JSON line, and whether it
// belongs to a difference.
type rline struct {
	text string
	mark bool
}

// responseLines lays a response out at width w: pretty JSON, long lines wrapped, the lines
// of differing places marked. A side without a response says so.
func responseLines(raw json.RawMessage, diffs []recordings.Difference, w int, absent string) []rline {
	if raw == nil {
		return []rline{{text: absent}}
	}
	var out []rline
	for _, l := range prettyPointers(raw) {
		mark := differs(l.ptr, diffs)
		for part := range strings.SplitSeq(ansi.Hardwrap(l.text, max(1, w), true), "\n") {
			out = append(out, rline{text: part, mark: mark})
		}
	}
	return out
}
