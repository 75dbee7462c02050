package ui

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// chainMark is the mark a chain row's label starts with: "↻2 " and, after the first round,
// an indent that sets it under the first request.
func chainMark(e *traffic.Entry) string {
	if e.Chain == nil {
		return ""
	}
	if e.Round > 1 {
		return fmt.Sprintf("  ↻%d ", e.Round)
	}
	return fmt.Sprintf("↻%d ", e.Round)
}

// chainText lists the whole chain in the detail of any of its members: each request's id,
// each result's resultType, which input requests the server asked and which were answered.
func chainText(b *textBlock, e *traffic.Entry) {
	s := b.s
	if e.Chain == nil {
		if cs := e.Ev.Corr.ChainSeq; cs != 0 {
			b.field("chain", s.Accent, fmt.Sprintf("input_required retry of the request of event %d (no longer in memory)", cs))
		}
		return
	}
	rounds := 0
	for _, m := range e.Chain.Members {
		rounds = max(rounds, m.Round)
	}
	b.field("chain", s.Accent, fmt.Sprintf("one call in %s (input_required, then retried with a new id)", textfmt.Plural(rounds, "round")))
	for _, m := range e.Chain.Members {
		if m.Ev == nil || m.Ev.Frame == nil {
			continue
		}
		f := m.Ev.Frame
		here := "  "
		if m == e {
			here = "▶ "
		}
		var line string
		switch {
		case m.IsRequest():
			line = fmt.Sprintf("↻%d → request #%s", m.Round, f.ID)
			if keys := inputResponseKeys(f.Params); len(keys) > 0 {
				line += "  answers " + strings.Join(keys, ", ")
			}
		case f.Kind == protocol.KindError:
			line = fmt.Sprintf("↻%d ← error #%s  %s", m.Round, f.ID, errorText(f.Error))
		default:
			rt := protocol.ResultType(f)
			if rt == "" {
				rt = "complete"
			}
			line = fmt.Sprintf("↻%d ← result #%s  resultType %s", m.Round, f.ID, rt)
			if asks := inputRequestList(f.Result); asks != "" {
				line += "  asks " + asks
			}
		}
		b.para(s.Text, here+line, labelWidth)
	}
}

// inputResponseKeys are the keys of a retry's params.inputResponses, sorted.
func inputResponseKeys(params json.RawMessage) []string {
	var p struct {
		InputResponses map[string]json.RawMessage `json:"inputResponses"`
	}
	if json.Unmarshal(params, &p) != nil {
		return nil
	}
	keys := make([]string, 0, len(p.InputResponses))
	for k := range p.InputResponses {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// inputRequestList is "key (method), …" of an input_required result's inputRequests.
func inputRequestList(result json.RawMessage) string {
	var r struct {
		InputRequests map[string]struct {
			Method string `json:"method"`
		} `json:"inputRequests"`
	}
	if json.Unmarshal(result, &r) != nil || len(r.InputRequests) == 0 {
		return ""
	}
	keys := make([]string, 0, len(r.InputRequests))
	for k := range r.InputRequests {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for i, k := range keys {
		keys[i] = k + " (" + r.InputRequests[k].Method + ")"
	}
	return strings.Join(keys, ", ")
}
