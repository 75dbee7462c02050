package export

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"sync"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"
	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/mcpscope/mcpscope/recordings"
)

// DefaultEndpoint is where spans go when neither the options nor the environment say:
// a collector on this machine, OTLP/HTTP without TLS.
const DefaultEndpoint = "http://localhost:4318/v1/traces"

// ScopeName is the instrumentation scope of mcpscope's spans.
const ScopeName = "github.com/mcpscope/mcpscope"

// OTLPOptions say where spans go and how their service is named.
type OTLPOptions struct {
	// Endpoint is the OTLP/HTTP traces URL (http://host:4318/v1/traces). Empty: the
	// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT environment
	// variables, as the OpenTelemetry exporter reads them (with OTEL_EXPORTER_OTLP_HEADERS
	// and the rest), else DefaultEndpoint.
	Endpoint string
	// ServiceName is the resource's service.name; empty: the recording's or tap's name,
	// else "mcpscope".
	ServiceName string
	// Version is mcpscope's version, the instrumentation scope's version.
	Version string
}

// resourceOf is the resource the spans of h belong to.
func resourceOf(h recordings.Header, o OTLPOptions) *resource.Resource {
	name := o.ServiceName
	if name == "" {
		name = h.Name
	}
	if name == "" {
		name = "mcpscope"
	}
	return resource.NewWithAttributes(semconv.SchemaURL, semconv.ServiceName(name),
		attribute.String("mcpscope.server", h.Server), attribute.String("mcpscope.transport", h.Transport))
}

// provider is a tracer provider that keeps every span and exports them in batches. Ending
// a span waits for room in the batch queue rather than dropping it: spans are made from a
// recording (or the live exporter's own queue), never on a path that must not wait.
func provider(exp sdktrace.SpanExporter, h recordings.Header, o OTLPOptions) *sdktrace.TracerProvider {
	return sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp, sdktrace.WithBlocking()), sdktrace.WithSampler(sdktrace.AlwaysSample()),
		sdktrace.WithResource(resourceOf(h, o)))
}

// httpExporter is the OTLP/HTTP exporter to o.Endpoint (or where the environment says).
func httpExporter(ctx context.Context, o OTLPOptions, extra ...otlptracehttp.Option) (sdktrace.SpanExporter, error) {
	var opts []otlptracehttp.Option
	if o.Endpoint == "" && os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") == "" && os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") == "" {
		o.Endpoint = DefaultEndpoint // the SDK's own default is https, which a local collector does not serve
	}
	if o.Endpoint != "" {
		opts = append(opts, otlptracehttp.WithEndpointURL(o.Endpoint))
	}
	exp, err := otlptracehttp.New(ctx, append(opts, extra...)...)
	if err != nil {
		return nil, fmt.Errorf("OTLP exporter: %w", err)
	}
	return exp, nil
}

// SendOTLP sends the spans of src to an OTLP/HTTP endpoint (o.Endpoint, or the
// environment's).
func SendOTLP(ctx context.Context, src *Source, o OTLPOptions) error {
	exp, err := httpExporter(ctx, o)
	if err != nil {
		return err
	}
	return runSpans(ctx, src, exp, o)
}

// runSpans makes the spans of src and exports them with exp.
func runSpans(ctx context.Context, src *Source, exp sdktrace.SpanExporter, o OTLPOptions) error {
	tp := provider(exp, src.Header, o)
	sp := NewSpans(tp.Tracer(ScopeName, trace.WithInstrumentationVersion(o.Version)), src.Header)
	err := src.Each(func(e *Event) error {
		sp.Add(e)
		return nil
	})
	sp.Finish()
	if serr := tp.Shutdown(ctx); err == nil && serr != nil {
		err = fmt.Errorf("OTLP export: %w", serr)
	}
	return err
}

// WriteOTLPJSON writes the spans of src to w as one OTLP/JSON ExportTraceServiceRequest,
// as the OTLP specification encodes it (trace and span ids in hex, enums as numbers): the
// body an OTLP/HTTP receiver takes with Content-Type application/json. The spans are made
// by the OpenTelemetry SDK and encoded by its OTLP exporter, whose requests are caught
// here instead of sent.
func WriteOTLPJSON(ctx context.Context, w io.Writer, src *Source, o OTLPOptions) error {
	c := &capture{}
	exp, err := httpExporter(ctx, OTLPOptions{Endpoint: "http://otlp.invalid/v1/traces"},
		otlptracehttp.WithHTTPClient(&http.Client{Transport: c}), otlptracehttp.WithCompression(otlptracehttp.NoCompression),
		otlptracehttp.WithRetry(otlptracehttp.RetryConfig{Enabled: false}), otlptracehttp.WithHeaders(map[string]string{}))
	if err != nil {
		return err
	}
	if err := runSpans(ctx, src, exp, o); err != nil {
		return err
	}
	b, err := OTLPJSON(c.merged())
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// capture is an http.RoundTripper that keeps the OTLP requests it is given and answers
// each with success.
type capture struct {
	mu   sync.Mutex
	reqs []*coltracepb.ExportTraceServiceRequest
}

func (c *capture) RoundTrip(r *http.Request) (*http.Response, error) {
	body, err := io.ReadAll(r.Body)
	r.Body.Close()
	if err != nil {
		return nil, err
	}
	req := &coltracepb.ExportTraceServiceRequest{}
	if err := proto.Unmarshal(body, req); err != nil {
		return nil, fmt.Errorf("OTLP request: %w", err)
	}
	c.mu.Lock()
	c.reqs = append(c.reqs, req)
	c.mu.Unlock()
	resp, _ := proto.Marshal(&coltracepb.ExportTraceServiceResponse{})
	return &http.Response{StatusCode: http.StatusOK, Status: "200 OK", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{"Content-Type": {"application/x-protobuf"}}, Body: io.NopCloser(bytes.NewReader(resp)),
		ContentLength: int64(len(resp)), Request: r}, nil
}

// merged is every span caught in one request: one resource, one scope.
func (c *capture) merged() *coltracepb.ExportTraceServiceRequest {
	out := &coltracepb.ExportTraceServiceRequest{}
	var scope *tracepb.ScopeSpans
	for _, req := range c.reqs {
		for _, rs := range req.ResourceSpans {
			if len(out.ResourceSpans) == 0 {
				out.ResourceSpans = append(out.ResourceSpans, &tracepb.ResourceSpans{Resource: rs.Resource, SchemaUrl: rs.SchemaUrl})
			}
			for _, ss := range rs.ScopeSpans {
				if scope == nil {
					scope = &tracepb.ScopeSpans{Scope: ss.Scope, SchemaUrl: ss.SchemaUrl}
					out.ResourceSpans[0].ScopeSpans = append(out.ResourceSpans[0].ScopeSpans, scope)
				}
				scope.Spans = append(scope.Spans, ss.Spans...)
			}
		}
	}
	return out
}

// OTLPJSON encodes req as the OTLP specification's JSON encoding: protobuf JSON with
// lowerCamelCase names and enums as numbers, except that trace and span ids are hex
// strings, not base64.
func OTLPJSON(req *coltracepb.ExportTraceServiceRequest) ([]byte, error) {
	b, err := protojson.MarshalOptions{UseEnumNumbers: true}.Marshal(req)
	if err != nil {
		return nil, err
	}
	var v any
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if err := recodeIDs(v, base64.StdEncoding.DecodeString, hex.EncodeToString); err != nil {
		return nil, err
	}
	return json.Marshal(v)
}

// idMembers are the members of OTLP spans and links that hold ids.
var idMembers = map[string]bool{"traceId": true, "spanId": true, "parentSpanId": true}

// recodeIDs re-encodes every id member of v in place.
func recodeIDs(v any, dec func(string) ([]byte, error), enc func([]byte) string) error {
	switch x := v.(type) {
	case map[string]any:
		for k, m := range x {
			if s, ok := m.(string); ok && idMembers[k] {
				b, err := dec(s)
				if err != nil {
					return fmt.Errorf("%s %q: %w", k, s, err)
				}
				x[k] = enc(b)
				continue
			}
			if err := recodeIDs(m, dec, enc); err != nil {
				return err
			}
		}
	case []any:
		for _, m := range x {
			if err := recodeIDs(m, dec, enc); err != nil {
				return err
			}
		}
	}
	return nil
}
