// Package check exercises an MCP server and reports what it does wrong: the handshake,
// every list to its last page, each definition (tools, prompts, resources, templates), the
// calls that are safe to make, the server's error behaviour, cancellation and latency. Each
// finding has a severity, the section of the negotiated revision's specification it rests
// on and the frames that show it. The rules that look at one definition or one answer live
// in package protocol; this package drives a session and collects the evidence.
//
// # The run
//
// Check runs a session per era (a NewSession function makes it, so the CLI wires its trace and
// recording in) through the steps: run.go the handshake, lists, definitions and reads;
// calls.go the calls, error cases and cancellation; evidence.go the findings on frames,
// stderr and timing; schema.go JSON Schema compilation (santhosh-tekuri/jsonschema) and
// minimal arguments; apps.go the MCP Apps extension (each tool's link, each ui:// resource
// read and checked, and with Options.AppsContrast the tools listed once more with the
// extension declared the other way round). Each piece of evidence becomes an Item (code, severity,
// protocol.SpecRef, event seqs, excerpt). Every finding the session put on a frame the
// server sent is one too.
//
// content.go looks at every text the server gives a model or a user (serverInfo, the
// instructions, every string and member name of every listed definition) with
// protocol.CheckContent: terminal escapes and controls, bidirectional controls, tag
// characters, variation selectors, invisible characters, confusable names, and the phrase
// table protocol.ContentRules. Each such Item carries the JSON pointer of the text
// ("/tools/3/description", counted across pages). cost.go counts what the definitions cost
// a model (package protocol/tokens, o200k_base) into Run.Cost, the app-only tools apart
// (Cost.AppOnly: a host never shows them to the model), and warns past Options.TokenLimit.
// A response to the ping check cancels as it sends it is not a late response: the answer
// crossing the cancellation is check's own doing (evidence.go). The rules across servers (a shared tool name, a description naming
// another server's tool) need several reports; check --all applies them
// (protocol.CheckAcrossServers).
//
// Run.Definitions holds the lists, instructions and capabilities as sent: the snapshot a
// pin (package recordings/pin) hashes.
//
// # Severity
//
// A finding's severity is decided in protocol's tables (protocol/findings.go), never here.
// Where one code covers observations of different weight, a step passes what it saw as a
// protocol.Evidence to protocol.NewFindingOn: no error response at all (EvidenceNoResponse)
// and an empty contents array for a missing resource (EvidenceForbidden) make mcp.error-code
// an error; over-long instructions (EvidenceCost) make mcp.handshake info.
// TestSeverityDecidedByTheTable keeps it so.
package check
