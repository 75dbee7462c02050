package fault

import (
	"bytes"
	"encoding/json"
)

// A message edited or written at a breakpoint goes on as one frame, whatever the editor
// made of it: valid JSON compacted to one line; other bytes as they are, except that on a
// line-framed wire (stdio, where a newline ends a frame) their line breaks become spaces,
// and the decision's note says so. On HTTP a body may keep its line breaks.

// oneFrame is raw as one frame: compacted when it is JSON; when lines (a line-framed
// wire), each CR or LF of bytes that are not JSON becomes a space. spaced reports that
// some did.
func oneFrame(raw []byte, lines bool) (out []byte, spaced bool) {
	var b bytes.Buffer
	if json.Compact(&b, raw) == nil {
		return b.Bytes(), false
	}
	if !lines || !bytes.ContainsAny(raw, "\r\n") {
		return raw, false
	}
	out = clone(raw)
	for i, c := range out {
		if c == '\n' || c == '\r' {
			out[i] = ' '
		}
	}
	return out, true
}

// framed is d with its bytes made one frame for h's wire.
func (h *Held) framed(d Decision) Decision {
	if d.Raw == nil || d.Verb == DropIt {
		return d
	}
	d.Raw, d.spaced = oneFrame(d.Raw, h.LineFramed)
	return d
}

// spacedNote is what the decision's note adds when line breaks became spaces.
const spacedNote = " (not JSON; its line breaks became spaces, as a stdio frame is one line)"
