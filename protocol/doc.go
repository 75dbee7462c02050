// Package protocol holds the bytes and the meaning of MCP traffic: a lenient JSON-RPC 2.0
// frame decoder that keeps the exact raw text, findings (spec violations as data), and a
// catalog of the MCP revisions (which methods exist, in which direction, behind which
// capability). It does no I/O and starts no goroutines.
//
// # Decoding
//
// Decode turns one message's bytes into a *Frame without ever failing: Frame.Raw is the
// input itself and the other fields are views of it. What is wrong with a message (not JSON,
// a wrong jsonrpc version, an id of a forbidden type, an error object without a code, …)
// is recorded as Findings, and a message that is not a request, notification or response at
// all has Kind KindInvalid. A JSON array is a batch whose members are decoded one by one.
// DecodeTruncated describes a frame that exceeded the transport's size limit.
//
// Decode uses a small hand-written scanner that validates the JSON and records the spans of
// the top-level members in one pass; it allocates only the Frame for a typical response.
//
// # Findings
//
// A Finding has a stable code (the Find… constants), a plain-words message and a severity.
// The severity is decided by findingTable in findings.go, one table built on first use
// from the parts each file keeps beside its codes (coreFindings, authFindings,
// appLaneFindings, checkFindings, contentFindings, cardFindings, eventsFindings):
// NewFinding looks the code up, and a code it lacks is a warning. Explain gives the longer text, citing the spec, for a
// detail pane. Decode attaches the findings that need only the bytes; Check adds those that
// depend on the negotiated revision and capabilities; the session attaches the
// conversational ones (unknown id, duplicate or late response, unterminated line) itself
// with NewFinding.
//
// The severity is decided here and nowhere else. Where one code covers observations of
// different weight, the caller says what it saw, an Evidence, and NewFindingOn looks up the
// code's row for it (evidenceSeverities, findings.go): mcp.error-code is a warning, but an error with
// EvidenceNoResponse (no answer at all) or EvidenceForbidden (an answer the revision
// forbids); mcp.handshake is an error, but info with EvidenceCost (very long instructions).
// SeverityOf answers for a code and evidence.
//
// # Handshakes
//
// handshake.go holds the typed views of both handshakes: DecodeInitializeResult,
// DecodeDiscoverResult (with the serverInfo of its _meta), DecodeClientHello (what a client
// declared), and MetaOf for any _meta, with a Meta… constant for every _meta key the
// program reads or writes. handshake_test.go pins this with a syntax check over the tree:
// no other program file spells a _meta key, declares a struct that decodes
// protocolVersion, supportedVersions, serverInfo or _meta, or calls the result decoders.
//
// # Checks of one definition
//
// servercheck.go holds the rules mcpscope check applies to one definition or one answer
// (CheckToolDefinition, CheckPromptDefinition, CheckResourceDefinition, ExpectedError) and
// SpecFor, the spec section each finding rests on. toolheaders.go reads SEP-2243's
// x-mcp-header annotations.
//
// content.go looks at the text a server gives a model or a user: CheckContent walks a
// definition's every string and member name and reports, per string and code, terminal
// escapes and controls, bidirectional controls, tag characters (spelling out what they
// say), variation selectors used as a carrier, invisible characters, names mixing scripts
// or using look-alikes of ASCII, and the phrases and markup of the table ContentRules
// (content_rules.go). A ContentFinding carries the JSON pointer; its message quotes the
// characters raw, for the caller to show escaped. crossserver.go holds the rules across
// configured servers (CheckAcrossServers). The codes are contentFindings.
//
// # Revisions and the catalog
//
// Revision names an MCP specification revision. The catalog (Lookup, Methods) lists every
// request and notification of every known revision with its direction and capability gate;
// the package tests check it against the official JSON Schema of each revision, which the
// product itself never reads.
//
// # Encoding
//
// EncodeRequest, EncodeNotification, EncodeResult and EncodeError write compact messages
// with members in the conventional order (jsonrpc, id, method, params / result / error).
package protocol
