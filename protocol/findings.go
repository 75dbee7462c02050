package protocol

import (
	"fmt"
	"slices"
	"sync"
)

// Finding codes. They are stable identifiers: recordings store them and filters match them,
// so a code is never renamed once released. The first part names the layer that is at
// fault: "wire" (bytes and framing), "jsonrpc" (JSON-RPC 2.0 shape), "mcp" (rules of an
// MCP revision) and "session" (how a message relates to the rest of the conversation).
const (
	FindEmptyLine    = "wire.empty-line"    // a blank line where a message was expected
	FindNotJSON      = "wire.not-json"      // text that is not JSON, e.g. a banner line
	FindInvalidUTF8  = "wire.invalid-utf8"  // bytes that are not valid UTF-8
	FindTooLarge     = "wire.too-large"     // a frame over the size limit, kept only in part
	FindUnterminated = "wire.unterminated"  // stdio: last line had no newline at end of stream
	FindDuplicateKey = "wire.duplicate-key" // the same top-level member appears twice
	FindAmbiguousKey = "wire.ambiguous-key" // keys that differ only in case, or params keys sent twice
	FindTooDeep      = "wire.too-deep"      // JSON nested beyond MaxNesting levels

	FindNotObject         = "jsonrpc.not-object"         // JSON, but not an object (or array)
	FindNotMessage        = "jsonrpc.not-message"        // an object with no method, result or error
	FindJSONRPCVersion    = "jsonrpc.version"            // "jsonrpc" missing or not "2.0"
	FindIDType            = "jsonrpc.id-type"            // id of a type MCP forbids here
	FindMissingID         = "jsonrpc.missing-id"         // a result without an id
	FindMethodType        = "jsonrpc.method-type"        // method is not a string
	FindParamsType        = "jsonrpc.params-type"        // params is neither object nor array
	FindResultAndError    = "jsonrpc.result-and-error"   // a response with both members
	FindNoResultOrError   = "jsonrpc.no-result-or-error" // a response with neither member
	FindMixedShape        = "jsonrpc.mixed-shape"        // a request that also carries result/error
	FindErrorObject       = "jsonrpc.error-object"       // error is not an object
	FindErrorCode         = "jsonrpc.error-code"         // error.code missing or not an integer
	FindErrorMessage      = "jsonrpc.error-message"      // error.message missing or not a string
	FindEmptyBatch        = "jsonrpc.empty-batch"        // a batch with no members
	FindResultType        = "jsonrpc.result-type"        // result is not an object (MCP results are)
	FindBatchForbidden    = "mcp.batch-forbidden"        // a batch in a revision without batching
	FindUnknownMethod     = "mcp.unknown-method"         // method not defined by the revision
	FindWrongDirection    = "mcp.wrong-direction"        // method defined only for the other side
	FindMessageKind       = "mcp.message-kind"           // request sent as notification or vice versa
	FindCapability        = "mcp.capability"             // capability gate not satisfied
	FindMissingResultType = "mcp.missing-result-type"    // 2026-07-28 result without resultType
	FindUnknownResultType = "mcp.unknown-result-type"    // resultType not defined by the revision
	FindUnknownContent    = "mcp.unknown-content"        // content block of an unknown type
	FindDiscoverResult    = "mcp.discover-result"        // server/discover answered with no valid DiscoverResult
	FindToolHeader        = "mcp.tool-header"            // a tool's x-mcp-header annotation breaks SEP-2243's rules
	FindSkillEntry        = "mcp.skill-entry"            // a skills/list or skills/get entry breaks the Skills extension's rules
	FindSkillDigest       = "mcp.skill-digest"           // a skill file's SHA-256 differs from its entry (or it is not listed)
	FindSkillSize         = "mcp.skill-size"             // a skill file's byte length differs from its entry
	FindSkillFrontmatter  = "mcp.skill-frontmatter"      // SKILL.md's YAML frontmatter differs from its entry's

	FindUnknownID         = "session.unknown-id"         // response id matches no pending request
	FindDuplicateResponse = "session.duplicate-response" // second response for one request
	FindLateResponse      = "session.late-response"      // response after the request was cancelled

	FindRedirectWithheld    = "http.redirect-withheld"     // credentials not sent to the other origin of a redirect
	FindRedirectForwarded   = "http.redirect-forwarded"    // credentials sent to another origin, as asked
	FindRedirectNotFollowed = "http.redirect-not-followed" // a redirect mcpscope did not follow
	FindRequestFlood        = "session.request-flood"      // server requests beyond what mcpscope queues
	FindSessionChanged      = "session.id-changed"         // a later HTTP response carries another Mcp-Session-Id
)

// findingInfo is the severity and the long explanation of one code.
type findingInfo struct {
	sev     Severity
	explain string
}

// coreFindings are the codes of the wire and the session, the first part of the one
// finding table (findingTable).
func coreFindings() map[string]findingInfo {
	return map[string]findingInfo{
		FindEmptyLine: {SevWarning, "A blank line arrived where a message was expected. On stdio every " +
			"message is one line of JSON terminated by a newline, and the spec says the server must not " +
			"write anything to stdout that is not a valid MCP message."},
		FindNotJSON: {SevError, "These bytes are not JSON. Servers often print banners or logs on stdout " +
			"by mistake; the stdio transport says the server MUST NOT write anything to stdout that is not " +
			"a valid MCP message (logs belong on stderr). A client may fail to parse the stream."},
		FindInvalidUTF8: {SevWarning, "The message contains bytes that are not valid UTF-8. JSON-RPC " +
			"messages in MCP MUST be UTF-8 encoded; a peer may reject the message or replace the bytes."},
		FindTooLarge: {SevError, "The frame was larger than mcpscope's size limit, so only its beginning " +
			"was kept and it was not decoded. Raise the limit to inspect it in full."},
		FindUnterminated: {SevWarning, "The stream ended before this line's newline. On stdio each message " +
			"is delimited by a newline; a final message without one may be lost by a strict reader."},
		FindDuplicateKey: {SevWarning, "A member name appears twice in the same object. JSON (RFC 8259) " +
			"says names SHOULD be unique; parsers disagree on which copy wins. mcpscope uses the last one."},
		FindAmbiguousKey: {SevWarning, "The object holds keys a receiver may read as one member: a key " +
			"sent twice, or keys that differ only in case. Go's encoding/json matches keys without regard " +
			"to case and keeps the last; JavaScript and most other parsers match exactly. The two ends may " +
			"then act on different values (a check passes one tool name while the server runs another). " +
			"mcpscope reads every member it decides on by its exact key."},
		FindTooDeep: {SevError, "The message is valid JSON but nests deeper than the 10000 levels most " +
			"JSON decoders accept (Go's encoding/json stops there; others stop sooner or run out of stack). " +
			"A client will most likely fail to read it. mcpscope keeps the exact bytes and shows them as " +
			"received instead of decoding them."},
		FindNotObject: {SevError, "The message is JSON but not an object. A JSON-RPC 2.0 message is an " +
			"object (or, where batching is allowed, an array of objects)."},
		FindNotMessage: {SevError, "The object has none of method, result or error, so it is neither a " +
			"request, a notification nor a response."},
		FindJSONRPCVersion: {SevWarning, `JSON-RPC 2.0 requires a "jsonrpc" member whose value is ` +
			`exactly the string "2.0". MCP messages MUST follow JSON-RPC 2.0.`},
		FindIDType: {SevWarning, "MCP requires request ids to be a string or an integer, and unlike base " +
			"JSON-RPC the id MUST NOT be null. JSON-RPC also says numbers SHOULD NOT have fractional parts. " +
			"Objects, arrays and booleans are never valid ids. A null id is only right on an error " +
			"response to a request whose id could not be read."},
		FindMissingID: {SevWarning, "A result response MUST include the same id as the request it answers; " +
			"without one it cannot be matched."},
		FindMethodType: {SevError, "A JSON-RPC method MUST be a string."},
		FindParamsType: {SevWarning, "JSON-RPC params MUST be a structured value (an object or an array); " +
			"MCP uses objects."},
		FindResultAndError: {SevWarning, "A response MUST carry either result or error, never both " +
			"(JSON-RPC 2.0 §5, MCP base protocol). mcpscope treats it as an error response."},
		FindNoResultOrError: {SevError, "A response MUST carry either a result or an error member. This " +
			"message has an id but neither, so it cannot complete the request."},
		FindMixedShape: {SevWarning, "The message has a method, so it is a request or notification, but " +
			"it also carries result or error members, which only responses have."},
		FindErrorObject: {SevWarning, "The error member of a JSON-RPC response MUST be an object with " +
			"code and message."},
		FindErrorCode: {SevWarning, "error.code MUST be present and MUST be an integer (JSON-RPC 2.0 §5.1; " +
			"MCP: error codes MUST be integers)."},
		FindErrorMessage: {SevWarning, "error.message MUST be present and MUST be a string: a short " +
			"description of the error (JSON-RPC 2.0 §5.1)."},
		FindEmptyBatch: {SevError, "An empty array is not a valid batch; JSON-RPC 2.0 §6 says the reply " +
			"to one is a single Invalid Request error."},
		FindResultType: {SevWarning, "MCP results are JSON objects; even an empty result is {}."},
		FindBatchForbidden: {SevWarning, "JSON-RPC batches (arrays of messages) are only part of MCP " +
			"revision 2025-03-26. They were absent from 2024-11-05 and removed in 2025-06-18, so a peer " +
			"speaking another revision may reject the array."},
		FindUnknownMethod: {SevWarning, "The method is not defined by the negotiated MCP revision. The " +
			"receiver should answer a request with error -32601 (Method not found) and ignore a " +
			"notification."},
		FindWrongDirection: {SevWarning, "The method exists in the negotiated revision, but only from the " +
			"other side (for example a client sending sampling/createMessage)."},
		FindMessageKind: {SevWarning, "The method is defined as a request but arrived without an id, or " +
			"is defined as a notification but arrived with an id. Requests MUST have an id; notifications " +
			"MUST NOT, and the receiver MUST NOT reply to them."},
		FindCapability: {SevWarning, "During operation both parties MUST only use capabilities that were " +
			"successfully negotiated. This message needs a capability the other side did not declare " +
			"(or, for change notifications, that the sender did not declare)."},
		FindMissingResultType: {SevWarning, "From revision 2026-07-28 every result MUST include a " +
			`resultType member ("complete" or "input_required"). Clients treat a missing one as ` +
			`"complete" only for servers of earlier revisions.`},
		FindUnknownResultType: {SevWarning, `resultType is "complete" or "input_required" in the core ` +
			"protocol; extensions may add values they advertise. A value the client does not recognise " +
			"MUST be considered invalid."},
		FindUnknownContent: {SevWarning, "The content block has a type that the negotiated revision does " +
			"not define, so a client may not be able to show it."},
		FindDiscoverResult: {SevWarning, "A 2026-07-28 server answers server/discover with a DiscoverResult: " +
			"supportedVersions, capabilities, resultType, ttlMs and cacheScope are all required. A result " +
			"without them is not a modern answer: the versioning page says anything that is not a " +
			"DiscoverResult or a recognised modern error identifies a server of the earlier era, so a " +
			"dual-era client falls back to initialize."},
		FindToolHeader: {SevWarning, "From revision 2026-07-28 a tool may mark string, integer or boolean " +
			"parameters with x-mcp-header so that Streamable HTTP clients mirror their values into " +
			"Mcp-Param-{Name} headers. The name MUST be a non-empty HTTP token, unique ignoring case, on a " +
			"property reachable from the schema root through properties alone. A client on Streamable " +
			"HTTP MUST reject a tool whose annotation breaks a rule and exclude it from tools/list, so " +
			"mcpscope will not call it (a raw request still can)."},
		FindSkillEntry: {SevWarning, "A skill entry (Skills extension, io.modelcontextprotocol/skills) " +
			"carries the skill's SKILL.md uri, its frontmatter verbatim (name and description at least, " +
			"the name equal to the last path segment) and resources: every file of the skill with a " +
			"sha256:{64 hex} digest and a size, SKILL.md included, or \"dynamic\". An entry without a " +
			"valid resources member must not be loaded."},
		FindSkillDigest: {SevError, "When a host reads a file listed in a skill's resources it MUST verify " +
			"the bytes against the entry's SHA-256 digest and MUST NOT use content that does not match: " +
			"it may be corrupted, tampered with or stale. A file the entry does not list fails the same " +
			"way. mcpscope shows the bytes but does not load the skill; call skills/get to refresh it."},
		FindSkillSize: {SevError, "A skill file whose byte length differs from its entry's size is a " +
			"verification failure equivalent to a digest mismatch, whether or not the digest is computed. " +
			"The content must not be used."},
		FindSkillFrontmatter: {SevError, "After fetching a SKILL.md, a host MUST parse its YAML frontmatter " +
			"and compare it field by field with the entry's frontmatter; any difference is a verification " +
			"failure and the skill MUST NOT be loaded, so that what a user approves from the entry is what " +
			"the model receives."},
		FindAppResource: {SevError, "A tool's _meta.ui.resourceUri names the MCP Apps resource a host " +
			"renders its results with. The resource MUST exist on the server and the host MUST fetch it " +
			"with resources/read (it may be absent from resources/list). If the read fails the host has no " +
			"app to show."},
		FindAppScheme: {SevError, "An MCP Apps resource's URI MUST start with the ui:// scheme, which " +
			"tells it apart from other resources; a host looks only at ui:// URIs for apps."},
		FindAppMIMEType: {SevError, "An MCP Apps resource's content MUST have the mimeType " +
			"text/html;profile=mcp-app (and its listing SHOULD); other types are reserved for later " +
			"versions, and a host that supports only this one will not render it."},
		FindAppContent: {SevError, "An MCP Apps resource's content MUST be given as text (the HTML) or " +
			"blob (the HTML in base64). Without either there is nothing to render."},
		FindAppHTML: {SevWarning, "An MCP Apps resource's content MUST be a valid HTML5 document, which " +
			"opens with <!DOCTYPE html>; without it browsers render in quirks mode."},
		FindAppCSP: {SevWarning, "A host MUST build the iframe's Content Security Policy from the " +
			"resource's _meta.ui.csp (connectDomains, resourceDomains, frameDomains, baseUriDomains) and " +
			"MUST NOT allow undeclared domains; with no csp it uses a restrictive default that allows no " +
			"external origin. Scripts, styles, images, fetches or frames from an origin the resource does " +
			"not declare are blocked in a conformant host, even where a lax host shows them."},
		FindAppEval: {SevWarning, "A UI resource's HTML calls eval or Function (new Function(…)), which " +
			"compile code from text. The policy a host MUST apply when the resource declares no csp has " +
			"script-src 'self' 'unsafe-inline' and no 'unsafe-eval', and a declaration cannot add it, so " +
			"such code throws on a host that follows the spec while a laxer host (the ext-apps reference " +
			"host allows eval) runs it: the app works on some hosts and not on others. The check reads the " +
			"source without running it: a use in a string or a comment counts too."},
		FindAppVisibility: {SevWarning, "A tool's _meta.ui.visibility is an array of \"model\" (the agent " +
			"may see and call it) and \"app\" (its app may call it); it defaults to both. Other values " +
			"mean nothing to a host, and a value that is not an array is unreadable."},
		FindAppFlatKey: {SevWarning, "The flat _meta[\"ui/resourceUri\"] is deprecated and will be " +
			"removed before the extension is generally available; use _meta.ui.resourceUri."},
		FindAppMeta: {SevWarning, "A UI resource's _meta.ui holds csp (an object of string arrays), " +
			"permissions (an object), domain (a string) and prefersBorder (a boolean). A member of another " +
			"type cannot be read, and a host falls back to its defaults."},
		FindUnknownID: {SevWarning, "The response's id matches no request that is waiting for an answer. " +
			"Responses MUST include the same id as the request they correspond to."},
		FindDuplicateResponse: {SevWarning, "A second response arrived for a request that was already " +
			"answered. Each request gets exactly one response."},
		FindSessionChanged: {SevWarning, "Over Streamable HTTP the server MAY assign a session id once, in " +
			"the Mcp-Session-Id header of its answer to initialize; the client then sends that id on every " +
			"request. This answer carries a different id. mcpscope keeps the one initialize assigned; a " +
			"server that wants a new session answers 404 to the old id, and the client starts a new one."},
		FindLateResponse: {SevInfo, "The response arrived after mcpscope cancelled the request. The spec " +
			"allows this: because of latency a cancellation may arrive after the request finished. The " +
			"receiver SHOULD NOT send a response after a cancellation, and the sender ignores it."},
		FindRedirectWithheld: {SevWarning, "The server redirected the request to another origin (scheme, " +
			"host or port). mcpscope followed it without the credentials meant for the server you named " +
			"(the -H headers, the bearer token, the authorizer's headers), so another host never sees them; " +
			"the other origin may answer 401 as a result. If you trust it, run again with " +
			"--follow-redirects-with-credentials. Browsers and curl behave the same way."},
		FindRedirectForwarded: {SevWarning, "The server redirected the request to another origin and " +
			"--follow-redirects-with-credentials sent it the credentials meant for the server you named."},
		FindRedirectNotFollowed: {SevError, "mcpscope did not follow this redirect: it had no usable " +
			"Location, the chain exceeded --max-redirects, or a 301/302/303 answered a POST or DELETE. " +
			"Those three statuses turn the request into a GET without its body, which would lose the " +
			"JSON-RPC message; a server that moves its endpoint should answer 307 or 308."},
		FindRequestFlood: {SevError, "The server sent requests (ping, sampling, elicitation, roots) " +
			"faster than their answers got through, typically because it stopped reading its stdin. " +
			"mcpscope answers a fixed number at once (--server-requests) and queues the rest up to a " +
			"byte bound (--server-request-queue); beyond that it refuses each request at once with " +
			"JSON-RPC error -32000 instead of holding it. One finding marks the first refused request; " +
			"an error row counts them when the flood is over."},
	}
}

// Evidence is what was observed when a finding was raised, where the same code covers
// observations of different weight. A caller passes evidence, never a severity: the tables
// here decide the severity.
type Evidence uint8

// The evidence a finding may carry.
const (
	// EvidenceNone is the plain case: the code's default severity.
	EvidenceNone Evidence = iota
	// EvidenceNoResponse: the server sent no response at all where one was due.
	EvidenceNoResponse
	// EvidenceForbidden: the server answered with something its revision forbids outright.
	EvidenceForbidden
	// EvidenceCost: no rule is broken, but every conversation pays for it (instructions of
	// many kilobytes).
	EvidenceCost
	// EvidenceStrictTiming: a timing the user asked to count against the server
	// (check --strict-timing); without it a timing depends on the machine as much as on the
	// server, and is a note.
	EvidenceStrictTiming
)

// evidenceSeverities gives the severity of a code for particular evidence, where it
// differs from the code's default.
func evidenceSeverities() map[string]map[Evidence]Severity {
	return map[string]map[Evidence]Severity{
		// A wrong error code is a warning; no answer at all, or an answer the revision forbids
		// (empty contents for a missing resource from 2026-07-28), is an error.
		FindErrorCodeExpected: {EvidenceNoResponse: SevError, EvidenceForbidden: SevError},
		// A handshake answer missing a required member is an error; long instructions are worth
		// knowing, nothing more.
		FindHandshake: {EvidenceCost: SevInfo},
		// A timing is a note unless asked for (a busy machine is slow, not the server).
		FindSlow:    {EvidenceStrictTiming: SevWarning},
		FindStartup: {EvidenceStrictTiming: SevWarning},
	}
}

// findingRow is one code's row of the finding table: its default severity, the severities
// that evidence changes it to, and its explanation.
type findingRow struct {
	findingInfo
	byEvidence map[Evidence]Severity
}

// findingTable is the one table of finding codes, the only place a severity is decided. It
// is built the first time a finding is made or explained, from the parts each file keeps
// beside its codes (wire and session here, authorization, the app lane, check, content) and
// the evidence rows. A code in two parts, or an evidence row for a code in none, is a
// mistake of the source, and panics on first use (TestFindingTable builds it).
var findingTable = sync.OnceValue(func() map[string]findingRow {
	table := map[string]findingRow{}
	for _, part := range []func() map[string]findingInfo{coreFindings, authFindings, appLaneFindings, checkFindings, contentFindings, cardFindings, eventsFindings} {
		for code, info := range part() {
			if _, dup := table[code]; dup {
				panic("protocol: finding code " + code + " is registered twice")
			}
			table[code] = findingRow{findingInfo: info}
		}
	}
	for code, sevs := range evidenceSeverities() {
		row, ok := table[code]
		if !ok {
			panic("protocol: evidence severities for the unregistered finding code " + code)
		}
		row.byEvidence = sevs
		table[code] = row
	}
	return table
})

// NewFinding builds a finding with the severity registered for code. With args the message
// is fmt.Sprintf(format, args...); without, format is used as it is.
func NewFinding(code string, format string, args ...any) Finding {
	return NewFindingOn(code, EvidenceNone, format, args...)
}

// NewFindingOn is NewFinding for a finding that carries evidence: its severity is the one the
// table gives code for ev, or the code's default when the table gives none.
func NewFindingOn(code string, ev Evidence, format string, args ...any) Finding {
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	return Finding{Code: code, Message: msg, Severity: SeverityOf(code, ev)}
}

// SeverityOf is the severity of a finding with code and evidence ev: the table's entry for
// the pair, else the code's default, else a warning for a code not registered.
func SeverityOf(code string, ev Evidence) Severity {
	row, ok := findingTable()[code]
	if !ok {
		return SevWarning
	}
	if sev, ok := row.byEvidence[ev]; ok {
		return sev
	}
	return row.sev
}

// Explain returns a few plain sentences about a finding code for the detail pane: what the
// spec says and why it matters. Unknown codes return "".
func Explain(code string) string { return findingTable()[code].explain }

// FindingCodes lists every registered finding code.
func FindingCodes() []string {
	table := findingTable()
	codes := make([]string, 0, len(table))
	for c := range table {
		codes = append(codes, c)
	}
	slices.Sort(codes)
	return codes
}
