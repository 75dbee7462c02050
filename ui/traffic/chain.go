package traffic

import "slices"

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
