package export

import (
	"bufio"
	"cmp"
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"sort"
	"strings"

	"github.com/mcpscope/mcpscope/recordings"
)

// DefaultEndpoint is where spans go when neither the options nor the environment say:
// a collector on this machine, OTLP/HTTP without TLS.
const DefaultEndpoint = "http://localhost:4318/v1/traces"

// ScopeName is the instrumentation scope of mcpscope's spans.
const ScopeName = "github.com/mcpscope/mcpscope"

// schemaURL is the OpenTelemetry semantic conventions' version the attributes follow.
const schemaURL = "https://opentelemetry.io/schemas/1.41.0"

// otlpBatchSize is how many spans one OTLP/HTTP request carries at most (the
// OpenTelemetry SDK's default batch).
const otlpBatchSize = 512

// OTLPOptions say where spans go and how their service is named.
type OTLPOptions struct {
	// Endpoint is the OTLP/HTTP traces URL (http://host:4318/v1/traces). Empty: the
	// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT environment
	// variables, as the OpenTelemetry exporters read them (with OTEL_EXPORTER_OTLP_HEADERS,
	// _COMPRESSION, _TIMEOUT and the TLS files), else DefaultEndpoint.
	Endpoint string
	// ServiceName is the resource's service.name; empty: OTEL_SERVICE_NAME, else the
	// service.name of OTEL_RESOURCE_ATTRIBUTES, else the recording's or tap's name, else
	// "mcpscope".
	ServiceName string
	// Version is mcpscope's version, the instrumentation scope's version.
	Version string
}

// batchOf is the resource and scope of the spans of h: the attributes of
// OTEL_RESOURCE_ATTRIBUTES (key=value pairs, comma-separated, values URL-encoded) with
// mcpscope.server and mcpscope.transport, sorted by key as the SDK sorts a resource.
// service.name is, first to last: the option (--service-name), OTEL_SERVICE_NAME, the
// service.name of OTEL_RESOURCE_ATTRIBUTES, the recording's or tap's name, "mcpscope".
func batchOf(h recordings.Header, o OTLPOptions) *otlpBatch {
	attrs := map[string]string{}
	for _, pair := range strings.Split(os.Getenv("OTEL_RESOURCE_ATTRIBUTES"), ",") {
		k, v, ok := strings.Cut(pair, "=")
		if k = strings.TrimSpace(k); ok && k != "" {
			if dv, err := url.PathUnescape(strings.TrimSpace(v)); err == nil {
				attrs[k] = dv
			}
		}
	}
	name := cmp.Or(o.ServiceName, strings.TrimSpace(os.Getenv("OTEL_SERVICE_NAME")), attrs["service.name"], h.Name, "mcpscope")
	attrs["service.name"], attrs["mcpscope.server"], attrs["mcpscope.transport"] = name, h.Server, h.Transport
	b := &otlpBatch{schemaURL: schemaURL, scope: ScopeName, version: o.Version}
	for k, v := range attrs {
		b.resource = append(b.resource, strAttr(k, v))
	}
	sort.Slice(b.resource, func(i, j int) bool { return b.resource[i].key < b.resource[j].key })
	return b
}

// SendOTLP sends the spans of src to an OTLP/HTTP endpoint (o.Endpoint, or the
// environment's), in batches of up to 512 spans as they end. It stops at the first batch
// the endpoint does not take.
func SendOTLP(ctx context.Context, src *Source, o OTLPOptions) error {
	snd, err := newSender(o)
	if err != nil {
		return err
	}
	b := batchOf(src.Header, o)
	var pending []*span
	var sendErr error
	flush := func() {
		if len(pending) > 0 && sendErr == nil {
			sendErr = snd.send(ctx, b.protobuf(pending))
		}
		pending = pending[:0]
	}
	sp := newSpans(func(s *span) {
		if pending = append(pending, s); len(pending) >= otlpBatchSize {
			flush()
		}
	}, src.Header)
	err = src.Each(func(e *Event) error {
		sp.Add(e)
		return sendErr
	})
	sp.Finish()
	flush()
	if err == nil {
		err = sendErr
	}
	return err
}

// WriteOTLPJSON writes the spans of src to w as one ExportTraceServiceRequest in the OTLP
// JSON encoding (trace and span ids in hex, enums as numbers): the body an OTLP/HTTP
// receiver takes with Content-Type application/json. The spans are written as they end;
// a recording without spans is "{}".
func WriteOTLPJSON(ctx context.Context, w io.Writer, src *Source, o OTLPOptions) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	b := batchOf(src.Header, o)
	var buf []byte
	n := 0
	sp := newSpans(func(s *span) {
		buf = buf[:0]
		if n == 0 {
			buf = b.jsonHead()
		} else {
			buf = append(buf, ',')
		}
		n++
		_, _ = bw.Write(jsonSpan(buf, s))
	}, src.Header)
	err := src.Each(func(e *Event) error {
		sp.Add(e)
		return ctx.Err()
	})
	sp.Finish()
	if n == 0 {
		_, _ = bw.WriteString("{}")
	} else {
		_, _ = bw.Write(b.jsonTail())
	}
	_ = bw.WriteByte('\n')
	if ferr := bw.Flush(); err == nil && ferr != nil {
		err = fmt.Errorf("OTLP/JSON: %w", ferr)
	}
	return err
}
