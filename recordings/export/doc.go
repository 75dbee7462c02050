// Package export turns a recording, or a tap's live events, into the formats other tools
// read: HAR 1.2 (browser devtools and HAR viewers), OTLP traces following the
// OpenTelemetry semantic conventions for MCP (as OTLP/JSON to a file, or sent to an
// OTLP/HTTP endpoint), and NDJSON (one masked event a line).
//
// The spans, their two OTLP encodings (protobuf for OTLP/HTTP, JSON for a file) and the
// OTLP/HTTP client are written here with the standard library (otlp_span.go,
// otlp_encode.go, otlp_http.go), not with the OpenTelemetry SDK: the SDK brought gRPC and
// protobuf into the binary, and their start-up cost into every command. The tests decode
// what is sent and written with the official OTLP types.
//
// Every exporter reads events in their masked JSON form (Event, made by FromEvent with a
// secret.Masker), so what leaves mcpscope is masked as a recording is.
package export
