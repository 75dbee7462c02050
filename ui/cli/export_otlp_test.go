package cli_test

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"sync"
	"testing"
	"time"

	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// decodeOTLPJSON decodes an OTLP/JSON trace request with the official protobuf types: the
// OTLP encoding writes ids in hex where protobuf JSON has base64, so they are turned back
// first (after checking their length).
func decodeOTLPJSON(t *testing.T, b []byte) *coltracepb.ExportTraceServiceRequest {
	t.Helper()
	re := regexp.MustCompile(`"(traceId|spanId|parentSpanId)":"([^"]*)"`)
	fixed := re.ReplaceAllFunc(b, func(m []byte) []byte {
		p := re.FindSubmatch(m)
		raw, err := hex.DecodeString(string(p[2]))
		if err != nil || (string(p[1]) == "traceId") != (len(raw) == 16) || len(raw) != 16 && len(raw) != 8 {
			t.Errorf("%s %q is not a hex id of the right length", p[1], p[2])
		}
		return []byte(`"` + string(p[1]) + `":"` + base64.StdEncoding.EncodeToString(raw) + `"`)
	})
	req := &coltracepb.ExportTraceServiceRequest{}
	if err := protojson.Unmarshal(fixed, req); err != nil {
		t.Fatalf("OTLP/JSON does not decode: %v\n%.2000s", err, b)
	}
	return req
}

// allSpans lists the spans of a request.
func allSpans(req *coltracepb.ExportTraceServiceRequest) []*tracepb.Span {
	var out []*tracepb.Span
	for _, rs := range req.ResourceSpans {
		for _, ss := range rs.ScopeSpans {
			out = append(out, ss.Spans...)
		}
	}
	return out
}

// attr is a span's string (or int, as text) attribute.
func attr(s *tracepb.Span, k string) string {
	for _, a := range s.Attributes {
		if a.Key == k {
			if sv := a.Value.GetStringValue(); sv != "" {
				return sv
			}
			return itoa(int(a.Value.GetIntValue()))
		}
	}
	return ""
}

func spanNamed(t *testing.T, spans []*tracepb.Span, name string) *tracepb.Span {
	t.Helper()
	for _, s := range spans {
		if s.Name == name {
			return s
		}
	}
	names := []string{}
	for _, s := range spans {
		names = append(names, s.Name)
	}
	t.Fatalf("no span %q among %q", name, names)
	return nil
}

// TestExportOTLPFile exports recordings of the demo as OTLP/JSON and checks the spans with
// the official OTLP types: one per request, named and attributed as the semantic
// conventions for MCP say, timed from request to answer, children of the session's span
// unless params._meta carried a traceparent, errors as status.
func TestExportOTLPFile(t *testing.T) {
	rec := recordDemo(t, "call", "--protocol", "2025-11-25", "call", "echo", "text=otlp")
	spans := allSpans(decodeOTLPJSON(t, exportOut(t, "otlp", rec)))
	root := spanNamed(t, spans, "mcp session")
	call := spanNamed(t, spans, "tools/call echo")
	if call.Kind != tracepb.Span_SPAN_KIND_CLIENT || attr(call, "mcp.method.name") != "tools/call" || attr(call, "gen_ai.tool.name") != "echo" ||
		attr(call, "gen_ai.operation.name") != "execute_tool" || attr(call, "jsonrpc.request.id") == "" ||
		attr(call, "mcp.protocol.version") != "2025-11-25" || attr(call, "network.transport") != "pipe" {
		t.Errorf("tools/call span: kind %v, attributes %v", call.Kind, call.Attributes)
	}
	if !bytes.Equal(call.TraceId, root.TraceId) || !bytes.Equal(call.ParentSpanId, root.SpanId) {
		t.Errorf("tools/call span is not a child of the session span")
	}
	if call.EndTimeUnixNano <= call.StartTimeUnixNano || call.Status.GetCode() == tracepb.Status_STATUS_CODE_ERROR {
		t.Errorf("tools/call span: %d..%d, status %v", call.StartTimeUnixNano, call.EndTimeUnixNano, call.Status)
	}
	spanNamed(t, spans, "initialize")
	requests := 0
	for _, s := range spans {
		if attr(s, "jsonrpc.request.id") != "" {
			requests++
		}
	}
	if n := requestFrames(t, rec); requests != n {
		t.Errorf("%d request spans for %d requests", requests, n)
	}

	rec = recordDemo(t, "error", "rpc", "tools/call", "--params", `{"name":"no-such-tool"}`)
	spans = allSpans(decodeOTLPJSON(t, exportOut(t, "otlp", rec)))
	bad := spanNamed(t, spans, "tools/call no-such-tool")
	if bad.Status.GetCode() != tracepb.Status_STATUS_CODE_ERROR || bad.Status.GetMessage() == "" || attr(bad, "error.type") != "-32602" ||
		attr(bad, "rpc.response.status_code") != "-32602" {
		t.Errorf("failed call: status %v, attributes %v", bad.Status, bad.Attributes)
	}

	rec = recordDemo(t, "traced", "--protocol", "2025-11-25", "rpc", "tools/call", "--params",
		`{"name":"echo","arguments":{"text":"x"},"_meta":{"traceparent":"`+testTraceparent+`"}}`)
	spans = allSpans(decodeOTLPJSON(t, exportOut(t, "otlp", rec)))
	traced, root := spanNamed(t, spans, "tools/call echo"), spanNamed(t, spans, "mcp session")
	if hex.EncodeToString(traced.TraceId) != testTraceID || hex.EncodeToString(traced.ParentSpanId) != testParentID {
		t.Errorf("traced call: trace %x parent %x, want %s %s", traced.TraceId, traced.ParentSpanId, testTraceID, testParentID)
	}
	if len(traced.Links) != 1 || !bytes.Equal(traced.Links[0].SpanId, root.SpanId) {
		t.Errorf("traced call: links %v, want the session span", traced.Links)
	}

	rec = recordDemo(t, "read", "read", "demo://config.json")
	read := spanNamed(t, allSpans(decodeOTLPJSON(t, exportOut(t, "otlp", rec))), "resources/read")
	if attr(read, "mcp.resource.uri") != "demo://config.json" {
		t.Errorf("resources/read span: attributes %v", read.Attributes)
	}

	url := startDemoHTTP(t)
	rec = recordDemo(t, "http", "--protocol", "2025-11-25", "--no-redact", "call", "echo", "text=x "+testSecret, "--url", url)
	out := exportOut(t, "otlp", rec)
	if bytes.Contains(out, []byte(testSecret)) {
		t.Errorf("the OTLP export holds the secret")
	}
	call = spanNamed(t, allSpans(decodeOTLPJSON(t, out)), "tools/call echo")
	if attr(call, "mcp.session.id") == "" || attr(call, "network.transport") != "tcp" || attr(call, "server.address") != "127.0.0.1" {
		t.Errorf("HTTP tools/call span: attributes %v", call.Attributes)
	}
}

// receiver is an OTLP/HTTP traces receiver: it decodes each request's protobuf body.
type receiver struct {
	srv     *httptest.Server
	mu      sync.Mutex
	spans   []*tracepb.Span
	service []string
	changed chan struct{}
}

func newReceiver(t *testing.T) *receiver {
	t.Helper()
	rv := &receiver{changed: make(chan struct{})}
	rv.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/traces" || r.Header.Get("Content-Type") != "application/x-protobuf" {
			t.Errorf("OTLP request %s %s %s", r.Method, r.URL.Path, r.Header.Get("Content-Type"))
			http.Error(w, "unexpected", http.StatusBadRequest)
			return
		}
		var body io.Reader = r.Body
		if r.Header.Get("Content-Encoding") == "gzip" {
			zr, err := gzip.NewReader(r.Body)
			if err != nil {
				t.Error(err)
				return
			}
			body = zr
		}
		b, _ := io.ReadAll(body)
		req := &coltracepb.ExportTraceServiceRequest{}
		if err := proto.Unmarshal(b, req); err != nil {
			t.Errorf("OTLP body: %v", err)
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		rv.mu.Lock()
		rv.spans = append(rv.spans, allSpans(req)...)
		for _, rs := range req.ResourceSpans {
			for _, a := range rs.Resource.GetAttributes() {
				if a.Key == "service.name" {
					rv.service = append(rv.service, a.Value.GetStringValue())
				}
			}
		}
		close(rv.changed)
		rv.changed = make(chan struct{})
		rv.mu.Unlock()
		resp, _ := proto.Marshal(&coltracepb.ExportTraceServiceResponse{})
		w.Header().Set("Content-Type", "application/x-protobuf")
		w.Write(resp)
	}))
	t.Cleanup(rv.srv.Close)
	return rv
}

// waitSpan waits until a span named name has arrived.
func (rv *receiver) waitSpan(t *testing.T, name string) *tracepb.Span {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		rv.mu.Lock()
		ch := rv.changed
		for _, s := range rv.spans {
			if s.Name == name {
				rv.mu.Unlock()
				return s
			}
		}
		rv.mu.Unlock()
		select {
		case <-ch:
		case <-deadline:
			t.Fatalf("no span %q reached the receiver within 30s", name)
		}
	}
}

// TestExportOTLPEndpoint sends a recording's spans to an OTLP/HTTP receiver, named with
// --otlp-endpoint and with OTEL_EXPORTER_OTLP_ENDPOINT.
func TestExportOTLPEndpoint(t *testing.T) {
	rec := recordDemo(t, "call", "call", "echo", "text=sent")
	rv := newReceiver(t)
	runOK(t, "export", "--format", "otlp", rec, "--otlp-endpoint", rv.srv.URL+"/v1/traces", "--service-name", "svc-flag")
	rv.waitSpan(t, "tools/call echo")
	rv2 := newReceiver(t)
	cmd := exec.Command(sessiontest.BuildMCPScope(t), "export", "--format", "otlp", rec)
	cmd.Env = append(os.Environ(), "OTEL_EXPORTER_OTLP_ENDPOINT="+rv2.srv.URL)
	if out, err := cmd.CombinedOutput(); err != nil || len(out) > 0 {
		t.Fatalf("export to $OTEL_EXPORTER_OTLP_ENDPOINT: %v\n%s", err, out)
	}
	rv2.waitSpan(t, "tools/call echo")
	rv.mu.Lock()
	defer rv.mu.Unlock()
	if len(rv.service) == 0 || rv.service[0] != "svc-flag" {
		t.Errorf("service.name %v, want svc-flag", rv.service)
	}
}

// TestTapOTLP runs the demo behind `tap --otlp` with a scripted host and receives the
// spans live: the tool call under the host's trace, the handshake, and the session span
// when the tap ends.
func TestTapOTLP(t *testing.T) {
	rv := newReceiver(t)
	bin := sessiontest.BuildMCPScope(t)
	p := start(t, tapEnv(t), bin, "tap", "--otlp", "--otlp-endpoint", rv.srv.URL+"/v1/traces", "--name", "traced", "--", bin, "demo")
	p.write(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"host","version":"1"}}}` + "\n")
	p.waitResponse(1)
	p.write(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")
	p.write(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"live"},"_meta":{"traceparent":"` + testTraceparent + `"}}}` + "\n")
	p.waitResponse(2)
	if code := p.exit(); code != 0 {
		t.Fatalf("tap exit %d:\n%s", code, p.stderrText())
	}
	call := rv.waitSpan(t, "tools/call echo")
	if hex.EncodeToString(call.TraceId) != testTraceID || hex.EncodeToString(call.ParentSpanId) != testParentID ||
		call.Kind != tracepb.Span_SPAN_KIND_CLIENT || attr(call, "mcp.protocol.version") != "2025-11-25" || call.EndTimeUnixNano <= call.StartTimeUnixNano {
		t.Errorf("live tools/call span: trace %x parent %x kind %v attributes %v", call.TraceId, call.ParentSpanId, call.Kind, call.Attributes)
	}
	rv.waitSpan(t, "initialize")
	rv.waitSpan(t, "notifications/initialized")
	rv.waitSpan(t, "mcp session")
	rv.mu.Lock()
	defer rv.mu.Unlock()
	if len(rv.service) == 0 || rv.service[0] != "traced" {
		t.Errorf("service.name %v, want the tap's name", rv.service)
	}
}

// TestTapOTLPHTTP runs `tap --otlp` as a reverse proxy in front of demo --http: the spans
// carry the session id the server gave, and the tap sends them when it is interrupted.
func TestTapOTLPHTTP(t *testing.T) {
	rv := newReceiver(t)
	upstream := startDemoHTTP(t)
	p := start(t, tapEnv(t), sessiontest.BuildMCPScope(t), "tap", "--otlp", "--otlp-endpoint", rv.srv.URL+"/v1/traces",
		"--listen", "127.0.0.1:0", "--upstream", upstream, "--no-record")
	p.waitStderr("watch with")
	m := regexp.MustCompile(`listening on (http://\S+)`).FindStringSubmatch(p.stderrText())
	if m == nil {
		t.Fatalf("the tap did not say where it listens:\n%s", p.stderrText())
	}
	init := post(t, http.MethodPost, m[1], "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"host","version":"1"}}}`)
	sid := init.header.Get("Mcp-Session-Id")
	if init.status != 200 || sid == "" {
		t.Fatalf("initialize through the tap: %d, session %q", init.status, sid)
	}
	post(t, http.MethodPost, m[1], sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	post(t, http.MethodPost, m[1], sid, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"no-such-tool"}}`)
	if err := p.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	p.wait(func() bool { return p.ended })
	call := rv.waitSpan(t, "tools/call no-such-tool")
	if attr(call, "mcp.session.id") != sid || attr(call, "network.transport") != "tcp" || call.Status.GetCode() != tracepb.Status_STATUS_CODE_ERROR {
		t.Errorf("live tools/call span over HTTP: status %v attributes %v", call.Status, call.Attributes)
	}
	rv.waitSpan(t, "mcp session")
}
