package export

import (
	"context"
	"encoding/json"
	"net/url"
	"strconv"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/fault"
)

// SessionSpanName is the name of the span that covers one session of a recording or a
// tap; the spans of its requests that carry no trace context of their own are its children.
const SessionSpanName = "mcp session"

// Spans turns events, in order, into spans that follow the OpenTelemetry semantic
// conventions for MCP: one span per request, from the request to its answer, and one per
// notification, named "{mcp.method.name} {target}" (the tool's or prompt's name), of kind
// CLIENT when the frame went to the server and SERVER when the server sent it. A JSON-RPC
// error, or a tool result with isError, is an ERROR status. A request whose params._meta
// carries a W3C traceparent (and tracestate) is a child of that remote span, linked to the
// session's span; any other is a child of the session's span. A Spans is not safe for
// concurrent use.
type Spans struct {
	tracer   trace.Tracer
	header   recordings.Header
	sessions map[int]*spanSession
	pending  map[key]*pendingSpan
	faults   faultState // otlp_fault.go
}

type spanSession struct {
	root    trace.Span
	ctx     context.Context
	last    time.Time
	id      string // Mcp-Session-Id
	version string // the negotiated revision
	common  []attribute.KeyValue
}

type pendingSpan struct {
	span   trace.Span
	method string
}

// NewSpans makes spans with tracer for the events of a recording or tap described by h.
func NewSpans(tracer trace.Tracer, h recordings.Header) *Spans {
	return &Spans{tracer: tracer, header: h, sessions: map[int]*spanSession{}, pending: map[key]*pendingSpan{}}
}

// Add takes the next event.
func (s *Spans) Add(e *Event) {
	st := s.session(e)
	if e.Time.After(st.last) {
		st.last = e.Time
	}
	if h := e.HTTP; h != nil {
		if id := h.RespHeaders.Get("Mcp-Session-Id"); id != "" && id != st.id {
			st.id = id
			st.root.SetAttributes(semconv.McpSessionID(id))
		}
		return
	}
	if e.Kind == "transport" && e.Note == fault.NoteKind {
		s.fault(st, e)
		return
	}
	f := e.Frame()
	if f == nil || f.Kind == protocol.KindBatch {
		return
	}
	s.faults.frame(e)
	switch {
	case f.Kind == protocol.KindRequest && !f.ID.IsZero():
		s.start(st, e, f, true)
	case f.Kind == protocol.KindNotification || f.Kind == protocol.KindRequest:
		s.start(st, e, f, false)
	case f.Kind.IsResponse() && e.Request != 0:
		s.answer(st, e, f)
	}
}

// Finish ends every span still open: unanswered requests (status ERROR, "no answer")
// and the sessions' spans, at the time of their session's last event.
func (s *Spans) Finish() {
	for k, p := range s.pending {
		st := s.sessions[k.gen]
		p.span.SetAttributes(semconv.ErrorTypeOther)
		p.span.SetStatus(codes.Error, "no answer")
		p.span.End(trace.WithTimestamp(st.last))
		delete(s.pending, k)
	}
	for g, st := range s.sessions {
		st.root.End(trace.WithTimestamp(st.last))
		delete(s.sessions, g)
	}
}

func (s *Spans) session(e *Event) *spanSession {
	if st := s.sessions[e.Gen]; st != nil {
		return st
	}
	st := &spanSession{last: e.Time}
	switch s.header.Transport {
	case "stdio":
		st.common = append(st.common, semconv.NetworkTransportPipe)
	default:
		st.common = append(st.common, semconv.NetworkTransportTCP, semconv.NetworkProtocolName("http"))
		if u, err := url.Parse(s.header.Server); err == nil && u.Host != "" {
			st.common = append(st.common, semconv.ServerAddress(u.Hostname()))
			port := u.Port()
			if port == "" {
				port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
			}
			if n, err := strconv.Atoi(port); err == nil {
				st.common = append(st.common, semconv.ServerPort(n))
			}
		}
	}
	attrs := append([]attribute.KeyValue{attribute.String("mcpscope.server", s.header.Server)}, st.common...)
	if e.Gen > 0 {
		attrs = append(attrs, attribute.Int("mcpscope.session", e.Gen))
	}
	st.ctx, st.root = s.tracer.Start(context.Background(), SessionSpanName, trace.WithTimestamp(e.Time),
		trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(attrs...))
	s.sessions[e.Gen] = st
	return st
}

// params are the members of a request's params the spans name.
type params struct {
	Name string `json:"name"`
	URI  string `json:"uri"`
}

func (s *Spans) start(st *spanSession, e *Event, f *protocol.Frame, request bool) {
	var p params
	_ = json.Unmarshal(f.Params, &p)
	meta := protocol.MetaOf(f.Params)
	name := f.Method
	attrs := append([]attribute.KeyValue{semconv.McpMethodNameKey.String(f.Method)}, st.common...)
	switch f.Method {
	case "tools/call":
		if p.Name != "" {
			name += " " + p.Name
			attrs = append(attrs, semconv.GenAIToolName(p.Name))
		}
		attrs = append(attrs, semconv.GenAIOperationNameExecuteTool)
	case "prompts/get":
		if p.Name != "" {
			name += " " + p.Name
			attrs = append(attrs, semconv.GenAIPromptName(p.Name))
		}
	case "resources/read", "resources/subscribe", "resources/unsubscribe", "notifications/resources/updated":
		if p.URI != "" {
			attrs = append(attrs, semconv.McpResourceURI(p.URI))
		}
	}
	if request {
		attrs = append(attrs, semconv.JSONRPCRequestID(idString(f.ID)))
	}
	if e.Lane != "" {
		// An MCP App's postMessage conversation with mcpscope, its host.
		attrs = append(attrs, attribute.String("mcpscope.lane", e.Lane))
	}
	if e.AppSeq != 0 {
		attrs = append(attrs, attribute.Int64("mcpscope.app_request_seq", int64(e.AppSeq)))
	}
	if e.Probe {
		// protocol "auto" probing server/discover: an error answer is how a server of the
		// earlier era is recognised.
		attrs = append(attrs, attribute.Bool("mcpscope.probe", true))
	}
	if v := meta.String(protocol.MetaProtocolVersion); v != "" {
		st.version = v
	}
	if st.version != "" {
		attrs = append(attrs, semconv.McpProtocolVersion(st.version))
	}
	if st.id != "" {
		attrs = append(attrs, semconv.McpSessionID(st.id))
	}
	if v := string(f.JSONRPC); v != `"2.0"` && v != "" {
		attrs = append(attrs, semconv.JSONRPCProtocolVersion(v))
	}
	kind := trace.SpanKindClient
	if !e.Out() {
		kind = trace.SpanKindServer
	}
	opts := []trace.SpanStartOption{trace.WithTimestamp(e.Time), trace.WithSpanKind(kind), trace.WithAttributes(attrs...)}
	parent := st.ctx
	if p := s.pending[key{e.Gen, e.AppSeq}]; e.AppSeq != 0 && p != nil {
		parent = trace.ContextWithSpan(st.ctx, p.span) // the server call an app's request asked for
	}
	if tp := meta.String("traceparent"); tp != "" {
		carrier := propagation.MapCarrier{"traceparent": tp}
		if ts := meta.String("tracestate"); ts != "" {
			carrier["tracestate"] = ts
		}
		if rc := (propagation.TraceContext{}).Extract(context.Background(), carrier); trace.SpanContextFromContext(rc).IsValid() {
			parent = rc
			opts = append(opts, trace.WithLinks(trace.Link{SpanContext: st.root.SpanContext()}))
		}
	}
	_, span := s.tracer.Start(parent, name, opts...)
	findingEvents(span, e)
	if !request {
		span.End(trace.WithTimestamp(e.Time))
		return
	}
	if len(s.pending) >= maxPendingSpans {
		span.SetAttributes(attribute.Bool("mcpscope.unpaired", true))
		span.End(trace.WithTimestamp(e.Time))
		return
	}
	s.pending[key{e.Gen, e.Seq}] = &pendingSpan{span: span, method: f.Method}
}

// maxPendingSpans bounds the requests awaiting their answer; beyond it a request's span
// ends where it starts, marked mcpscope.unpaired (a peer that never answers cannot make a
// long-running tap grow without end).
const maxPendingSpans = 16384

func (s *Spans) answer(st *spanSession, e *Event, f *protocol.Frame) {
	k := key{e.Gen, e.Request}
	p := s.pending[k]
	if p == nil {
		return
	}
	delete(s.pending, k)
	findingEvents(p.span, e)
	if e.Via == fault.ViaMcpscope {
		p.span.SetAttributes(attribute.Bool("mcpscope.fault.made_by_mcpscope", true))
	}
	switch {
	case f.Error != nil:
		code := strconv.FormatInt(f.Error.Code, 10)
		p.span.SetAttributes(semconv.ErrorTypeKey.String(code), semconv.RPCResponseStatusCode(code))
		p.span.SetStatus(codes.Error, f.Error.Message)
	case p.method == "tools/call":
		var r struct {
			IsError bool `json:"isError"`
		}
		if json.Unmarshal(f.Result, &r) == nil && r.IsError {
			p.span.SetAttributes(semconv.ErrorTypeKey.String("tool_error"))
			p.span.SetStatus(codes.Error, "tool_error")
		}
	case p.method == "initialize":
		if r, err := session.HandshakeInfo(p.method, "", f.Result); err == nil && r.Revision != "" {
			v := string(r.Revision)
			st.version = v
			p.span.SetAttributes(semconv.McpProtocolVersion(v))
			st.root.SetAttributes(semconv.McpProtocolVersion(v))
		}
	}
	p.span.End(trace.WithTimestamp(e.Time))
}

// findingEvents adds the frame's findings to span as events named "mcpscope.finding".
func findingEvents(span trace.Span, e *Event) {
	for _, fd := range e.Findings {
		span.AddEvent("mcpscope.finding", trace.WithTimestamp(e.Time), trace.WithAttributes(
			attribute.String("mcpscope.finding.code", fd.Code), attribute.String("mcpscope.finding.severity", fd.Severity),
			attribute.String("mcpscope.finding.message", fd.Message)))
	}
}

// idString is a JSON-RPC id as the conventions want it: a string id without its quotes.
func idString(id protocol.ID) string {
	var s string
	if json.Unmarshal(id.Raw, &s) == nil {
		return s
	}
	return id.String()
}
