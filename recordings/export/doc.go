// Package export turns a recording, or a tap's live events, into the formats other tools
// read: HAR 1.2 (browser devtools and HAR viewers), OTLP traces following the
// OpenTelemetry semantic conventions for MCP (as OTLP/JSON to a file, or sent to an
// OTLP/HTTP endpoint), and NDJSON (one masked event a line).
//
// Every exporter reads events in their masked JSON form (Event, made by FromEvent with a
// secret.Masker), so what leaves mcpscope is masked as a recording is.
package export
