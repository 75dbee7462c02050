package ui

import (
	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
)

// Entry is one timeline row: an event, or a marker (a server restart). Correlation fields
// are filled as later events arrive; only Update touches them.
type Entry struct {
	Ev     *session.Event
	Marker string // non-empty for a marker row
	Gen    int    // which session (restarts start a new one)
	Index  uint64 // position in the whole history, counting dropped entries

	Pair     *Entry            // request ⇄ response
	Ref      *Entry            // the request a progress/cancelled notification refers to
	Progress *session.Progress // latest progress of a request
	Answered bool              // a request whose response arrived (or that failed)
	Failed   string            // why a request ended without a response (timeout, exit)

	cache rowCache
}

// IsRequest reports whether e is an outgoing or incoming request frame.
func (e *Entry) IsRequest() bool {
	return e.Ev != nil && e.Ev.Kind == session.EvFrame && e.Ev.Frame.Kind == protocol.KindRequest
}

// HasFindings reports whether the frame (or a batch member) has findings.
func (e *Entry) HasFindings() bool {
	if e.Ev == nil || e.Ev.Frame == nil {
		return false
	}
	if len(e.Ev.Frame.Findings) > 0 {
		return true
	}
	for _, m := range e.Ev.Frame.Batch {
		if len(m.Findings) > 0 {
			return true
		}
	}
	return false
}

// IsError reports whether e is a JSON-RPC error response or an error event.
func (e *Entry) IsError() bool {
	if e.Ev == nil {
		return false
	}
	return e.Ev.Kind == session.EvError || (e.Ev.Frame != nil && e.Ev.Frame.Kind == protocol.KindError)
}

type genSeq struct {
	gen int
	seq uint64
}

// History is the bounded, ordered list of entries. Past Limit, the oldest entries leave
// memory (counted in Dropped); the recorder keeps them on disk.
type History struct {
	Limit   int
	Dropped uint64
	entries []*Entry
	next    uint64
	bySeq   map[genSeq]*Entry
	pending map[*Entry]struct{}

	Errors, Findings int
}

// DefaultHistoryLimit is the default bound of the in-memory history.
const DefaultHistoryLimit = 200_000

// NewHistory makes an empty history bounded at limit entries (≤0: the default).
func NewHistory(limit int) *History {
	if limit <= 0 {
		limit = DefaultHistoryLimit
	}
	return &History{Limit: limit, bySeq: map[genSeq]*Entry{}, pending: map[*Entry]struct{}{}}
}

// Len is the number of entries in memory.
func (h *History) Len() int { return len(h.entries) }

// At returns the i-th entry in memory.
func (h *History) At(i int) *Entry { return h.entries[i] }

// Entries returns the entries in memory (do not modify the slice).
func (h *History) Entries() []*Entry { return h.entries }

// InFlight is the number of requests still waiting for a response.
func (h *History) InFlight() int { return len(h.pending) }

// Pending returns the requests still waiting.
func (h *History) Pending() map[*Entry]struct{} { return h.pending }

// AddMarker appends a marker row.
func (h *History) AddMarker(gen int, text string) *Entry {
	e := &Entry{Marker: text, Gen: gen}
	h.push(e)
	return e
}

// Add appends one event and links it to what it answers or refers to. It returns the new
// entry and the older entries whose rows changed (so their cached rows can be dropped).
func (h *History) Add(gen int, ev *session.Event) (*Entry, []*Entry) {
	e := &Entry{Ev: ev, Gen: gen}
	var touched []*Entry
	if ev.Kind == session.EvFrame {
		f := ev.Frame
		if f.Kind == protocol.KindRequest {
			h.pending[e] = struct{}{}
		}
		if ev.Corr.RequestSeq != 0 {
			if req := h.bySeq[genSeq{gen, ev.Corr.RequestSeq}]; req != nil {
				switch {
				case f.Kind.IsResponse() || (f.Kind == protocol.KindBatch):
					if req.Pair == nil {
						req.Pair, e.Pair = e, req
					} else {
						e.Ref = req
					}
					req.Answered = true
					delete(h.pending, req)
					touched = append(touched, req)
				case ev.Corr.Progress != nil:
					e.Ref = req
					req.Progress = ev.Corr.Progress
					touched = append(touched, req)
				default:
					e.Ref = req
				}
			}
		}
		if e.HasFindings() {
			h.Findings++
		}
		if f.Kind == protocol.KindError {
			h.Errors++
		}
	}
	if ev.Kind == session.EvError {
		h.Errors++
		if req := h.bySeq[genSeq{gen, ev.Corr.RequestSeq}]; req != nil && ev.Corr.RequestSeq != 0 {
			e.Ref = req
			if _, ok := h.pending[req]; ok {
				req.Failed = ev.Text
				delete(h.pending, req)
				touched = append(touched, req)
			}
		}
	}
	h.bySeq[genSeq{gen, ev.Seq}] = e
	h.push(e)
	return e, touched
}

// EndGeneration marks every request of gen still pending as failed (the session closed).
func (h *History) EndGeneration(gen int, why string) []*Entry {
	var touched []*Entry
	for e := range h.pending {
		if e.Gen == gen {
			e.Failed = why
			delete(h.pending, e)
			touched = append(touched, e)
		}
	}
	return touched
}

func (h *History) push(e *Entry) {
	e.Index = h.next
	h.next++
	h.entries = append(h.entries, e)
	if len(h.entries) > h.Limit {
		h.drop(len(h.entries) - h.Limit + h.Limit/10)
	}
}

// drop removes the n oldest entries (in one move, so dropping is amortised).
func (h *History) drop(n int) {
	n = min(n, len(h.entries))
	for _, e := range h.entries[:n] {
		if e.Ev != nil {
			delete(h.bySeq, genSeq{e.Gen, e.Ev.Seq})
		}
		delete(h.pending, e)
		if e.Pair != nil {
			e.Pair.Pair = nil
		}
	}
	rest := make([]*Entry, len(h.entries)-n, max(len(h.entries)-n, h.Limit)+1)
	copy(rest, h.entries[n:])
	h.entries = rest
	h.Dropped += uint64(n)
}

// FirstIndex is the Index of the oldest entry in memory.
func (h *History) FirstIndex() uint64 { return h.Dropped }
