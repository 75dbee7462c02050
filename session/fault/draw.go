package fault

import (
	"hash/fnv"

	"github.com/mcpscope/mcpscope/protocol"
)

// A rule's p= draw for a message depends on the seed, the rule, the message's direction
// and bytes, and how many times the rule drew for the same bytes before: not on the order
// in which messages arrive. A server that answers concurrent requests in another order
// from run to run still gets the same verdict for each answer with the same --seed.

// maxDraws bounds the remembered draw counts; past it they start again from zero.
const maxDraws = 1 << 16

type drawKey struct {
	rule int
	hash uint64
}

// draw is rule's draw in [0, 1) for raw going in direction dir.
func (e *Engine) draw(rule int, dir protocol.Direction, raw []byte) float64 {
	h := fnv.New64a()
	h.Write([]byte{byte(dir)})
	h.Write(raw)
	k := drawKey{rule, h.Sum64()}
	if len(e.seen) >= maxDraws {
		clear(e.seen)
	}
	n := e.seen[k]
	e.seen[k] = n + 1
	x := splitmix(e.seed ^ splitmix(k.hash^uint64(rule)<<32^uint64(n)))
	return float64(x>>11) / (1 << 53)
}

// splitmix is SplitMix64's mixing of x: a well spread 64-bit value from any input.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}
