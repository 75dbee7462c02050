package recordings

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"slices"
	"sort"
	"strconv"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
)

// Sample is what Stats counts of one frame.
type Sample struct {
	Method   string  // the frame's method, or for a response the method of its request ("" unknown)
	Kind     string  // "request", "notification", "result", "error", "batch", "invalid"
	Out      bool    // sent by the client (else by the server)
	Bytes    int64   // the frame's size on the wire
	Latency  float64 // a response's latency in milliseconds (0: not measured)
	ToolErr  bool    // a tools/call result with isError true
	Probe    bool    // part of the era probe: not counted as an error
	HasError bool    // a batch holding an error response
	Seq      uint64  // the event's sequence number (0: not known)
	Request  uint64  // a response's request_seq: the request it answers (0: not known)
	// At is when the frame was seen; kept only for a server→client request and the
	// client's answer to one, whose latency is measured from the request's arrival.
	At time.Time
}

// MethodStats are the figures of one method.
type MethodStats struct {
	Method        string  `json:"method"`
	Requests      int     `json:"requests"`      // requests with this method, either way
	Notifications int     `json:"notifications"` // notifications with this method
	Responses     int     `json:"responses"`     // results and errors answering them
	Errors        int     `json:"errors"`        // JSON-RPC errors and tool errors
	P50           float64 `json:"p50_ms"`        // latency percentiles of the responses, milliseconds
	P95           float64 `json:"p95_ms"`
	P99           float64 `json:"p99_ms"`
	BytesOut      int64   `json:"bytes_out"` // frames sent by the client
	BytesIn       int64   `json:"bytes_in"`  // frames sent by the server

	lat []float64
}

// Stats accumulates per-method traffic figures, from a recording (Reader.Stats) or from a
// live session's events (AddEvent). The zero value is ready to use.
type Stats struct {
	Frames     int // frames counted
	Events     int // events seen, frames or not
	Unreadable int // lines that could not be read as events
	methods    map[string]*MethodStats

	// asked holds the method and arrival of each server→client request not answered yet,
	// by its Seq: the client's answer names no method and carries no latency, and is
	// counted under its request's method with the time from the request to it. A
	// restarted session numbers its events again from 1; a request always comes before
	// its answer, so the latest request of a Seq is the one answered.
	asked map[uint64]askedReq
	// deferAnswers keeps the answers whose request is not in asked in unmatched instead of
	// counting them as "(unknown)": set on a chunk of a recording, whose requests may be
	// in an earlier chunk (Merge matches them).
	deferAnswers bool
	unmatched    []Sample
}

// askedReq is a server→client request waiting for the client's answer.
type askedReq struct {
	method string
	at     time.Time
}

// unknownMethod names the responses whose request is unknown.
const unknownMethod = "(unknown)"

// Add counts one frame.
func (s *Stats) Add(f Sample) {
	if s.methods == nil {
		s.methods = map[string]*MethodStats{}
	}
	if !f.Out && f.Kind == "request" && f.Seq != 0 && f.Method != "" {
		if s.asked == nil {
			s.asked = map[uint64]askedReq{}
		}
		s.asked[f.Seq] = askedReq{f.Method, f.At}
	}
	if f.Out && f.Method == "" && f.Request != 0 && (f.Kind == "result" || f.Kind == "error") {
		if a, ok := s.asked[f.Request]; ok {
			f.Method = a.method
			if f.Latency == 0 && !f.At.IsZero() && !a.at.IsZero() && !f.At.Before(a.at) {
				f.Latency = float64(f.At.Sub(a.at).Microseconds()) / 1000
			}
			delete(s.asked, f.Request)
		} else if s.deferAnswers {
			s.unmatched = append(s.unmatched, f)
			return
		}
	}
	name := f.Method
	switch {
	case f.Kind == "batch":
		name = "(batch)"
	case name == "":
		name = unknownMethod
	}
	m := s.methods[name]
	if m == nil {
		m = &MethodStats{Method: name}
		s.methods[name] = m
	}
	s.Frames++
	switch f.Kind {
	case "request":
		m.Requests++
	case "notification":
		m.Notifications++
	case "result", "error":
		m.Responses++
		if f.Latency > 0 {
			m.lat = append(m.lat, f.Latency)
		}
	}
	if !f.Probe && (f.Kind == "error" || f.ToolErr || f.HasError) {
		m.Errors++
	}
	if f.Out {
		m.BytesOut += f.Bytes
	} else {
		m.BytesIn += f.Bytes
	}
}

// AddEvent counts a session event (only frames carry figures).
func (s *Stats) AddEvent(e *session.Event) {
	s.Events++
	f := e.Frame
	if e.Kind != session.EvFrame || f == nil {
		return
	}
	smp := Sample{Method: f.Method, Kind: f.Kind.String(), Out: e.Dir == protocol.ClientToServer, Bytes: int64(len(f.Raw)),
		Latency: float64(e.Corr.Latency.Microseconds()) / 1000, Probe: e.Corr.Probe, Seq: e.Seq, Request: e.Corr.RequestSeq}
	if smp.Method == "" {
		smp.Method = e.Corr.Method
	}
	smp.Bytes = max(smp.Bytes, e.Recv.Size)
	if timedAnswer(smp) {
		smp.At = e.Time
	}
	smp.ToolErr = f.Kind == protocol.KindResult && smp.Method == "tools/call" && isToolError(f.Result)
	for _, m := range f.Batch {
		smp.HasError = smp.HasError || m.Kind == protocol.KindError
	}
	s.Add(smp)
}

// timedAnswer reports whether f is a server→client request or a client answer without a
// method (one to a server→client request): the frames whose time gives the answer's latency.
func timedAnswer(f Sample) bool {
	return !f.Out && f.Kind == "request" || f.Out && f.Method == "" && f.Request != 0 && (f.Kind == "result" || f.Kind == "error")
}

// isToolError reports whether a tools/call result says isError: true.
func isToolError(result []byte) bool {
	if !bytes.Contains(result, []byte(`"isError"`)) {
		return false
	}
	var r struct {
		IsError bool `json:"isError"`
	}
	return json.Unmarshal(result, &r) == nil && r.IsError
}

// Merge adds o's figures to s, o's frames coming after s's: o's answers to requests in s are
// counted under their requests' methods.
func (s *Stats) Merge(o *Stats) {
	for _, f := range o.unmatched {
		if _, ok := s.asked[f.Request]; !ok && s.deferAnswers {
			s.unmatched = append(s.unmatched, f)
			continue
		}
		s.Add(f) // under its request's method, or "(unknown)"
	}
	for seq, m := range o.asked {
		if s.asked == nil {
			s.asked = map[uint64]askedReq{}
		}
		s.asked[seq] = m
	}
	s.Frames += o.Frames
	s.Events += o.Events
	s.Unreadable += o.Unreadable
	if s.methods == nil {
		s.methods = map[string]*MethodStats{}
	}
	for k, om := range o.methods {
		m := s.methods[k]
		if m == nil {
			m = &MethodStats{Method: k}
			s.methods[k] = m
		}
		m.Requests += om.Requests
		m.Notifications += om.Notifications
		m.Responses += om.Responses
		m.Errors += om.Errors
		m.BytesOut += om.BytesOut
		m.BytesIn += om.BytesIn
		m.lat = append(m.lat, om.lat...)
	}
}

// Methods lists the figures of every method seen, the busiest first (by messages, then
// by name), with the latency percentiles worked out.
func (s *Stats) Methods() []MethodStats {
	out := make([]MethodStats, 0, len(s.methods))
	for _, m := range s.methods {
		c := *m
		c.P50, c.P95, c.P99 = percentiles(m.lat)
		c.lat = nil
		out = append(out, c)
	}
	sort.Slice(out, func(a, b int) bool {
		na, nb := out[a].messages(), out[b].messages()
		if na != nb {
			return na > nb
		}
		return out[a].Method < out[b].Method
	})
	return out
}

// Total is the figures of every method together.
func (s *Stats) Total() MethodStats {
	t := MethodStats{Method: "(all)"}
	var lat []float64
	for _, m := range s.methods {
		t.Requests += m.Requests
		t.Notifications += m.Notifications
		t.Responses += m.Responses
		t.Errors += m.Errors
		t.BytesOut += m.BytesOut
		t.BytesIn += m.BytesIn
		lat = append(lat, m.lat...)
	}
	t.P50, t.P95, t.P99 = percentiles(lat)
	return t
}

func (m *MethodStats) messages() int { return m.Requests + m.Notifications + m.Responses }

// percentiles are the 50th, 95th and 99th percentiles of lat (nearest rank); lat is sorted.
func percentiles(lat []float64) (p50, p95, p99 float64) {
	if len(lat) == 0 {
		return 0, 0, 0
	}
	slices.Sort(lat)
	at := func(p float64) float64 {
		k := int(math.Ceil(p/100*float64(len(lat)))) - 1
		return lat[min(max(k, 0), len(lat)-1)]
	}
	return at(50), at(95), at(99)
}

// Stats counts the figures of the whole recording, reading it in parallel chunks without
// decoding whole events: the line's own members (kind, direction, method, size, latency)
// are read where they are; only a tools/call result that mentions isError is decoded.
// progress, when not nil, is called after each chunk with how many lines are done.
func (r *Reader) Stats(ctx context.Context, progress func(done, total int)) (*Stats, error) {
	total := &Stats{}
	work := func(c *chunk) any {
		s := &Stats{deferAnswers: true}
		for i := c.lo; i < c.hi; i++ {
			if r.unreadable(i) != "" {
				s.Unreadable++
				continue
			}
			f, ok := lineSample(c.line(r, i))
			if !ok {
				s.Unreadable++
				continue
			}
			s.Events++
			if f != nil {
				s.Add(*f)
			}
		}
		return s
	}
	err := r.forChunks(ctx, 0, work, func(_, hi int, v any) bool {
		total.Merge(v.(*Stats))
		if progress != nil {
			progress(hi, r.Len())
		}
		return true
	})
	if err != nil {
		return nil, err
	}
	return total, nil
}

// lineSample reads the members of an event line that Stats counts: nil for an event that
// is not a frame; ok is false when the line is not an event object.
func lineSample(b []byte) (smp *Sample, ok bool) {
	var f Sample
	var kind, dir string
	var raw, at []byte
	frame, b64 := false, false
	ok = protocol.ScanMembers(b, func(key, val []byte) bool {
		switch string(key) {
		case "kind":
			kind = protocol.StringText(val)
			frame = kind == "frame"
		case "dir":
			dir = protocol.StringText(val)
			f.Out = dir == "out"
		case "frame":
			f.Kind = protocol.StringText(val)
		case "method":
			f.Method = protocol.StringText(val)
		case "raw":
			raw = val
		case "raw_base64":
			b64 = true
		case "size":
			f.Bytes, _ = strconv.ParseInt(string(val), 10, 64)
		case "latency_ms":
			f.Latency, _ = strconv.ParseFloat(string(val), 64)
		case "probe":
			f.Probe = string(val) == "true"
		case "seq":
			f.Seq, _ = strconv.ParseUint(string(val), 10, 64)
		case "request_seq":
			f.Request, _ = strconv.ParseUint(string(val), 10, 64)
		case "time":
			at = val
		}
		return true
	})
	if _, known := kindByName[kind]; !ok || !known {
		return nil, false // as Reader.Entry: not an event
	}
	if !frame {
		return nil, true
	}
	if raw == nil && !b64 || dir != "in" && dir != "out" {
		return nil, false
	}
	if at != nil && timedAnswer(f) { // parsed only where it gives a latency
		f.At, _ = time.Parse(time.RFC3339Nano, protocol.StringText(at))
	}
	if f.Kind == "result" && f.Method == "tools/call" && bytes.Contains(raw, []byte("isError")) {
		var s string
		var m struct {
			Result json.RawMessage `json:"result"`
		}
		f.ToolErr = json.Unmarshal(raw, &s) == nil && json.Unmarshal([]byte(s), &m) == nil && isToolError(m.Result)
	}
	if f.Kind == "batch" && bytes.Contains(raw, []byte(`error`)) {
		if s := ""; json.Unmarshal(raw, &s) == nil {
			for _, m := range protocol.Decode([]byte(s)).Batch {
				f.HasError = f.HasError || m.Kind == protocol.KindError
			}
		}
	}
	return &f, true
}
