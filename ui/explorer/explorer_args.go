package explorer

import (
	"bytes"
	"encoding/json"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
)

// maxArgsShown bounds the arguments a result shows when expanded (the full detail, z).
const maxArgsShown = 4 << 10

// argsOf is the arguments member of params, compact; nil when there is none.
func argsOf(params any) json.RawMessage {
	m, ok := params.(map[string]any)
	if !ok || m["arguments"] == nil {
		return nil
	}
	b, err := json.Marshal(m["arguments"])
	if err != nil {
		return nil
	}
	return b
}

// runArgs are the arguments the run's answer answers: as sent, or as delivered when the
// request was edited at a breakpoint (edited says so); nil when the request had none.
func (x *Explorer) runArgs(r *callRun) (args json.RawMessage, edited bool) {
	if req := x.requestEntry(r); req != nil && req.Delivered != "" && req.Ev.Dir == protocol.ClientToServer {
		var m struct {
			Params struct {
				Arguments json.RawMessage `json:"arguments"`
			} `json:"params"`
		}
		if json.Unmarshal([]byte(req.Delivered), &m) == nil {
			return m.Params.Arguments, true
		}
		return nil, true // the edit is known only by its head
	}
	return r.args, false
}

// argsLines show the arguments a result answers: one line cut to the width, or, in the
// full detail (z), pretty and whole up to maxArgsShown.
func (x *Explorer) argsLines(r *callRun, w int) []string {
	s := x.c.Styles
	args, edited := x.runArgs(r)
	label := "arguments "
	if edited {
		label = "arguments ⏸ edited at a breakpoint "
	}
	if len(args) == 0 {
		if edited {
			return []string{" " + s.Muted.Render(label) + s.Subtle.Render("(the edit is longer than mcpscope kept: see the timeline)")}
		}
		return nil
	}
	text := x.c.Mask.String(string(args)) // masked before it is cut or wrapped
	if !x.zoom {
		line := " " + s.Muted.Render(label) + s.Subtle.Render(escapeText(text))
		return []string{textfmt.Clip(line, w)}
	}
	var pretty bytes.Buffer
	if json.Indent(&pretty, []byte(text), "", "  ") == nil {
		text = pretty.String()
	}
	cut := len(text) > maxArgsShown
	if cut {
		text = text[:maxArgsShown]
	}
	out := []string{" " + s.Muted.Render(label)}
	for _, l := range bytes.Split([]byte(text), []byte("\n")) {
		out = append(out, textfmt.WrapProse(s.Subtle, escapeText(string(l)), "   ", w)...)
	}
	if cut {
		out = append(out, "   "+s.Muted.Render("… the first "+textfmt.Bytes(maxArgsShown)+" shown; T shows the request in the timeline"))
	}
	return out
}
