package cli_test

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
)

// A W3C traceparent a host would put in params._meta, and its parts.
const (
	testTraceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	testTraceID     = "4bf92f3577b34da6a3ce929d0e0e4736"
	testParentID    = "00f067aa0ba902b7"
	// testSecret is a secret-shaped text the recordings made with --no-redact hold (a
	// tool's argument and answer) and no export may.
	testSecret = "token=abcdef123456"
)

// recordDemo runs one mcpscope command with --record against the demo server (stdio by
// default; args may give --url) and returns the recording's path.
func recordDemo(t *testing.T, name string, args ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name+".jsonl")
	stdout, stderr, _ := run(t, append([]string{"--record", path}, args...)...)
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("mcpscope %s made no recording: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), err, stdout, stderr)
	}
	return path
}

// startDemoHTTP runs `mcpscope demo --http` and returns its Streamable HTTP URL.
func startDemoHTTP(t *testing.T) string {
	t.Helper()
	p := start(t, nil, sessiontest.BuildMCPScope(t), "demo", "--http", "127.0.0.1:0")
	p.waitStderr("listening on")
	m := regexp.MustCompile(`listening on (http://\S+/mcp)`).FindStringSubmatch(p.errOut.String())
	if m == nil {
		t.Fatalf("demo --http did not say where it listens:\n%s", p.errOut.String())
	}
	return m[1]
}

// exportOut runs mcpscope export and returns what it wrote to -o.
func exportOut(t *testing.T, format, rec string, extra ...string) []byte {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out."+format)
	runOK(t, append([]string{"export", "--format", format, rec, "-o", out}, extra...)...)
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// requestFrames counts the requests a recording holds (both directions).
func requestFrames(t *testing.T, rec string) int {
	t.Helper()
	r, err := recordings.Open(rec)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	es, _ := r.Events()
	n := 0
	for _, e := range es {
		if e.Event.Kind == session.EvFrame && e.Event.Frame.Kind.String() == "request" {
			n++
		}
	}
	return n
}

// TestExportHAR exports recordings of the demo over stdio and over demo --http as HAR,
// checks every member HAR 1.2 requires, and what the entries say: the HTTP exchanges with
// their masked headers and the frames as bodies; the stdio frames under mcp+stdio URLs.
func TestExportHAR(t *testing.T) {
	url := startDemoHTTP(t)
	httpRec := recordDemo(t, "http", "--protocol", "2025-11-25", "--no-redact", "-H", "X-Api-Key: key-value-123456", "call", "echo", "text=hello-har "+testSecret, "--url", url)
	if b, _ := os.ReadFile(httpRec); !bytes.Contains(b, []byte(testSecret)) {
		t.Fatalf("the --no-redact recording does not hold the secret; the masking check would prove nothing")
	}
	h := checkHAR(t, exportOut(t, "har", httpRec))
	var post, sse bool
	for _, e := range h.Log.Entries {
		if strings.Contains(e.Request.PostData.Text, `"method":"tools/call"`) {
			post = true
			if e.Request.Method != "POST" || e.Request.URL != url || !strings.Contains(e.Response.Content.Text, "hello-har") || e.Response.Status != 200 {
				t.Errorf("tools/call entry: %s %s → %d %q", e.Request.Method, e.Request.URL, e.Response.Status, e.Response.Content.Text)
			}
			if e.Timings.Wait <= 0 {
				t.Errorf("tools/call entry: wait %v", e.Timings.Wait)
			}
		}
		if e.Response.Content.MimeType == "text/event-stream" && strings.Contains(e.Response.Content.Text, "data: {") {
			sse = true
		}
		var key bool
		for _, hd := range e.Request.Headers {
			if strings.EqualFold(hd.Name, "X-Api-Key") {
				key = true
				if !strings.Contains(hd.Value, "****") {
					t.Errorf("X-Api-Key not masked: %q", hd.Value)
				}
			}
		}
		if !key && e.Request.Method == "POST" {
			t.Errorf("%s %s: the X-Api-Key header is missing", e.Request.Method, e.Request.URL)
		}
	}
	if !post {
		t.Errorf("no entry carries the tools/call request")
	}
	if !sse {
		t.Errorf("no entry has the event stream a POST was answered with")
	}

	stdioRec := recordDemo(t, "stdio", "--protocol", "2025-11-25", "call", "echo", "text=hello-stdio")
	h = checkHAR(t, exportOut(t, "har", stdioRec))
	var call, note bool
	for _, e := range h.Log.Entries {
		switch {
		case strings.HasPrefix(e.Request.URL, "mcp+stdio://server/tools/call?id="):
			call = true
			if e.Request.Method != "MCP" || e.Response.Status != 200 || !strings.Contains(e.Response.Content.Text, "hello-stdio") {
				t.Errorf("tools/call entry: %s %s → %d %q", e.Request.Method, e.Request.URL, e.Response.Status, e.Response.Content.Text)
			}
		case e.Request.URL == "mcp+stdio://server/notifications/initialized":
			note = e.Response.Status == 204
		}
	}
	if !call || !note {
		t.Errorf("stdio HAR: tools/call entry %v, notifications/initialized entry with 204 %v", call, note)
	}
	if n := requestFrames(t, stdioRec); len(h.Log.Entries) < n {
		t.Errorf("%d entries for %d requests", len(h.Log.Entries), n)
	}
}

// harDoc is the part of a HAR document the test reads after checking its structure.
type harDoc struct {
	Log struct {
		Entries []struct {
			Request struct {
				Method, URL string
				Headers     []struct{ Name, Value string }
				PostData    struct{ Text string }
			}
			Response struct {
				Status  int
				Content struct{ MimeType, Text string }
			}
			Timings struct{ Wait float64 }
		}
	}
}

// checkHAR checks b against the HAR 1.2 specification's required members and types
// (http://www.softwareishard.com/blog/har-12-spec/), and decodes it.
func checkHAR(t *testing.T, b []byte) harDoc {
	t.Helper()
	if bytes.Contains(b, []byte(testSecret)) {
		t.Errorf("the HAR holds the secret %q", testSecret)
	}
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("HAR is not JSON: %v", err)
	}
	c := harChecker{t: t}
	log := c.obj(v, "log", "")
	c.str(log, "version", "log")
	if log["version"] != "1.2" {
		t.Errorf("log.version %v", log["version"])
	}
	cr := c.obj(log, "creator", "log")
	c.str(cr, "name", "log.creator")
	c.str(cr, "version", "log.creator")
	pages := map[string]bool{}
	for i, p := range c.arr(log, "pages", "log") {
		at := "log.pages[" + itoa(i) + "]"
		pg, _ := p.(map[string]any)
		c.date(pg, "startedDateTime", at)
		pages[c.str(pg, "id", at)] = true
		c.str(pg, "title", at)
		c.obj(pg, "pageTimings", at)
	}
	entries := c.arr(log, "entries", "log")
	if len(entries) == 0 {
		t.Fatalf("HAR has no entries")
	}
	for i, en := range entries {
		at := "log.entries[" + itoa(i) + "]"
		e, _ := en.(map[string]any)
		if ref, ok := e["pageref"].(string); ok && !pages[ref] {
			t.Errorf("%s.pageref %q names no page", at, ref)
		}
		c.date(e, "startedDateTime", at)
		total := c.num(e, "time", at)
		req := c.obj(e, "request", at)
		for _, k := range []string{"method", "url", "httpVersion"} {
			c.str(req, k, at+".request")
		}
		for _, k := range []string{"cookies", "headers", "queryString"} {
			c.nameValues(c.arr(req, k, at+".request"), at+".request."+k)
		}
		c.num(req, "headersSize", at+".request")
		c.num(req, "bodySize", at+".request")
		if pd, ok := req["postData"]; ok {
			p, _ := pd.(map[string]any)
			c.str(p, "mimeType", at+".request.postData")
			_, text := p["text"].(string)
			_, params := p["params"].([]any)
			if text == params {
				t.Errorf("%s.request.postData: want text or params", at)
			}
		}
		resp := c.obj(e, "response", at)
		c.num(resp, "status", at+".response")
		for _, k := range []string{"statusText", "httpVersion", "redirectURL"} {
			c.str(resp, k, at+".response")
		}
		for _, k := range []string{"cookies", "headers"} {
			c.nameValues(c.arr(resp, k, at+".response"), at+".response."+k)
		}
		c.num(resp, "headersSize", at+".response")
		c.num(resp, "bodySize", at+".response")
		content := c.obj(resp, "content", at+".response")
		c.num(content, "size", at+".response.content")
		c.str(content, "mimeType", at+".response.content")
		c.obj(e, "cache", at)
		tm := c.obj(e, "timings", at)
		sum := 0.0
		for _, k := range []string{"send", "wait", "receive"} {
			if n := c.num(tm, k, at+".timings"); n < 0 {
				t.Errorf("%s.timings.%s is %v: send, wait and receive are never -1", at, k, n)
			} else {
				sum += n
			}
		}
		for _, k := range []string{"blocked", "dns", "connect", "ssl"} {
			if n, ok := tm[k].(float64); ok && n > 0 {
				sum += n
			}
		}
		if math.Abs(sum-total) > 0.01 {
			t.Errorf("%s.time %v is not the sum of its timings %v", at, total, sum)
		}
	}
	var h harDoc
	if err := json.Unmarshal(b, &h); err != nil {
		t.Fatal(err)
	}
	return h
}

type harChecker struct{ t *testing.T }

func (c harChecker) obj(v map[string]any, k, at string) map[string]any {
	c.t.Helper()
	o, ok := v[k].(map[string]any)
	if !ok {
		c.t.Errorf("%s.%s: want an object, have %T", at, k, v[k])
	}
	return o
}

func (c harChecker) arr(v map[string]any, k, at string) []any {
	c.t.Helper()
	a, ok := v[k].([]any)
	if !ok {
		c.t.Errorf("%s.%s: want an array, have %T", at, k, v[k])
	}
	return a
}

func (c harChecker) str(v map[string]any, k, at string) string {
	c.t.Helper()
	s, ok := v[k].(string)
	if !ok {
		c.t.Errorf("%s.%s: want a string, have %T", at, k, v[k])
	}
	return s
}

func (c harChecker) num(v map[string]any, k, at string) float64 {
	c.t.Helper()
	n, ok := v[k].(float64)
	if !ok {
		c.t.Errorf("%s.%s: want a number, have %T", at, k, v[k])
	}
	return n
}

func (c harChecker) date(v map[string]any, k, at string) {
	c.t.Helper()
	if _, err := time.Parse(time.RFC3339Nano, c.str(v, k, at)); err != nil {
		c.t.Errorf("%s.%s: not ISO 8601: %v", at, k, err)
	}
}

func (c harChecker) nameValues(list []any, at string) {
	c.t.Helper()
	for i, x := range list {
		nv, _ := x.(map[string]any)
		c.str(nv, "name", at+"["+itoa(i)+"]")
		c.str(nv, "value", at+"["+itoa(i)+"]")
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

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
		t.Fatalf("tap exit %d:\n%s", code, p.errOut.String())
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

// TestExportNDJSON exports a recording made with --no-redact as NDJSON: one event a
// line, every event of the recording, the secret masked.
func TestExportNDJSON(t *testing.T) {
	url := startDemoHTTP(t)
	rec := recordDemo(t, "http", "--no-redact", "-H", "X-Api-Key: key-value-123456", "call", "echo", "text=nd "+testSecret, "--url", url)
	out := exportOut(t, "ndjson", rec)
	if bytes.Contains(out, []byte(testSecret)) {
		t.Errorf("the NDJSON export holds the secret")
	}
	r, err := recordings.Open(rec)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	lines := bytes.Split(bytes.TrimSuffix(out, []byte("\n")), []byte("\n"))
	if len(lines) != r.Len() {
		t.Fatalf("%d lines for %d events", len(lines), r.Len())
	}
	for i, l := range lines {
		var e session.EventJSON
		if err := json.Unmarshal(l, &e); err != nil || e.Seq == 0 || e.Kind == "" {
			t.Errorf("line %d: %v %.200s", i+1, err, l)
		}
	}
	if !bytes.Contains(out, []byte(`"X-Api-Key":["`)) || bytes.Contains(out, []byte("key-value-123456")) {
		t.Errorf("the header is not in the export, or not masked")
	}
}
