package ui

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
)

// Chain is a 2026-07-28 multi round-trip request: the original request, its input_required
// result, each retry (a new id, carrying inputResponses and requestState) and its result,
// up to the final one. The timeline shows it as one call: every row of the chain is marked
// with its round, and the pair key walks the chain.
type Chain struct {
	Members []*Entry // requests and responses, in arrival order
}

// joinChain adds e, a frame whose correlation names the first request of its chain, to
// that chain, making the chain when e is its first retry. It returns the entries whose rows
// changed (the first round's, when the chain is new).
func (h *History) joinChain(e *Entry, chainSeq uint64) []*Entry {
	first := h.bySeq[genSeq{e.Gen, chainSeq}]
	if first == nil {
		return nil // the first request left memory: the detail says so
	}
	var touched []*Entry
	c := first.Chain
	if c == nil {
		c = &Chain{Members: []*Entry{first}}
		first.Chain, first.Round = c, 1
		touched = append(touched, first)
		if p := first.Pair; p != nil && p.Chain == nil {
			c.Members = append(c.Members, p)
			p.Chain, p.Round = c, 1
			touched = append(touched, p)
		}
	}
	round := c.Members[len(c.Members)-1].Round
	if e.IsRequest() {
		round++
	}
	if p := e.Pair; p != nil && p.Chain == c {
		round = p.Round
	}
	e.Chain, e.Round = c, round
	c.Members = append(c.Members, e)
	return touched
}

// Next is the member after e, wrapping to the first: what the pair key jumps to.
func (c *Chain) Next(e *Entry) *Entry {
	i := slices.Index(c.Members, e)
	if i < 0 || len(c.Members) < 2 {
		return nil
	}
	return c.Members[(i+1)%len(c.Members)]
}

// chainMark is the mark a chain row's label starts with: "↻2 " and, after the first round,
// an indent that sets it under the first request.
func chainMark(e *Entry) string {
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
func chainText(b *textBlock, e *Entry) {
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
