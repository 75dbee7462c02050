package replay

import (
	"encoding/json"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/ui/internal/jsonview"
)

// differs reports whether the value at ptr is, or lies inside, a place that differs.
func differs(ptr string, diffs []recordings.Difference) bool {
	for _, d := range diffs {
		if d.Path == "" || ptr == d.Path || strings.HasPrefix(ptr, d.Path+"/") {
			return true
		}
	}
	return false
}

// rline is one screen line of a response: a piece of a pretty JSON line, plain and
// coloured, and whether it belongs to a difference.
type rline struct {
	text, styled string
	mark         bool
}

// responseLines lays a response out at width w: pretty JSON in p's colours (keys in the
// order they were sent), long lines wrapped, the lines of differing places, found by each
// line's JSON pointer, marked. A side without a response says so.
func responseLines(p *jsonview.Palette, raw json.RawMessage, diffs []recordings.Difference, w int, absent string) []rline {
	if raw == nil {
		return []rline{{text: absent, styled: absent}}
	}
	r := jsonview.Pretty(p, raw, jsonview.Options{Pointers: true})
	var out []rline
	for i, l := range r.Lines {
		mark := differs(r.Pointers[i], diffs)
		for _, part := range jsonview.Wrap([]jsonview.Line{l}, max(1, w)) {
			out = append(out, rline{text: ansi.Strip(part), styled: part, mark: mark})
		}
	}
	return out
}
