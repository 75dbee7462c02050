package export

import (
	"encoding/base64"
	"encoding/hex"
	"regexp"
	"testing"
	"time"

	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/mcpscope/mcpscope/recordings"
)

// testSpans are a root, a child with an error, events and every kind of attribute, and a
// child of a remote parent linked to the root.
func testSpans(t *testing.T) (*otlpBatch, []*span) {
	t.Helper()
	var ended []*span
	tr := &tracer{sink: func(s *span) { ended = append(ended, s) }}
	at := time.Unix(1700000000, 123)
	root := tr.start(spanContext{}, SessionSpanName, kindInternal, at, []kv{strAttr("mcpscope.server", "demo")})
	call := tr.start(root.ctx, "tools/call echo", kindClient, at, []kv{strAttr("s", "a\"\\\n\x01<é\xff"), strAttr("empty", ""),
		intAttr("i", -42), boolAttr("b", true), boolAttr("f", false)})
	call.setAttrs(strAttr("s", "replaced"))
	call.addEvent("mcpscope.finding", at.Add(time.Millisecond), strAttr("mcpscope.finding.code", "X"))
	call.setError("boom")
	call.finish(at.Add(2 * time.Millisecond))
	rc, ok := parseTraceparent("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "congo=t61rcWkgMzE, rojo=00f067aa0ba902b7")
	if !ok {
		t.Fatal("a valid traceparent was refused")
	}
	remote := tr.start(rc, "tools/call remote", kindServer, at, nil, root.ctx)
	remote.finish(at)
	root.finish(at.Add(time.Second))
	b := batchOf(recordings.Header{Name: "svc", Server: "demo", Transport: "stdio"}, OTLPOptions{Version: "1.2.3"})
	return b, ended
}

// TestOTLPEncodings decodes both encodings of the same spans with the official OTLP types:
// they must decode, agree with each other, and hold what the spans hold.
func TestOTLPEncodings(t *testing.T) {
	b, spans := testSpans(t)
	fromPB := &coltracepb.ExportTraceServiceRequest{}
	if err := proto.Unmarshal(b.protobuf(spans), fromPB); err != nil {
		t.Fatalf("protobuf does not decode: %v", err)
	}
	js := append(b.jsonHead(), jsonSpan(nil, spans[0])...)
	for _, s := range spans[1:] {
		js = jsonSpan(append(js, ','), s)
	}
	js = append(js, b.jsonTail()...)
	re := regexp.MustCompile(`"(traceId|spanId|parentSpanId)":"([0-9a-f]*)"`)
	fixed := re.ReplaceAllFunc(js, func(m []byte) []byte {
		p := re.FindSubmatch(m)
		raw, _ := hex.DecodeString(string(p[2]))
		return []byte(`"` + string(p[1]) + `":"` + base64.StdEncoding.EncodeToString(raw) + `"`)
	})
	fromJSON := &coltracepb.ExportTraceServiceRequest{}
	if err := protojson.Unmarshal(fixed, fromJSON); err != nil {
		t.Fatalf("JSON does not decode: %v\n%s", err, js)
	}
	if !proto.Equal(fromPB, fromJSON) {
		t.Errorf("the encodings differ:\nprotobuf %v\njson     %v", fromPB, fromJSON)
	}
	rs := fromPB.ResourceSpans[0]
	if rs.SchemaUrl != schemaURL || rs.ScopeSpans[0].Scope.Name != ScopeName || rs.ScopeSpans[0].Scope.Version != "1.2.3" {
		t.Errorf("resource spans: %v", rs)
	}
	var keys []string
	for _, a := range rs.Resource.Attributes {
		keys = append(keys, a.Key+"="+a.Value.GetStringValue())
	}
	if want := "[mcpscope.server=demo mcpscope.transport=stdio service.name=svc]"; fmtList(keys) != want {
		t.Errorf("resource %s, want %s", fmtList(keys), want)
	}
	got := rs.ScopeSpans[0].Spans
	call, remote, root := got[0], got[1], got[2]
	if call.Name != "tools/call echo" || call.Kind != tracepb.Span_SPAN_KIND_CLIENT || !proto.Equal(call.Status,
		&tracepb.Status{Code: tracepb.Status_STATUS_CODE_ERROR, Message: "boom"}) || call.Flags != 0x101 ||
		string(call.ParentSpanId) != string(root.SpanId) || string(call.TraceId) != string(root.TraceId) ||
		call.EndTimeUnixNano-call.StartTimeUnixNano != uint64(2*time.Millisecond) || call.StartTimeUnixNano != 1700000000000000123 {
		t.Errorf("call span: %v", call)
	}
	want := map[string]*commonpb.AnyValue{
		"s":     {Value: &commonpb.AnyValue_StringValue{StringValue: "replaced"}},
		"empty": {Value: &commonpb.AnyValue_StringValue{StringValue: ""}},
		"i":     {Value: &commonpb.AnyValue_IntValue{IntValue: -42}},
		"b":     {Value: &commonpb.AnyValue_BoolValue{BoolValue: true}},
		"f":     {Value: &commonpb.AnyValue_BoolValue{BoolValue: false}},
	}
	if len(call.Attributes) != len(want) {
		t.Errorf("call attributes %v", call.Attributes)
	}
	for _, a := range call.Attributes {
		if w := want[a.Key]; w == nil || !proto.Equal(a.Value, w) {
			t.Errorf("attribute %s = %v, want %v", a.Key, a.Value, w)
		}
	}
	if len(call.Events) != 1 || call.Events[0].Name != "mcpscope.finding" || call.Events[0].Attributes[0].Value.GetStringValue() != "X" {
		t.Errorf("call events %v", call.Events)
	}
	if hex.EncodeToString(remote.TraceId) != "0af7651916cd43dd8448eb211c80319c" || hex.EncodeToString(remote.ParentSpanId) != "b7ad6b7169203331" ||
		remote.TraceState != "congo=t61rcWkgMzE,rojo=00f067aa0ba902b7" || remote.Flags != 0x301 || len(remote.Links) != 1 ||
		string(remote.Links[0].SpanId) != string(root.SpanId) || remote.Links[0].Flags != 0x101 {
		t.Errorf("remote child: %v", remote)
	}
	if len(root.ParentSpanId) != 0 || root.Kind != tracepb.Span_SPAN_KIND_INTERNAL || root.Flags != 0x101 {
		t.Errorf("root: %v", root)
	}
}

// TestJSONString: JSON strings escape what JSON requires and mend invalid UTF-8.
func TestJSONString(t *testing.T) {
	if got, want := string(jsonString(nil, "a\"\\\n\x01é\xff\u2028")), `"a\"\\\n\u0001é\ufffd`+"\u2028"+`"`; got != want {
		t.Errorf("jsonString = %s, want %s", got, want)
	}
}

func fmtList(s []string) string {
	out := "["
	for i, x := range s {
		if i > 0 {
			out += " "
		}
		out += x
	}
	return out + "]"
}

// TestParseTraceparent follows the W3C rules the OpenTelemetry propagator applies.
func TestParseTraceparent(t *testing.T) {
	for _, tc := range []struct {
		tp, ts    string
		ok        bool
		flags     byte
		wantState string
	}{
		{"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "", true, 1, ""},
		{"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-03", "a=1", true, 3, "a=1"},
		{"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "A=1", true, 1, ""},     // a bad tracestate is left out
		{"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "a=1,a=2", true, 1, ""}, // a key twice
		{"01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-09-x", "", true, 1, ""},      // a later version may add fields
		{"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-x", "", false, 0, ""},     // version 00 may not
		{"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-04", "", false, 0, ""},       // reserved flags in 00
		{"ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "", false, 0, ""},       // version ff
		{"00-0AF7651916CD43DD8448EB211C80319C-b7ad6b7169203331-01", "", false, 0, ""},       // upper case
		{"00-00000000000000000000000000000000-b7ad6b7169203331-01", "", false, 0, ""},       // zero trace id
		{"00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01", "", false, 0, ""},       // zero span id
		{"00-0af7651916cd43dd8448eb211c80319c-b7ad6b716920333-01", "", false, 0, ""},        // short span id
		{"garbage", "", false, 0, ""},
	} {
		c, ok := parseTraceparent(tc.tp, tc.ts)
		if ok != tc.ok || ok && (c.flags != tc.flags || c.state != tc.wantState || !c.remote) {
			t.Errorf("parseTraceparent(%q, %q) = %+v, %v", tc.tp, tc.ts, c, ok)
		}
	}
}
