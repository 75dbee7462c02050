package session

import "fmt"

// Gap says what a consumer of the event stream lost by falling behind: a contiguous run of
// events, from FirstSeq to LastSeq. It reaches the consumer as one EvGap event in place of
// what it lost, so a loss is never silent.
type Gap struct {
	FirstSeq uint64 `json:"first_seq"`
	LastSeq  uint64 `json:"last_seq"`
	Events   uint64 `json:"events"`
	Bytes    int64  `json:"bytes"` // Event.Size of the lost events (the size of encoded lines, for a tap's viewer)
}

// String is the gap in plain words: "412 events dropped between seq 1200 and 1611 (103 MiB)";
// without the size when it is unknown.
func (g Gap) String() string {
	return g.text(fmt.Sprintf("seq %d", g.FirstSeq), fmt.Sprint(g.LastSeq))
}

// Describe is String naming each seq with mark: Describe("#") gives "412 events dropped
// between #1200 and #1611 (103 MiB)".
func (g Gap) Describe(mark string) string {
	return g.text(fmt.Sprintf("%s%d", mark, g.FirstSeq), fmt.Sprintf("%s%d", mark, g.LastSeq))
}

// text says what g lost, its first and last seq written as given.
func (g Gap) text(first, last string) string {
	what := fmt.Sprintf("%d events dropped", g.Events)
	if g.Events == 1 {
		what = "1 event dropped"
	}
	if g.FirstSeq == g.LastSeq {
		what += " at " + first
	} else {
		what += " between " + first + " and " + last
	}
	if g.Bytes <= 0 {
		return what // a loss seen only as a jump in seq: its size is unknown
	}
	return what + " (" + HumanBytes(g.Bytes) + ")"
}

// Add extends g by a loss that follows it (a later contiguous run).
func (g *Gap) Add(o Gap) {
	if g.Events == 0 {
		*g = o
		return
	}
	g.LastSeq = o.LastSeq
	g.Events += o.Events
	g.Bytes += o.Bytes
}

// HumanBytes writes n bytes in binary units: "512 B", "3.5 KiB", "103 MiB", "1.2 GiB".
func HumanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	f := float64(n)
	for _, u := range []string{"KiB", "MiB", "GiB", "TiB"} {
		f /= unit
		if f < unit || u == "TiB" {
			if f < 10 {
				return fmt.Sprintf("%.1f %s", f, u)
			}
			return fmt.Sprintf("%.0f %s", f, u)
		}
	}
	return ""
}

// eventOverhead is what Size charges for an event beyond its variable parts: the Event and
// Frame structures, the parsed members' slice headers, the queue's pointer.
const eventOverhead = 320

// Size estimates the memory an event holds, in bytes: the frame's raw bytes (their
// capacity: a long line read in pieces may hold more than its length; the parsed members
// share them) and findings, the texts, an HTTP exchange's URL and headers (bodies
// are never held: they are frames), an exit's stderr lines, plus a fixed overhead. Queues
// are bounded by it.
func (e *Event) Size() int64 {
	n := int64(eventOverhead + len(e.Text) + len(e.Note))
	if f := e.Frame; f != nil {
		n += int64(cap(f.Raw))
		for _, fd := range f.Findings {
			n += int64(64 + len(fd.Message))
		}
		for _, m := range f.Batch {
			n += eventOverhead / 2
			for _, fd := range m.Findings {
				n += int64(64 + len(fd.Message))
			}
		}
	}
	if h := e.HTTP; h != nil {
		n += int64(len(h.URL) + len(h.Err) + len(h.Method) + len(h.Purpose) + len(h.ContentType))
		for _, hs := range []map[string][]string{h.ReqHeaders, h.RespHeaders} {
			for k, vs := range hs {
				n += int64(len(k))
				for _, v := range vs {
					n += int64(len(v) + 16)
				}
			}
		}
	}
	if x := e.Exit; x != nil {
		for _, l := range x.LastStderr {
			n += int64(len(l) + 16)
		}
	}
	return n
}
