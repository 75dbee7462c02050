package traffic

import (
	"encoding/json"
	"time"

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

	Pair     *Entry            // request ⇄ response (a batch ⇄ its first answer)
	Ref      *Entry            // the request a progress/cancelled notification or error refers to
	Progress *session.Progress // latest progress of a request
	Answered bool              // a request whose response arrived (every one, for a batch)
	Failed   string            // why a request ended without a response (timeout, cancel, exit)
	Clipped  int64             // the frame's full size when it is held cut to its head (see History.TruncateOver); 0 when whole
	Chain    *Chain            // the input_required chain the frame belongs to, or nil
	Round    int               // its round in the chain (1 = the original request)
	ToolErr  bool              // a tools/call result with isError true

	Era   *EraNote // on a JSON-RPC error: the era protocol auto negotiated and how to force another
	Fault string   // a fault rule's doing to this frame, in a line (history_fault.go); "" when none
	// Hold is what was decided of this frame held at a breakpoint ("held #1 forwarded after
	// 2s, edited"); when it was edited, HeldOriginal and Delivered are the bytes as they
	// came and as passed on, each one line of at most 4 KiB (history_hold.go); "" when none.
	Hold, HeldOriginal, Delivered string
	waiting                       int // responses still expected: 1 for a request, its request members for a batch
	Row                           RowCache
}

// IsRequest reports whether e is an outgoing or incoming request frame.
func (e *Entry) IsRequest() bool {
	return e.Ev != nil && e.Ev.Kind == session.EvFrame && e.Ev.Frame.Kind == protocol.KindRequest
}

// Waiting reports whether e is a request (or a batch of requests) still waiting for its
// response: its row shows a live elapsed timer.
func (e *Entry) Waiting() bool { return e.waiting > 0 && e.Failed == "" }

// HasFindings reports whether the frame (or a batch member), or the event that is not a
// frame (a redirect), has findings.
func (e *Entry) HasFindings() bool {
	if e.Ev == nil {
		return false
	}
	if e.Ev.Frame == nil {
		return len(e.Ev.Findings) > 0
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

// IsError reports whether e is a JSON-RPC error response (or a batch holding one), a tool
// error (a tools/call result with isError true) or an error event.
func (e *Entry) IsError() bool {
	if e.Ev == nil {
		return false
	}
	if e.Ev.Kind == session.EvError || e.ToolErr {
		return true
	}
	f := e.Ev.Frame
	if f == nil {
		return false
	}
	if f.Kind == protocol.KindError {
		return true
	}
	for _, m := range f.Batch {
		if m.Kind == protocol.KindError {
			return true
		}
	}
	return false
}

// Latency is how long a response took (or, on an answered request, how long its response
// took); 0 when unknown. Responses mcpscope sent to the server's requests carry no latency
// of their own: it is measured from the request's arrival.
func (e *Entry) Latency() time.Duration {
	if e.Ev == nil || e.Ev.Frame == nil {
		return 0
	}
	if e.Ev.Corr.Latency > 0 {
		return e.Ev.Corr.Latency
	}
	switch p := e.Pair; {
	case p == nil || p.Ev == nil:
		return 0
	case e.Ev.Frame.Kind.IsResponse() || e.Ev.Frame.Kind == protocol.KindBatch && p.Index < e.Index:
		return max(0, e.Ev.Time.Sub(p.Ev.Time))
	case e.IsRequest() || e.Ev.Frame.Kind == protocol.KindBatch:
		return p.Latency()
	}
	return 0
}

type genSeq struct {
	gen int
	seq uint64
}

// History is the bounded, ordered list of entries. Past Limit entries, or past MaxBytes
// bytes of frames held, the oldest entries leave memory (counted in Dropped); the recorder
// keeps them on disk. A frame larger than TruncateOver is held cut to its head (the entry's
// Clipped is its full size); the recorder keeps it whole.
type History struct {
	Limit        int
	MaxBytes     int64  // bound of the bytes held (≤0: DefaultHistoryBytes)
	TruncateOver int64  // frames larger than this are held cut (≤0: DefaultTruncateOver)
	Bytes        int64  // bytes of frames and texts held now
	Dropped      uint64 // entries dropped from memory past Limit or MaxBytes
	Lost         uint64 // events the stream dropped because the view fell behind: the sum of its gap rows
	Start        time.Time

	entries []*Entry
	next    uint64
	bySeq   map[genSeq]*Entry
	pending map[*Entry]struct{}
	eraNote map[int]*EraNote // per session: see SetEraHint

	cancelledTasks map[taskKey]bool // tasks mcpscope sent tasks/cancel for (history_taskcancel.go)
	faults         faultState       // the faults applied and the last frame each way (history_fault.go)

	Errors, Findings int
	byGen            map[int]*genCounts // Errors and Findings by session
}

// genCounts are one session's errors and findings.
type genCounts struct{ errors, findings int }

// count adds to session gen's errors or findings.
func (h *History) count(gen int, errors, findings int) {
	if h.byGen == nil {
		h.byGen = map[int]*genCounts{}
	}
	c := h.byGen[gen]
	if c == nil {
		c = &genCounts{}
		h.byGen[gen] = c
	}
	c.errors += errors
	c.findings += findings
	h.Errors += errors
	h.Findings += findings
}

// CountsSince are the errors and findings of the sessions from gen on (those of the server
// in use: the status line does not carry the previous server's over).
func (h *History) CountsSince(gen int) (errors, findings int) {
	for g, c := range h.byGen {
		if g >= gen {
			errors += c.errors
			findings += c.findings
		}
	}
	return errors, findings
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

// SetEraHint sets what JSON-RPC errors of session gen arriving from now on say about the
// era protocol auto negotiated (see EraHint): nothing unless it chose the stateless era.
func (h *History) SetEraHint(gen int, info session.ServerInfo) {
	if h.eraNote == nil {
		h.eraNote = map[int]*EraNote{}
	}
	h.eraNote[gen] = nil
	if d := EraHint(info); d != "" {
		h.eraNote[gen] = &EraNote{Row: eraRowHint(info), Detail: d}
	}
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

// Add appends one event and links it to what it answers or refers to, as the session's
// pairing says (Event.Corr): History pairs nothing itself. It returns the new entry and the
// older entries whose rows changed; their cached rows are already dropped.
func (h *History) Add(gen int, ev *session.Event) (*Entry, []*Entry) {
	e := NewEntry(gen, ev) // a marker when the server ended the HTTP session and a new one starts
	if h.Start.IsZero() {
		h.Start = ev.Time
	}
	var touched []*Entry
	req := h.bySeq[genSeq{gen, ev.Corr.RequestSeq}]
	if ev.Corr.RequestSeq == 0 {
		req = nil
	}
	switch ev.Kind {
	case session.EvFrame:
		f := ev.Frame
		h.expect(e)
		if f.Kind == protocol.KindError && !ev.Corr.Probe { // a tool error (isError) is the tool's word, not the era's
			e.Era = h.eraNote[gen]
		}
		if req != nil {
			touched = h.link(e, req, f)
		}
		if ev.Corr.ChainSeq != 0 {
			touched = append(touched, h.joinChain(e, ev.Corr.ChainSeq)...)
		}
		h.faults.lastFrame(gen, e)
		if e.HasFindings() {
			h.count(gen, 0, 1)
		}
		if afterCancel := h.afterTaskCancel(gen, e, req); e.IsError() && !ev.Corr.Probe && !afterCancel && !notServed(f, ev) {
			h.count(gen, 1, 0)
		}
	case session.EvError:
		if !ev.Corr.Probe {
			h.count(gen, 1, 0)
		}
		if req != nil {
			e.Ref = req
			if req.Waiting() {
				h.Fail(req, ev.Text)
				touched = append(touched, req)
			}
		}
	case session.EvTransport:
		touched = h.faults.note(gen, ev)
	case session.EvGap: // the stream lost events before the view took them: counted, shown as a row
		if ev.Gap != nil {
			h.Lost += ev.Gap.Events
		}
	}
	e.Ev, e.Clipped = ClipEvent(ev, h.TruncateBound())
	h.bySeq[genSeq{gen, ev.Seq}] = e
	h.push(e)
	Invalidate(touched)
	return e, touched
}

// expect registers what a new request (or batch of requests) waits for.
func (h *History) expect(e *Entry) {
	f := e.Ev.Frame
	switch f.Kind {
	case protocol.KindRequest:
		e.waiting = 1
	case protocol.KindBatch:
		for _, m := range f.Batch {
			if m.Kind == protocol.KindRequest {
				e.waiting++
			}
		}
	}
	if e.waiting > 0 {
		h.pending[e] = struct{}{}
	}
}

// link ties frame e to the request req that the session says it answers or refers to.
func (h *History) link(e, req *Entry, f *protocol.Frame) []*Entry {
	switch {
	case f.Kind.IsResponse() || f.Kind == protocol.KindBatch:
		h.answer(req, e, responses(f))
	case e.Ev.Corr.Progress != nil:
		e.Ref = req
		req.Progress = e.Ev.Corr.Progress
	case f.Method == "notifications/cancelled":
		e.Ref = req
		if req.Waiting() {
			h.Fail(req, cancelReason(e.Ev.Dir, f))
		}
	default:
		e.Ref = req
	}
	return []*Entry{req}
}

// answer records that resp answers n of req's expected responses.
func (h *History) answer(req, resp *Entry, n int) {
	if req.Pair == nil {
		req.Pair, resp.Pair = resp, req
	} else {
		resp.Ref = req
	}
	req.waiting = max(0, req.waiting-n)
	if req.waiting == 0 {
		req.Answered = true
		delete(h.pending, req)
	}
}

// responses is how many responses frame f carries: 1, or its response members for a
// batch (a batch answering a batch mcpscope sent answers those of its members).
func responses(f *protocol.Frame) int {
	if f.Kind != protocol.KindBatch {
		return 1
	}
	n := 0
	for _, m := range f.Batch {
		if m.Kind.IsResponse() {
			n++
		}
	}
	return n
}

// cancelReason is why a request ended, from the notifications/cancelled f that names it:
// mcpscope's own give the reason they carry, the server's say it was the server.
func cancelReason(dir protocol.Direction, f *protocol.Frame) string {
	if dir != protocol.ClientToServer {
		return "cancelled by the server"
	}
	var p struct {
		Reason string `json:"reason"`
	}
	if json.Unmarshal(f.Params, &p) != nil || p.Reason == "" {
		return "cancelled"
	}
	return "cancelled: " + p.Reason
}

// Fail ends req's wait without a response, saying why (a timeout, a cancellation, the
// session's end); the caller drops its cached row (Invalidate).
func (h *History) Fail(req *Entry, why string) {
	req.Failed = why
	delete(h.pending, req)
}

// EndGeneration marks every request of gen still pending as failed (the session closed).
func (h *History) EndGeneration(gen int, why string) []*Entry {
	var touched []*Entry
	for e := range h.pending {
		if e.Gen == gen {
			h.Fail(e, why)
			touched = append(touched, e)
		}
	}
	Invalidate(touched)
	return touched
}

func (h *History) push(e *Entry) {
	e.Index = h.next
	h.next++
	h.entries = append(h.entries, e)
	h.Bytes += entryBytes(e)
	if len(h.entries) > h.Limit {
		h.drop(len(h.entries) - h.Limit + h.Limit/10)
	}
	if n := h.overBytes(); n > 0 {
		h.drop(n)
	}
}

// drop removes the n oldest entries (in one move, so dropping is amortised).
func (h *History) drop(n int) {
	n = min(n, len(h.entries))
	for _, e := range h.entries[:n] {
		h.Bytes -= entryBytes(e)
		if e.Ev != nil {
			delete(h.bySeq, genSeq{e.Gen, e.Ev.Seq})
		}
		delete(h.pending, e)
		if e.Pair != nil && e.Pair.Pair == e {
			e.Pair.Pair = nil
			e.Pair.Row = RowCache{}
		}
	}
	rest := make([]*Entry, len(h.entries)-n, max(len(h.entries)-n, h.Limit)+1)
	copy(rest, h.entries[n:])
	h.entries = rest
	h.Dropped += uint64(n)
}

// FirstIndex is the Index of the oldest entry in memory.
func (h *History) FirstIndex() uint64 { return h.Dropped }

// InMemory reports whether e is still in the history (not dropped past the bound).
func (h *History) InMemory(e *Entry) bool { return e != nil && e.Index >= h.Dropped }

// ResetAt empties the history for a window of a recording whose first row has Index
// first; rows' times count from start.
func (h *History) ResetAt(first uint64, start time.Time) {
	*h = History{Limit: h.Limit, MaxBytes: h.MaxBytes, TruncateOver: h.TruncateOver, Dropped: first, next: first,
		Start: start, bySeq: map[genSeq]*Entry{}, pending: map[*Entry]struct{}{}}
}

// Settle ends every wait: in a window of a recording, a request whose answer lies past the
// window is not in flight.
func (h *History) Settle() {
	for e := range h.pending {
		e.waiting = 0
		delete(h.pending, e)
	}
}

// RowCache is the view's rendered row of an entry for one width, kept on the entry so that
// a row is drawn once per width; the history drops it (Invalidate) when the row's
// correlation changes.
type RowCache struct {
	Width int
	S     string
	Sel   string // S with the selection background, made on first need
}

// Invalidate drops the cached rows of entries whose correlation changed.
func Invalidate(entries []*Entry) {
	for _, e := range entries {
		e.Row = RowCache{}
	}
}

// Lookup is the entry of event seq of session gen still in memory, or nil.
func (h *History) Lookup(gen int, seq uint64) *Entry { return h.bySeq[genSeq{gen, seq}] }

// notServed: the frame answers a list request that the server does not serve
// (protocol.NotServed): the server has none of that list, which is no error to count.
func notServed(f *protocol.Frame, ev *session.Event) bool {
	return f.Kind == protocol.KindError && f.Error != nil && f.Error.CodeOK && protocol.NotServed(ev.Corr.Method, f.Error.Code)
}
