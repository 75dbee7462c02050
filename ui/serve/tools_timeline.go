package serve

import (
	"context"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// Bounds of the timeline and of frame.
const (
	defaultEvents    = 50
	maxEvents        = 500
	defaultBodyBytes = 1024
	maxBodyBytes     = 64 << 10
	defaultFrame     = 64 << 10
	maxFrame         = 1 << 20
	catchUp          = 2 * time.Second // how long the timeline waits for events a result named
)

// TimelineIn is timeline's input.
type TimelineIn struct {
	Session   string `json:"session"`
	Since     uint64 `json:"since,omitempty" jsonschema:"only events after this seq (0: from the start); next_since pages on"`
	Query     string `json:"query,omitempty" jsonschema:"a filter in mcpscope's query language: words, field:value terms (method:, dir:in|out, kind:, has:finding|error, tool:, id:, slow:>200ms), -term negates"`
	Limit     int    `json:"limit,omitempty" jsonschema:"most events returned (default 50, at most 500)"`
	BodyBytes int    `json:"body_bytes,omitempty" jsonschema:"each frame's bytes are cut to this many (default 1024, at most 65536); frame gives them whole"`
}

// Event is one row of the timeline.
type Event struct {
	Seq        uint64    `json:"seq"`
	Time       string    `json:"time"`
	Kind       string    `json:"kind" jsonschema:"frame, stderr, http, transport, exit, state, error, lists"`
	Dir        string    `json:"dir,omitempty" jsonschema:"out (to the server) or in (from it)"`
	FrameKind  string    `json:"frame,omitempty" jsonschema:"request, notification, result, error, batch or invalid"`
	Method     string    `json:"method,omitempty"`
	ID         string    `json:"id,omitempty"`
	Size       int64     `json:"size,omitempty"`
	Body       string    `json:"body,omitempty" jsonschema:"the frame's bytes (or the event's text), cut to body_bytes"`
	Cut        bool      `json:"cut,omitempty" jsonschema:"body is cut; frame gives it whole"`
	RequestSeq uint64    `json:"request_seq,omitempty" jsonschema:"the request a response or progress belongs to"`
	LatencyMS  float64   `json:"latency_ms,omitempty"`
	Summary    string    `json:"summary,omitempty"`
	Findings   []Finding `json:"findings,omitempty"`
	Break      string    `json:"break,omitempty" jsonschema:"reconnect: the session before ended, and a new one starts with this event"`
}

// Timeline is timeline's result.
type Timeline struct {
	Events    []Event `json:"events"`
	NextSince uint64  `json:"next_since" jsonschema:"pass as since for the next page"`
	More      bool    `json:"more" jsonschema:"more events match after this page"`
	LastSeq   uint64  `json:"last_seq" jsonschema:"the last event the timeline holds"`
	Dropped   uint64  `json:"dropped,omitempty" jsonschema:"oldest events that left memory (the recording has them)"`
}

func (s *Server) timeline(_ context.Context, in TimelineIn) (Timeline, error) {
	l, err := s.reg.get(in.Session)
	if err != nil {
		return Timeline{}, err
	}
	limit := clamp(in.Limit, defaultEvents, maxEvents)
	body := clamp(in.BodyBytes, defaultBodyBytes, maxBodyBytes)
	q := traffic.ParseQuery(in.Query)
	if q.Err != "" {
		// A query half understood would answer another question: the agent is told what to
		// fix, with no events.
		return Timeline{}, fmt.Errorf("query %q: %s", in.Query, q.Err)
	}
	l.mu.Lock()
	told := l.told
	l.mu.Unlock()
	l.waitFor(told, catchUp)

	out := Timeline{Events: []Event{}, NextSince: in.Since}
	l.mu.Lock()
	defer l.mu.Unlock()
	out.LastSeq, out.Dropped = l.pumped, l.h.Dropped
	for _, e := range l.h.Entries() {
		if e.Ev == nil || e.Marker != "" || e.Ev.Seq <= in.Since || !q.Match(e) {
			continue
		}
		if len(out.Events) == limit {
			out.More = true
			break
		}
		out.Events = append(out.Events, l.row(e, body))
		out.NextSince = e.Ev.Seq
	}
	return out, nil
}

// row is an entry as a timeline row, masked as the recording is, its body cut to body bytes.
func (l *live) row(e *traffic.Entry, body int) Event {
	ev := e.Ev
	j := ev.JSON()
	l.redactor.Event(&j)
	r := Event{Seq: ev.Seq, Time: ev.Time.UTC().Format(time.RFC3339Nano), Kind: j.Kind, Dir: j.Dir, FrameKind: j.FrameKind,
		Method: j.Method, ID: string(j.ID), Size: j.Size, RequestSeq: j.Request, LatencyMS: j.LatencyMS,
		Findings: findingsOf(ev), Break: l.breakAt(ev.Seq)}
	text := j.Text
	if j.Raw != nil {
		text = *j.Raw
	} else if j.RawBase64 != "" {
		text = "base64:" + j.RawBase64
	}
	if e.Clipped > 0 {
		r.Size, r.Cut = e.Clipped, true
	}
	if len(text) > body {
		text, r.Cut = cutUTF8(text, body), true
	}
	r.Body = text
	if ev.Kind != session.EvFrame && ev.Kind != session.EvStderr {
		r.Summary = l.redactor.Masker().String(ev.Summary())
	}
	return r
}

// FrameIn is frame's input.
type FrameIn struct {
	Session  string `json:"session"`
	Seq      uint64 `json:"seq" jsonschema:"the event"`
	Offset   int    `json:"offset,omitempty" jsonschema:"byte offset to start at (next_offset of the previous part)"`
	MaxBytes int    `json:"max_bytes,omitempty" jsonschema:"most bytes returned (default 65536, at most 1048576)"`
}

// Frame is one event's exact bytes, in parts.
type Frame struct {
	Seq         uint64    `json:"seq"`
	Kind        string    `json:"kind"`
	Dir         string    `json:"dir,omitempty"`
	Method      string    `json:"method,omitempty"`
	Size        int       `json:"size" jsonschema:"the whole frame's length in bytes"`
	Offset      int       `json:"offset"`
	Bytes       string    `json:"bytes" jsonschema:"the frame's bytes from offset, exactly as on the wire (secrets masked as in the recording)"`
	Base64      bool      `json:"base64,omitempty" jsonschema:"bytes is base64: the frame is not valid UTF-8"`
	NextOffset  int       `json:"next_offset,omitempty" jsonschema:"where the next part starts; 0 when this is the end"`
	RequestSeq  uint64    `json:"request_seq,omitempty"`
	ResponseSeq uint64    `json:"response_seq,omitempty"`
	LatencyMS   float64   `json:"latency_ms,omitempty"`
	Via         string    `json:"via,omitempty" jsonschema:"how it travelled (stdout, HTTP body, SSE event)"`
	Findings    []Finding `json:"findings"`
}

func (s *Server) frame(ctx context.Context, in FrameIn) (Frame, error) {
	l, err := s.reg.get(in.Session)
	if err != nil {
		return Frame{}, err
	}
	l.waitFor(in.Seq, catchUp)
	ev, pair, err := l.event(ctx, in.Seq)
	if err != nil {
		return Frame{}, err
	}
	j := ev.JSON()
	l.redactor.Event(&j)
	f := Frame{Seq: ev.Seq, Kind: j.Kind, Dir: j.Dir, Method: j.Method, RequestSeq: j.Request, ResponseSeq: pair,
		LatencyMS: j.LatencyMS, Via: j.Via, Findings: findingsOf(ev)}
	var whole string
	switch {
	case j.Raw != nil:
		whole = *j.Raw
	case j.RawBase64 != "":
		whole, f.Base64 = j.RawBase64, true
	default:
		whole = j.Text
	}
	f.Size = len(whole)
	if in.Offset < 0 || in.Offset > len(whole) {
		return Frame{}, fmt.Errorf("offset %d: the event has %d bytes", in.Offset, len(whole))
	}
	n := clamp(in.MaxBytes, defaultFrame, maxFrame)
	part := cutUTF8(whole[in.Offset:], n)
	f.Offset, f.Bytes = in.Offset, part
	if end := in.Offset + len(part); end < len(whole) {
		f.NextOffset = end
	}
	return f, nil
}

// event is event seq whole, and its response's seq for a request: from memory, or read
// back from the recording when it left memory or is held cut.
func (l *live) event(ctx context.Context, seq uint64) (*session.Event, uint64, error) {
	gen := l.genOf(seq)
	l.mu.Lock()
	e := l.h.Lookup(gen, seq)
	var ev *session.Event
	var pair uint64
	if e != nil {
		if e.Pair != nil && e.IsRequest() && e.Pair.Ev != nil {
			pair = e.Pair.Ev.Seq
		}
		if e.Clipped == 0 {
			ev = e.Ev
		}
	}
	last := l.pumped
	l.mu.Unlock()
	if ev != nil {
		return ev, pair, nil
	}
	if seq == 0 || seq > last {
		return nil, 0, fmt.Errorf("no event %d: the session's last event is %d", seq, last)
	}
	lctx, cancel := context.WithTimeout(ctx, catchUp)
	defer cancel()
	if loc, err := l.rec.Locate(lctx, recGen(gen), seq); err == nil {
		re, err := recordings.ReadAt(l.path, loc)
		if err != nil {
			return nil, 0, fmt.Errorf("read event %d back from %s: %w", seq, l.path, err)
		}
		return re.Event, pair, nil
	}
	rd, err := recordings.Open(l.path)
	if err != nil {
		return nil, 0, fmt.Errorf("event %d left memory; reading %s: %w", seq, l.path, err)
	}
	defer rd.Close()
	for i := 0; i < rd.Len(); i++ {
		if re, err := rd.Event(i); err == nil && re.Seq == seq {
			return re, pair, nil
		}
	}
	return nil, 0, fmt.Errorf("event %d is neither in memory nor in %s yet", seq, l.path)
}

// clamp is v, or def when v ≤ 0, at most max.
func clamp(v, def, max int) int {
	if v <= 0 {
		return def
	}
	return min(v, max)
}

// cutUTF8 is s cut to at most n bytes, not inside a character.
func cutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
