package explorer

import (
	"fmt"
	"slices"

	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// The explorer keeps each item's latest run with its whole result, to lay it out again at
// another width. Results are counted against the history's byte budget: the explorer
// holds whole results up to a quarter of it (resultHoldShare; 64 MiB of the default 256
// MiB) and past it lets the older runs' results go, keeping their layout at the width it
// was made for. The newest result is always held. A run whose result was let go and is
// shown at another width says so; the whole response stays in the timeline and the
// recording.

// resultHoldShare is the part of the history's byte budget the explorer's results may take.
const resultHoldShare = 4

// holdLimit is the most bytes of results the explorer holds whole.
func (x *Explorer) holdLimit() int64 {
	if x.hist == nil {
		return traffic.DefaultHistoryBytes / resultHoldShare
	}
	return x.hist.ByteBound() / resultHoldShare
}

// heldBytes is how much of a run's response the explorer holds: its frame, of which the
// result is a part.
func heldBytes(r *callRun) int64 {
	if r.released || !hasResult(r) {
		return 0
	}
	n := int64(len(r.resp.Result))
	if ev := r.resp.Event; ev != nil && ev.Frame != nil {
		n = max(n, int64(len(ev.Frame.Raw)))
	}
	return n
}

// releaseResults lets go of the results of the oldest runs past holdLimit, the newest
// kept whatever its size.
func (x *Explorer) releaseResults() {
	var held []*callRun
	for _, r := range x.runs {
		if heldBytes(r) > 0 {
			held = append(held, r)
		}
	}
	slices.SortFunc(held, func(a, b *callRun) int { return b.id - a.id })
	var total int64
	for i, r := range held {
		total += heldBytes(r)
		if i > 0 && total > x.holdLimit() {
			release(r)
		}
	}
}

// release drops a run's result and the frame it was read from, keeping the response's
// size, its latency and where it is in the history.
func release(r *callRun) {
	lean := *r.resp
	r.releasedSize = heldBytes(r)
	lean.Result = nil
	if lean.Event != nil {
		ev := *lean.Event
		ev.Frame = nil
		lean.Event = &ev
	}
	r.resp, r.released, r.preview, r.rendering = &lean, true, nil, resultKey{}
}

// releasedLines stands for the result of a run let go, at a width it was not laid out for.
func releasedLines(s *Styles, k *KeyMap, r *callRun, w int) []string {
	return textfmt.WrapProse(s.Muted, fmt.Sprintf("the result (%s) is no longer held, past the explorer's share of the history's memory: %s shows the whole response in the timeline, or run it again",
		textfmt.Bytes(r.releasedSize), k.ShowCall.Help().Key), " ", w)
}
