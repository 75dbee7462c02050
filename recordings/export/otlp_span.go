package export

import (
	"math/rand/v2"
	"strings"
	"time"
)

// The spans of an OTLP export, made here rather than by the OpenTelemetry SDK: mcpscope
// makes spans only from events it already holds, in one goroutine, so a tracer is a few
// ids and a place to hand ended spans. What a span holds, and its limits, follow the SDK's
// defaults (128 attributes, events and links a span, the oldest event dropped first).

// spanLimit is the SDK's default limit on a span's attributes, events and links.
const spanLimit = 128

// Span kinds and status codes, as OTLP numbers them.
const (
	kindInternal = 1
	kindServer   = 2
	kindClient   = 3

	statusError = 2
)

// Trace flags (W3C) and OTLP's span flags.
const (
	flagSampled        = 0x01
	flagsW3C           = 0x03 // sampled and random, the bits a traceparent passes on
	flagHasIsRemote    = 0x100
	flagParentIsRemote = 0x200
)

// kv is one attribute: a string, an int or a bool.
type kv struct {
	key  string
	kind byte // 's', 'i', 'b'
	s    string
	i    int64
}

func strAttr(k, v string) kv     { return kv{key: k, kind: 's', s: strings.ToValidUTF8(v, "\uFFFD")} }
func intAttr(k string, v int) kv { return kv{key: k, kind: 'i', i: int64(v)} }
func boolAttr(k string, v bool) kv {
	a := kv{key: k, kind: 'b'}
	if v {
		a.i = 1
	}
	return a
}

// spanContext identifies a span, as a parent or a link.
type spanContext struct {
	traceID [16]byte
	spanID  [8]byte
	flags   byte   // W3C trace flags
	state   string // W3C tracestate, already validated
	remote  bool
}

func (c spanContext) valid() bool { return c.traceID != [16]byte{} && c.spanID != [8]byte{} }

type spanEvent struct {
	name  string
	time  time.Time
	attrs []kv
}

// span is one span being made, or made.
type span struct {
	ctx           spanContext
	parent        spanContext // zero: a root span
	name          string
	kind          int
	start, end    time.Time
	attrs         []kv
	droppedAttrs  int
	events        []spanEvent
	droppedEvents int
	links         []spanContext
	status        int
	statusMsg     string
	ended         bool
	tr            *tracer
}

// tracer makes spans and hands each, when it ends, to sink.
type tracer struct {
	sink func(*span)
}

// start makes a span, a child of parent (or a root when parent is not valid).
func (t *tracer) start(parent spanContext, name string, kind int, at time.Time, attrs []kv, links ...spanContext) *span {
	s := &span{tr: t, name: name, kind: kind, start: at, links: links}
	if parent.valid() {
		s.parent = parent
		s.ctx.traceID, s.ctx.state = parent.traceID, parent.state
		s.ctx.flags = parent.flags | flagSampled
	} else {
		s.ctx.traceID = newTraceID()
		s.ctx.flags = flagSampled
	}
	s.ctx.spanID = newSpanID()
	s.setAttrs(attrs...)
	return s
}

func newTraceID() (id [16]byte) {
	for id == [16]byte{} {
		a, b := rand.Uint64(), rand.Uint64()
		for i := range 8 {
			id[i], id[8+i] = byte(a>>(8*i)), byte(b>>(8*i))
		}
	}
	return id
}

func newSpanID() (id [8]byte) {
	for id == [8]byte{} {
		a := rand.Uint64()
		for i := range 8 {
			id[i] = byte(a >> (8 * i))
		}
	}
	return id
}

// setAttrs sets attributes; one of a key already set replaces it, in place.
func (s *span) setAttrs(attrs ...kv) {
	if s.ended {
		return
	}
next:
	for _, a := range attrs {
		for i := range s.attrs {
			if s.attrs[i].key == a.key {
				s.attrs[i] = a
				continue next
			}
		}
		if len(s.attrs) >= spanLimit {
			s.droppedAttrs++
			continue
		}
		s.attrs = append(s.attrs, a)
	}
}

// addEvent adds an event; past the limit the oldest is dropped.
func (s *span) addEvent(name string, at time.Time, attrs ...kv) {
	if s.ended {
		return
	}
	if len(s.events) >= spanLimit {
		s.events = append(s.events[:0], s.events[1:]...)
		s.droppedEvents++
	}
	s.events = append(s.events, spanEvent{name: name, time: at, attrs: attrs})
}

func (s *span) setError(msg string) {
	if !s.ended {
		s.status, s.statusMsg = statusError, strings.ToValidUTF8(msg, "\uFFFD")
	}
}

// finish ends the span at at and hands it to the tracer's sink.
func (s *span) finish(at time.Time) {
	if s.ended {
		return
	}
	s.end, s.ended = at, true
	s.tr.sink(s)
}

// parseTraceparent reads a W3C traceparent and tracestate as the OpenTelemetry propagator
// does: version 00 exactly, a later version with room for more fields, lower-case hex, ids
// not all zero. A tracestate that does not parse is left out; the traceparent still holds.
func parseTraceparent(tp, ts string) (spanContext, bool) {
	var c spanContext
	parts := strings.SplitN(tp, "-", 5)
	if len(parts) < 4 {
		return c, false
	}
	var ver, fl [1]byte
	if !unhex(ver[:], parts[0]) || ver[0] == 0xff || !unhex(c.traceID[:], parts[1]) || !unhex(c.spanID[:], parts[2]) {
		return c, false
	}
	flags := parts[3]
	if ver[0] == 0 && (len(parts) > 4 || len(flags) != 2) {
		return c, false
	}
	if !unhex(fl[:], flags) || ver[0] == 0 && fl[0] > 3 {
		return c, false
	}
	c.flags, c.remote = fl[0]&flagsW3C, true
	c.state = parseTracestate(ts)
	return c, c.valid()
}

// unhex decodes lower-case hex of exactly 2*len(dst) digits.
func unhex(dst []byte, s string) bool {
	if len(s) != 2*len(dst) {
		return false
	}
	for i := range dst {
		hi, lo := hexVal(s[2*i]), hexVal(s[2*i+1])
		if hi > 15 || lo > 15 {
			return false
		}
		dst[i] = hi<<4 | lo
	}
	return true
}

func hexVal(c byte) byte {
	switch {
	case '0' <= c && c <= '9':
		return c - '0'
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10
	}
	return 0xff
}

// parseTracestate is the W3C tracestate's list members joined by commas, or "" when it
// is not valid (more than 32 members, a bad key or value, a key twice).
func parseTracestate(ts string) string {
	var members []string
	seen := map[string]bool{}
	for _, m := range strings.Split(ts, ",") {
		m = strings.Trim(m, " \t")
		if m == "" {
			continue
		}
		k, v, ok := strings.Cut(m, "=")
		if !ok || !validStateKey(k) || !validStateValue(v) || seen[k] {
			return ""
		}
		seen[k] = true
		members = append(members, m)
	}
	if len(members) > 32 {
		return ""
	}
	return strings.Join(members, ",")
}

func validStateKey(k string) bool {
	tenant, system, multi := strings.Cut(k, "@")
	ok := func(s string, max int, first bool) bool {
		if s == "" || len(s) > max {
			return false
		}
		for i := 0; i < len(s); i++ {
			c := s[i]
			lowerOrDigit := 'a' <= c && c <= 'z' || '0' <= c && c <= '9'
			if i == 0 && first && !('a' <= c && c <= 'z') || !lowerOrDigit && !strings.ContainsRune("_-*/", rune(c)) {
				return false
			}
		}
		return true
	}
	if !multi {
		return ok(k, 256, true)
	}
	return ok(tenant, 241, false) && ok(system, 14, true)
}

func validStateValue(v string) bool {
	if v == "" || len(v) > 256 || v[len(v)-1] == ' ' {
		return false
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < 0x20 || c > 0x7e || c == ',' || c == '=' {
			return false
		}
	}
	return true
}
