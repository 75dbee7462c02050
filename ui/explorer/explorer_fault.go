package explorer

import (
	"strings"

	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// faultLines say what mcpscope itself did to a run's request or answer: a fault rule that
// acted on either ("⚡ the request: error: answered by mcpscope (rule 2: …)", "dropped
// (rule 1: …), then: request timed out"), an answer mcpscope made in the server's place, a
// breakpoint that held either. A result a rule made must never pass for the server's.
func (x *Explorer) faultLines(r *callRun, w int) []string {
	if x.hist == nil {
		return nil
	}
	req := x.requestEntry(r)
	var resp *traffic.Entry
	if r.resp != nil && r.resp.Event != nil {
		resp = x.hist.Lookup(r.gen, r.resp.Event.Seq)
	}
	if resp == nil && req != nil && req.Pair != nil && req.Pair.Ev != nil && req.Pair.Ev.Frame != nil {
		resp = req.Pair
	}
	var said []string
	if req != nil {
		if req.Fault != "" {
			t := "⚡ the request: " + req.Fault
			if r.err != nil && resp == nil {
				t += ", then: " + r.err.Error()
			}
			said = append(said, t)
		}
		if req.Hold != "" {
			t := "⏸ the request: " + req.Hold
			if req.Delivered != "" {
				t += " (the server got the edit)"
			}
			said = append(said, t)
		}
	}
	if resp != nil {
		if traffic.MadeByMcpscope(resp) && (req == nil || !strings.Contains(req.Fault, "answered by mcpscope")) {
			said = append(said, "⚡ the answer was made by mcpscope, not by the server")
		}
		if resp.Fault != "" {
			said = append(said, "⚡ the answer: "+resp.Fault)
		}
		if resp.Hold != "" {
			said = append(said, "⏸ the answer: "+resp.Hold)
		}
	}
	var out []string
	for _, t := range said {
		out = append(out, textfmt.WrapProse(x.c.Styles.Error, escapeProse(t), " ", w)...)
	}
	return out
}
