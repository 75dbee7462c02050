package session

import "time"

// Queue is a FIFO bounded by count and by bytes, for a consumer that may fall behind: past
// either bound, Push drops the oldest items and accounts for them as one Gap, which Take
// hands over before the items that follow it. A lossless queue never drops: its owner
// holds the producer back while Full. Subscriptions and a tap's viewers use it. It is not
// safe for concurrent use: its owner locks.
type Queue[T any] struct {
	// MaxItems and MaxBytes are the bounds (≤ 0: DefaultSubscriptionBound and
	// DefaultSubscriptionBytes). The newest item is always kept, however large.
	MaxItems int
	MaxBytes int64
	// Lossless keeps every item, whatever the bounds.
	Lossless bool

	items   []queued[T]
	head    int // index of the first item not taken
	bytes   int64
	gap     Gap       // loss not yet taken (Events 0: none)
	gapTime time.Time // time of the last item lost
	dropped uint64
}

type queued[T any] struct {
	v    T
	seq  uint64
	size int64
	at   time.Time
}

func (q *Queue[T]) limits() (int, int64) {
	n, b := q.MaxItems, q.MaxBytes
	if n <= 0 {
		n = DefaultSubscriptionBound
	}
	if b <= 0 {
		b = DefaultSubscriptionBytes
	}
	return n, b
}

// Push appends v (stream position seq, size bytes, time at), dropping the oldest items
// while the queue would be over a bound, unless it is lossless.
func (q *Queue[T]) Push(v T, seq uint64, size int64, at time.Time) {
	if !q.Lossless {
		maxN, maxB := q.limits()
		for q.Len() > 0 && (q.Len() >= maxN || q.bytes+size > maxB) {
			q.lose()
		}
	}
	q.items = append(q.items, queued[T]{v, seq, size, at})
	q.bytes += size
}

// lose drops the oldest item into the pending gap. Drops are always of the oldest item, so
// the gap covers one contiguous run of the stream.
func (q *Queue[T]) lose() {
	it := &q.items[q.head]
	q.gap.Add(Gap{FirstSeq: it.seq, LastSeq: it.seq, Events: 1, Bytes: it.size})
	q.gapTime = it.at
	q.bytes -= it.size
	q.dropped++
	*it = queued[T]{}
	q.head++
}

// Len is the number of items waiting.
func (q *Queue[T]) Len() int { return len(q.items) - q.head }

// Bytes is the size of the items waiting.
func (q *Queue[T]) Bytes() int64 { return q.bytes }

// Full reports whether the queue is at or over a bound (what holds back the producer of a
// lossless queue).
func (q *Queue[T]) Full() bool {
	maxN, maxB := q.limits()
	return q.Len() > 0 && (q.Len() >= maxN || q.bytes >= maxB)
}

// Ready reports whether Take has something to give: items or a loss.
func (q *Queue[T]) Ready() bool { return q.Len() > 0 || q.gap.Events > 0 }

// Dropped is how many items the queue lost in all.
func (q *Queue[T]) Dropped() uint64 { return q.dropped }

// Take removes and returns the loss that came before the waiting items, if any (with the
// time of its last lost item), and the items, oldest first: at most max in all when
// max > 0, the loss counting as one.
func (q *Queue[T]) Take(max int) (gap *Gap, at time.Time, items []T) {
	n := q.Len()
	if q.gap.Events > 0 {
		g := q.gap
		gap, at = &g, q.gapTime
		q.gap, q.gapTime = Gap{}, time.Time{}
		max--
		if max == 0 {
			n = 0
		}
	}
	if max > 0 {
		n = min(n, max)
	}
	items = make([]T, n)
	for i := range items {
		it := &q.items[q.head+i]
		items[i] = it.v
		q.bytes -= it.size
		*it = queued[T]{}
	}
	q.head += n
	if q.head == len(q.items) {
		q.items = q.items[:0]
		q.head = 0
	} else if q.head > 4096 && q.head > len(q.items)/2 {
		q.items = append(q.items[:0], q.items[q.head:]...)
		q.head = 0
	}
	return gap, at, items
}
