package export

import (
	"encoding/binary"
	"encoding/hex"
	"strconv"
	"time"
	"unicode/utf8"
)

// The two encodings of an OTLP ExportTraceServiceRequest (opentelemetry-proto,
// collector/trace/v1 and trace/v1): protobuf, the body OTLP/HTTP sends with Content-Type
// application/x-protobuf, and the OTLP JSON encoding (protobuf JSON with lowerCamelCase
// names, enums as numbers, 64-bit integers as strings, ids in hex). Fields at their zero
// value are left out, as protobuf encoders do. The tests decode both with the official
// generated types.

// otlpBatch is what one request carries: one resource and one instrumentation scope.
type otlpBatch struct {
	resource  []kv
	schemaURL string // the resource's
	scope     string
	version   string
}

// Field numbers of opentelemetry-proto.
const (
	fReqResourceSpans = 1

	fRSResource   = 1
	fRSScopeSpans = 2
	fRSSchemaURL  = 3

	fResAttributes = 1

	fSSScope = 1
	fSSSpans = 2

	fScopeName    = 1
	fScopeVersion = 2

	fSpanTraceID      = 1
	fSpanSpanID       = 2
	fSpanTraceState   = 3
	fSpanParentSpanID = 4
	fSpanName         = 5
	fSpanKind         = 6
	fSpanStart        = 7
	fSpanEnd          = 8
	fSpanAttributes   = 9
	fSpanDroppedAttrs = 10
	fSpanEvents       = 11
	fSpanDroppedEvts  = 12
	fSpanLinks        = 13
	fSpanStatus       = 15
	fSpanFlags        = 16

	fEventTime       = 1
	fEventName       = 2
	fEventAttributes = 3

	fLinkTraceID    = 1
	fLinkSpanID     = 2
	fLinkTraceState = 3
	fLinkFlags      = 6

	fStatusMessage = 2
	fStatusCode    = 3

	fKVKey   = 1
	fKVValue = 2

	fAnyString = 1
	fAnyBool   = 2
	fAnyInt    = 3
)

// Protobuf wire types.
const (
	wireVarint = 0
	wireI64    = 1
	wireLen    = 2
	wireI32    = 5
)

func pbTag(b []byte, field, wire int) []byte {
	return binary.AppendUvarint(b, uint64(field)<<3|uint64(wire))
}

func pbBytes(b []byte, field int, v []byte) []byte {
	if len(v) == 0 {
		return b
	}
	b = pbTag(b, field, wireLen)
	b = binary.AppendUvarint(b, uint64(len(v)))
	return append(b, v...)
}

func pbString(b []byte, field int, v string) []byte {
	if v == "" {
		return b
	}
	b = pbTag(b, field, wireLen)
	b = binary.AppendUvarint(b, uint64(len(v)))
	return append(b, v...)
}

func pbVarint(b []byte, field int, v uint64) []byte {
	if v == 0 {
		return b
	}
	return binary.AppendUvarint(pbTag(b, field, wireVarint), v)
}

func pbFixed64(b []byte, field int, v uint64) []byte {
	if v == 0 {
		return b
	}
	return binary.LittleEndian.AppendUint64(pbTag(b, field, wireI64), v)
}

func pbFixed32(b []byte, field int, v uint32) []byte {
	if v == 0 {
		return b
	}
	return binary.LittleEndian.AppendUint32(pbTag(b, field, wireI32), v)
}

// pbMessage appends field as a message made by body (always, even when empty).
func pbMessage(b []byte, field int, body func([]byte) []byte) []byte {
	inner := body(nil)
	b = pbTag(b, field, wireLen)
	b = binary.AppendUvarint(b, uint64(len(inner)))
	return append(b, inner...)
}

func pbKVs(b []byte, field int, attrs []kv) []byte {
	for _, a := range attrs {
		b = pbMessage(b, field, func(m []byte) []byte {
			m = pbString(m, fKVKey, a.key)
			return pbMessage(m, fKVValue, func(v []byte) []byte {
				switch a.kind {
				case 's':
					// An empty string is still a string value: the field is written.
					v = pbTag(v, fAnyString, wireLen)
					v = binary.AppendUvarint(v, uint64(len(a.s)))
					return append(v, a.s...)
				case 'b':
					return binary.AppendUvarint(pbTag(v, fAnyBool, wireVarint), uint64(a.i))
				}
				return binary.AppendUvarint(pbTag(v, fAnyInt, wireVarint), uint64(a.i))
			})
		})
	}
	return b
}

func unixNano(t time.Time) uint64 { return uint64(max(0, t.UnixNano())) }

// spanFlags are OTLP's flags of a span whose parent (or link) is p: the W3C flags and
// whether p is remote.
func spanFlags(w3c byte, p spanContext) uint32 {
	f := uint32(w3c) | flagHasIsRemote
	if p.remote {
		f |= flagParentIsRemote
	}
	return f
}

func pbSpan(b []byte, s *span) []byte {
	b = pbBytes(b, fSpanTraceID, s.ctx.traceID[:])
	b = pbBytes(b, fSpanSpanID, s.ctx.spanID[:])
	b = pbString(b, fSpanTraceState, s.ctx.state)
	if s.parent.valid() {
		b = pbBytes(b, fSpanParentSpanID, s.parent.spanID[:])
	}
	b = pbString(b, fSpanName, s.name)
	b = pbVarint(b, fSpanKind, uint64(s.kind))
	b = pbFixed64(b, fSpanStart, unixNano(s.start))
	b = pbFixed64(b, fSpanEnd, unixNano(s.end))
	b = pbKVs(b, fSpanAttributes, s.attrs)
	b = pbVarint(b, fSpanDroppedAttrs, uint64(s.droppedAttrs))
	for _, e := range s.events {
		b = pbMessage(b, fSpanEvents, func(m []byte) []byte {
			m = pbFixed64(m, fEventTime, unixNano(e.time))
			m = pbString(m, fEventName, e.name)
			return pbKVs(m, fEventAttributes, e.attrs)
		})
	}
	b = pbVarint(b, fSpanDroppedEvts, uint64(s.droppedEvents))
	for _, l := range s.links {
		b = pbMessage(b, fSpanLinks, func(m []byte) []byte {
			m = pbBytes(m, fLinkTraceID, l.traceID[:])
			m = pbBytes(m, fLinkSpanID, l.spanID[:])
			m = pbString(m, fLinkTraceState, l.state)
			return pbFixed32(m, fLinkFlags, spanFlags(l.flags, l))
		})
	}
	b = pbMessage(b, fSpanStatus, func(m []byte) []byte {
		m = pbString(m, fStatusMessage, s.statusMsg)
		return pbVarint(m, fStatusCode, uint64(s.status))
	})
	return pbFixed32(b, fSpanFlags, spanFlags(s.ctx.flags, s.parent))
}

// protobuf is the request carrying spans, protobuf-encoded.
func (o *otlpBatch) protobuf(spans []*span) []byte {
	return pbMessage(nil, fReqResourceSpans, func(b []byte) []byte {
		b = pbMessage(b, fRSResource, func(m []byte) []byte { return pbKVs(m, fResAttributes, o.resource) })
		b = pbMessage(b, fRSScopeSpans, func(m []byte) []byte {
			m = pbMessage(m, fSSScope, func(sc []byte) []byte {
				sc = pbString(sc, fScopeName, o.scope)
				return pbString(sc, fScopeVersion, o.version)
			})
			for _, s := range spans {
				m = pbMessage(m, fSSSpans, func(sp []byte) []byte { return pbSpan(sp, s) })
			}
			return m
		})
		return pbString(b, fRSSchemaURL, o.schemaURL)
	})
}

// jsonHead is the OTLP JSON of a request up to its first span; jsonTail closes it.
func (o *otlpBatch) jsonHead() []byte {
	b := []byte(`{"resourceSpans":[{"resource":{`)
	if len(o.resource) > 0 {
		b = jsonKVs(append(b, `"attributes":`...), o.resource)
	}
	b = append(b, `},"scopeSpans":[{"scope":{`...)
	b = jsonMember(b, "name", o.scope, true)
	b = jsonMember(b, "version", o.version, o.scope == "")
	return append(b, `},"spans":[`...)
}

func (o *otlpBatch) jsonTail() []byte {
	b := []byte(`]}]`)
	if o.schemaURL != "" {
		b = jsonMember(append(b, ','), "schemaUrl", o.schemaURL, true)
	}
	return append(b, "}]}"...)
}

// jsonMember appends "name":"value" when value is not empty, after a comma unless first.
func jsonMember(b []byte, name, value string, first bool) []byte {
	if value == "" {
		return b
	}
	if !first {
		b = append(b, ',')
	}
	b = append(append(append(b, '"'), name...), `":`...)
	return jsonString(b, value)
}

func jsonKVs(b []byte, attrs []kv) []byte {
	b = append(b, '[')
	for i, a := range attrs {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonString(append(b, `{"key":`...), a.key)
		switch a.kind {
		case 's':
			b = jsonString(append(b, `,"value":{"stringValue":`...), a.s)
		case 'b':
			b = strconv.AppendBool(append(b, `,"value":{"boolValue":`...), a.i != 0)
		default:
			b = append(strconv.AppendInt(append(b, `,"value":{"intValue":"`...), a.i, 10), '"')
		}
		b = append(b, "}}"...)
	}
	return append(b, ']')
}

func jsonHex(b []byte, name string, id []byte) []byte {
	b = append(append(append(b, `,"`...), name...), `":"`...)
	return append(hex.AppendEncode(b, id), '"')
}

func jsonUint(b []byte, name string, v uint64, quoted bool) []byte {
	if v == 0 {
		return b
	}
	b = append(append(append(b, `,"`...), name...), `":`...)
	if quoted {
		return append(strconv.AppendUint(append(b, '"'), v, 10), '"')
	}
	return strconv.AppendUint(b, v, 10)
}

// jsonSpan appends a span's OTLP JSON.
func jsonSpan(b []byte, s *span) []byte {
	b = append(hex.AppendEncode(append(b, `{"traceId":"`...), s.ctx.traceID[:]), '"')
	b = jsonHex(b, "spanId", s.ctx.spanID[:])
	b = jsonMember(b, "traceState", s.ctx.state, false)
	if s.parent.valid() {
		b = jsonHex(b, "parentSpanId", s.parent.spanID[:])
	}
	b = jsonUint(b, "flags", uint64(spanFlags(s.ctx.flags, s.parent)), false)
	b = jsonMember(b, "name", s.name, false)
	b = jsonUint(b, "kind", uint64(s.kind), false)
	b = jsonUint(b, "startTimeUnixNano", unixNano(s.start), true)
	b = jsonUint(b, "endTimeUnixNano", unixNano(s.end), true)
	if len(s.attrs) > 0 {
		b = jsonKVs(append(b, `,"attributes":`...), s.attrs)
	}
	b = jsonUint(b, "droppedAttributesCount", uint64(s.droppedAttrs), false)
	if len(s.events) > 0 {
		b = append(b, `,"events":[`...)
		for i, e := range s.events {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(strconv.AppendUint(append(b, `{"timeUnixNano":"`...), unixNano(e.time), 10), '"')
			b = jsonMember(b, "name", e.name, false)
			if len(e.attrs) > 0 {
				b = jsonKVs(append(b, `,"attributes":`...), e.attrs)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = jsonUint(b, "droppedEventsCount", uint64(s.droppedEvents), false)
	if len(s.links) > 0 {
		b = append(b, `,"links":[`...)
		for i, l := range s.links {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(hex.AppendEncode(append(b, `{"traceId":"`...), l.traceID[:]), '"')
			b = jsonHex(b, "spanId", l.spanID[:])
			b = jsonMember(b, "traceState", l.state, false)
			b = jsonUint(b, "flags", uint64(spanFlags(l.flags, l)), false)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, `,"status":{`...)
	b = jsonMember(b, "message", s.statusMsg, true)
	if s.status != 0 {
		if s.statusMsg != "" {
			b = append(b, ',')
		}
		b = strconv.AppendInt(append(b, `"code":`...), int64(s.status), 10)
	}
	return append(b, "}}"...)
}

// jsonString appends s as a JSON string; invalid UTF-8 becomes U+FFFD.
func jsonString(b []byte, s string) []byte {
	const hexDigits = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20 || c == 0x7f:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b = append(b, `\ufffd`...)
		} else {
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return append(b, '"')
}
