package export

import (
	"encoding/json"
	"net/url"
	"strconv"
	"time"

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
	tracer   *tracer
	header   recordings.Header
	sessions map[int]*spanSession
	pending  map[key]*pendingSpan
	faults   faultState // otlp_fault.go
}

type spanSession struct {
	root    *span
	last    time.Time
	id      string // Mcp-Session-Id
	version string // the negotiated revision
	common  []kv
}

type pendingSpan struct {
	span   *span
	method string
}

// newSpans makes spans for the events of a recording or tap described by h, and hands each
// to sink when it ends.
func newSpans(sink func(*span), h recordings.Header) *Spans {
	return &Spans{tracer: &tracer{sink: sink}, header: h, sessions: map[int]*spanSession{}, pending: map[key]*pendingSpan{}}
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
			st.root.setAttrs(strAttr(keyMcpSessionID, id))
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
		p.span.setAttrs(strAttr(keyErrorType, "_OTHER"))
		p.span.setError("no answer")
		p.span.finish(st.last)
		delete(s.pending, k)
	}
	for g, st := range s.sessions {
		st.root.finish(st.last)
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
		st.common = append(st.common, strAttr(keyNetworkTransport, "pipe"))
	default:
		st.common = append(st.common, strAttr(keyNetworkTransport, "tcp"), strAttr("network.protocol.name", "http"))
		if u, err := url.Parse(s.header.Server); err == nil && u.Host != "" {
			st.common = append(st.common, strAttr("server.address", u.Hostname()))
			port := u.Port()
			if port == "" {
				port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
			}
			if n, err := strconv.Atoi(port); err == nil {
				st.common = append(st.common, intAttr("server.port", n))
			}
		}
	}
	attrs := append([]kv{strAttr("mcpscope.server", s.header.Server)}, st.common...)
	if e.Gen > 0 {
		attrs = append(attrs, intAttr("mcpscope.session", e.Gen))
	}
	st.root = s.tracer.start(spanContext{}, SessionSpanName, kindInternal, e.Time, attrs)
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
	attrs := append([]kv{strAttr("mcp.method.name", f.Method)}, st.common...)
	switch f.Method {
	case "tools/call":
		if p.Name != "" {
			name += " " + p.Name
			attrs = append(attrs, strAttr("gen_ai.tool.name", p.Name))
		}
		attrs = append(attrs, strAttr("gen_ai.operation.name", "execute_tool"))
	case "prompts/get":
		if p.Name != "" {
			name += " " + p.Name
			attrs = append(attrs, strAttr("gen_ai.prompt.name", p.Name))
		}
	case "resources/read", "resources/subscribe", "resources/unsubscribe", "notifications/resources/updated":
		if p.URI != "" {
			attrs = append(attrs, strAttr("mcp.resource.uri", p.URI))
		}
	}
	if request {
		attrs = append(attrs, strAttr("jsonrpc.request.id", idString(f.ID)))
	}
	if e.Lane != "" {
		// An MCP App's postMessage conversation with mcpscope, its host.
		attrs = append(attrs, strAttr("mcpscope.lane", e.Lane))
	}
	if e.AppSeq != 0 {
		attrs = append(attrs, intAttr("mcpscope.app_request_seq", int(e.AppSeq)))
	}
	if e.Probe {
		// protocol "auto" probing server/discover: an error answer is how a server of the
		// earlier era is recognised.
		attrs = append(attrs, boolAttr("mcpscope.probe", true))
	}
	if v := meta.String(protocol.MetaProtocolVersion); v != "" {
		st.version = v
	}
	if st.version != "" {
		attrs = append(attrs, strAttr(keyMcpProtocolVersion, st.version))
	}
	if st.id != "" {
		attrs = append(attrs, strAttr(keyMcpSessionID, st.id))
	}
	if v := string(f.JSONRPC); v != `"2.0"` && v != "" {
		attrs = append(attrs, strAttr("jsonrpc.protocol.version", v))
	}
	kind := kindClient
	if !e.Out() {
		kind = kindServer
	}
	parent, links := st.root.ctx, []spanContext(nil)
	if p := s.pending[key{e.Gen, e.AppSeq}]; e.AppSeq != 0 && p != nil {
		parent = p.span.ctx // the server call an app's request asked for
	}
	if tp := meta.String("traceparent"); tp != "" {
		if rc, ok := parseTraceparent(tp, meta.String("tracestate")); ok {
			parent, links = rc, []spanContext{st.root.ctx}
		}
	}
	span := s.tracer.start(parent, name, kind, e.Time, attrs, links...)
	findingEvents(span, e)
	if !request {
		span.finish(e.Time)
		return
	}
	if len(s.pending) >= maxPendingSpans {
		span.setAttrs(boolAttr("mcpscope.unpaired", true))
		span.finish(e.Time)
		return
	}
	s.pending[key{e.Gen, e.Seq}] = &pendingSpan{span: span, method: f.Method}
}

// Attribute keys of the OpenTelemetry semantic conventions (v1.41.0) used more than once.
const (
	keyMcpSessionID       = "mcp.session.id"
	keyMcpProtocolVersion = "mcp.protocol.version"
	keyNetworkTransport   = "network.transport"
	keyErrorType          = "error.type"
)

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
		p.span.setAttrs(boolAttr("mcpscope.fault.made_by_mcpscope", true))
	}
	switch {
	case f.Error != nil:
		code := strconv.FormatInt(f.Error.Code, 10)
		p.span.setAttrs(strAttr(keyErrorType, code), strAttr("rpc.response.status_code", code))
		p.span.setError(f.Error.Message)
	case p.method == "tools/call":
		var r struct {
			IsError bool `json:"isError"`
		}
		if json.Unmarshal(f.Result, &r) == nil && r.IsError {
			p.span.setAttrs(strAttr(keyErrorType, "tool_error"))
			p.span.setError("tool_error")
		}
	case p.method == "initialize":
		if r, err := session.HandshakeInfo(p.method, "", f.Result); err == nil && r.Revision != "" {
			v := string(r.Revision)
			st.version = v
			p.span.setAttrs(strAttr(keyMcpProtocolVersion, v))
			st.root.setAttrs(strAttr(keyMcpProtocolVersion, v))
		}
	}
	p.span.finish(e.Time)
}

// findingEvents adds the frame's findings to span as events named "mcpscope.finding".
func findingEvents(sp *span, e *Event) {
	for _, fd := range e.Findings {
		sp.addEvent("mcpscope.finding", e.Time, strAttr("mcpscope.finding.code", fd.Code),
			strAttr("mcpscope.finding.severity", fd.Severity), strAttr("mcpscope.finding.message", fd.Message))
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
