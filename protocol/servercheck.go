package protocol

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Finding codes of mcpscope check: what a server does when it is exercised, rather than
// what one frame says. "server" names the process itself (its stdio streams, its start).
const (
	FindHandshake          = "mcp.handshake"           // the handshake's answer lacks a required member, or says something odd
	FindCapabilityMismatch = "mcp.capability-mismatch" // a declared capability that does not work, or a feature served undeclared
	FindPagination         = "mcp.pagination"          // a cursor loop, duplicate items across pages, or an unstable order
	FindToolName           = "mcp.tool-name"           // a tool name outside the revision's naming rules
	FindToolSchema         = "mcp.tool-schema"         // an inputSchema or outputSchema that is not a valid JSON Schema object
	FindToolAnnotations    = "mcp.tool-annotations"    // annotations of the wrong type or that contradict each other
	FindToolDescription    = "mcp.tool-description"    // a tool without a description
	FindPromptArguments    = "mcp.prompt-arguments"    // a prompt argument without a name, or a name used twice
	FindResourceDef        = "mcp.resource-definition" // a resource or template without uri/name, or a malformed uriTemplate
	FindResourceRead       = "mcp.resource-read"       // a listed resource that cannot be read
	FindStructuredContent  = "mcp.structured-content"  // structuredContent missing or not matching the tool's outputSchema
	FindErrorCodeExpected  = "mcp.error-code"          // an error case answered with another code than the revision requires
	FindInputValidation    = "mcp.input-validation"    // arguments failing a tool's inputSchema answered with a protocol error, not a tool error
	FindPing               = "mcp.ping"                // ping not answered with an empty result
	FindCancelIgnored      = "session.cancel-ignored"  // a response after notifications/cancelled to a request still running
	FindAfterCancel        = "session.after-cancel"    // no answer to a request sent after a cancellation
	FindSlow               = "session.slow"            // a method slower than its --slow threshold
	FindStartup            = "server.startup"          // the handshake took longer than its threshold
	FindStderrVolume       = "server.stderr-volume"    // how much the server wrote on stderr
)

// checkFindings are the codes of `mcpscope check`, a part of
// the one finding table (findingTable, findings.go).
func checkFindings() map[string]findingInfo {
	return map[string]findingInfo{
		FindHandshake: {SevError, "The answer to the handshake (initialize, or server/discover from 2026-07-28) MUST " +
			"carry the protocol version, the server's capabilities and serverInfo with a name and a version. " +
			"Instructions are free text for the model; very long ones cost every conversation context."},
		FindCapabilityMismatch: {SevWarning, "Capabilities declare which features a server offers; a client " +
			"only uses what was declared. A declared feature whose list fails is broken for every client, and " +
			"a feature served without being declared is invisible to a client that follows the spec."},
		FindPagination: {SevWarning, "List results are paginated with opaque cursors: the client sends " +
			"nextCursor back until a page has none. A cursor that repeats makes a client loop forever; an item " +
			"that appears on two pages, or an order that changes between two listings, makes the list " +
			"ambiguous (tool names SHOULD be unique within a server)."},
		FindToolName: {SevWarning, "From 2025-11-25 tool names SHOULD be 1 to 128 characters of ASCII letters, " +
			"digits, underscore, hyphen and dot, with no spaces, commas or other special characters, and " +
			"unique within the server. Hosts and models handle other names badly."},
		FindToolSchema: {SevError, "A tool's inputSchema MUST be a valid JSON Schema object (not null) of type " +
			"\"object\"; an outputSchema likewise. From 2025-11-25 a schema without $schema is JSON Schema " +
			"2020-12. A schema that does not compile cannot be used to build or validate arguments."},
		FindToolAnnotations: {SevWarning, "Tool annotations are hints (readOnlyHint, destructiveHint, " +
			"idempotentHint, openWorldHint booleans, title a string). destructiveHint and idempotentHint are " +
			"meaningful only when readOnlyHint is false, so a tool marked both read-only and destructive " +
			"contradicts itself."},
		FindToolDescription: {SevWarning, "A tool's description is what a model reads to decide when to call " +
			"it. A tool without one is hard to use correctly."},
		FindPromptArguments: {SevWarning, "A prompt's arguments are objects with a name (required), an optional " +
			"description and required flag. Two arguments with one name cannot both be given."},
		FindResourceDef: {SevWarning, "A resource needs a uri and a name; a resource template a uriTemplate " +
			"(RFC 6570) and a name."},
		FindResourceRead: {SevWarning, "A resource the server lists should be readable with resources/read, " +
			"and its result carries a non-empty contents array."},
		FindStructuredContent: {SevError, "When a tool declares an outputSchema, servers MUST provide " +
			"structured results (structuredContent) that conform to it, and clients SHOULD validate them."},
		FindErrorCodeExpected: {SevWarning, "Errors have codes the spec names: -32601 for an unknown method, " +
			"-32602 for an unknown tool and for invalid params, and for a resource that does not exist -32002 " +
			"up to 2025-11-25 or -32602 from 2026-07-28 (which also forbids answering with empty contents). A " +
			"client decides what to do by the code."},
		FindInputValidation: {SevWarning, "From 2025-11-25 (SEP-1303) an input validation error, arguments " +
			"that fail the tool's inputSchema, is a tool execution error: a result with isError true whose " +
			"text the model can act on to correct its call and retry. A JSON-RPC error (a protocol error) is " +
			"for unknown tools and malformed requests; models are less likely to recover from one."},
		FindPing: {SevError, "The receiver of a ping MUST respond promptly with an empty result; a peer that " +
			"does not answer may be considered stale and its connection closed."},
		FindCancelIgnored: {SevWarning, "A receiver of notifications/cancelled SHOULD stop processing the request " +
			"and not send a response for it. It MAY ignore the cancellation when processing had already " +
			"completed, so this is reported only for requests that were still running."},
		FindAfterCancel: {SevError, "Cancellation ends one request, not the conversation: a request sent after " +
			"notifications/cancelled must be answered like any other."},
		FindSlow: {SevInfo, "The method answered more slowly than its threshold (--slow). Hosts time out " +
			"slow requests, and models wait for every tool call. A note, as timings depend on the machine; " +
			"a warning with --strict-timing."},
		FindStartup: {SevInfo, "The server took longer than its threshold (--slow startup=…) from being " +
			"spawned or contacted to completing the handshake. Hosts start many servers at once and give up " +
			"on slow ones. A note, as timings depend on the machine; a warning with --strict-timing."},
		FindStderrVolume: {SevWarning, "On stdio the server MAY write UTF-8 strings to stderr for logging; " +
			"clients may capture, forward or ignore it. A large volume is costly to keep and hides what matters."},
	}
}

// SpecRef points at the section of a revision's specification that a finding rests on: the
// page under docs/specification/<revision>/ and the section's title.
type SpecRef struct {
	Revision Revision `json:"revision"`
	Page     string   `json:"page"`    // e.g. "server/tools"
	Section  string   `json:"section"` // e.g. "Tool Names"
	// Doc, when set, is the URL of an extension's specification document (Page is then its
	// name and Revision its version), e.g. the MCP Apps extension's.
	Doc string `json:"doc,omitempty"`
}

// Path is the page's file in the specification repository,
// "docs/specification/<revision>/<page>.mdx".
func (r SpecRef) Path() string {
	if r.Page == "" {
		return ""
	}
	if r.Doc != "" {
		return r.Doc
	}
	return "docs/specification/" + string(r.Revision) + "/" + r.Page + ".mdx"
}

// URL is the section on the published specification.
func (r SpecRef) URL() string {
	if r.Page == "" {
		return ""
	}
	u := "https://modelcontextprotocol.io/specification/" + string(r.Revision) + "/" + r.Page
	if r.Doc != "" {
		u = r.Doc
	}
	if r.Section != "" {
		u += "#" + anchor(r.Section)
	}
	return u
}

// String is "2025-11-25 server/tools § Tool Names".
func (r SpecRef) String() string {
	if r.Page == "" {
		return ""
	}
	s := string(r.Revision) + " " + r.Page
	if r.Section != "" {
		s += " § " + r.Section
	}
	return s
}

// anchor makes the heading anchor the specification site uses: lower case, spaces to hyphens,
// punctuation dropped.
func anchor(title string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(title) {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '-', c == '_':
			b.WriteRune(c)
		case c == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}

// SpecFor returns the section of revision rev that finding code rests on; the zero SpecRef
// when there is none (an unknown revision, or a code of mcpscope's own limits).
func SpecFor(code string, rev Revision) SpecRef {
	if ref, ok := AppsSpecRef(code); ok {
		return ref
	}
	if ref, ok := CardSpecRef(code); ok {
		return ref
	}
	if ref, ok := EventsSpecRef(code); ok {
		return ref
	}
	if !rev.Known() {
		return SpecRef{}
	}
	ref := func(page, section string) SpecRef { return SpecRef{Revision: rev, Page: page, Section: section} }
	modern := rev.Stateless()
	transports := "basic/transports"
	if modern {
		transports = "basic/transports/stdio"
	}
	switch code {
	case FindHandshake:
		if modern {
			return ref("server/discover", "")
		}
		return ref("basic/lifecycle", "Initialization")
	case FindCapabilityMismatch, FindCapability:
		if modern {
			return ref("server/discover", "")
		}
		return ref("basic/lifecycle", "Capability Negotiation")
	case FindPagination:
		return ref("server/utilities/pagination", "")
	case FindToolName:
		return ref("server/tools", "Tool Names")
	case FindToolSchema, FindToolDescription:
		return ref("server/tools", "Tool")
	case FindToolAnnotations:
		return ref("server/tools", "Tool")
	case FindToolHeader:
		return ref("server/tools", "x-mcp-header")
	case FindUnknownContent:
		return ref("server/tools", "Tool Result")
	case FindStructuredContent:
		return ref("server/tools", "Output Schema")
	case FindPromptArguments:
		return ref("server/prompts", "Prompt")
	case FindResourceDef, FindResourceRead:
		return ref("server/resources", "Protocol Messages")
	case FindErrorCodeExpected:
		return ref("server/tools", "Error Handling") // the callers name the right page per case
	case FindInputValidation:
		return ref("server/tools", "Error Handling")
	case FindPing:
		return ref("basic/utilities/ping", "Behavior Requirements")
	case FindCancelIgnored, FindAfterCancel, FindLateResponse:
		if modern {
			return ref("basic/patterns/cancellation", "Behavior Requirements")
		}
		return ref("basic/utilities/cancellation", "Behavior Requirements")
	case FindStderrVolume, FindNotJSON, FindEmptyLine, FindUnterminated, FindInvalidUTF8:
		return ref(transports, "")
	case FindStartup, FindSlow:
		if modern {
			return ref("basic/patterns/cancellation", "Timeouts")
		}
		return ref("basic/lifecycle", "Timeouts")
	case FindMissingResultType, FindUnknownResultType:
		return ref("basic/index", "")
	}
	if strings.HasPrefix(code, "jsonrpc.") || strings.HasPrefix(code, "session.") || code == FindUnknownMethod {
		if rev == Rev20241105 {
			return ref("basic/messages", "")
		}
		return ref("basic/index", "")
	}
	return SpecRef{}
}

// ErrorCase is one of the error situations check provokes.
type ErrorCase uint8

const (
	ErrCaseUnknownMethod    ErrorCase = iota + 1 // a method the server does not have
	ErrCaseUnknownTool                           // tools/call of a tool that does not exist
	ErrCaseInvalidParams                         // a request whose params miss a required member
	ErrCaseResourceNotFound                      // resources/read of a URI that does not exist
)

// ExpectedError is the JSON-RPC error code revision rev requires for case c, and the section
// that says so.
func ExpectedError(c ErrorCase, rev Revision) (code int64, ref SpecRef) {
	r := func(page, section string) SpecRef { return SpecRef{Revision: rev, Page: page, Section: section} }
	base := "basic/index"
	if rev == Rev20241105 {
		base = "basic/messages"
	}
	switch c {
	case ErrCaseUnknownMethod:
		return -32601, r(base, "")
	case ErrCaseUnknownTool:
		return -32602, r("server/tools", "Error Handling")
	case ErrCaseInvalidParams:
		return -32602, r(base, "")
	case ErrCaseResourceNotFound:
		if rev.Stateless() {
			return -32602, r("server/resources", "Error Handling")
		}
		return -32002, r("server/resources", "Error Handling")
	}
	return 0, SpecRef{}
}

// MaxToolNameLength is the longest tool name the naming rules of 2025-11-25 allow.
const MaxToolNameLength = 128

// ToolNameProblem says what is wrong with a tool name under the naming rules (1 to 128 of
// A-Z a-z 0-9 _ - .), or "" when nothing is.
func ToolNameProblem(name string) string {
	if name == "" {
		return "the name is empty"
	}
	if len(name) > MaxToolNameLength {
		return fmt.Sprintf("the name is %d characters long, more than %d", len(name), MaxToolNameLength)
	}
	for _, c := range name {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.'
		if !ok {
			return fmt.Sprintf("the name has %q, outside A-Z a-z 0-9 _ - .", c)
		}
	}
	return ""
}

// CheckToolDefinition returns what is wrong with one tool of a tools/list result under
// revision rev, apart from whether its schemas compile (that needs a JSON Schema
// implementation, which the caller has): the name rules (from 2025-11-25), the presence and
// root type of inputSchema and outputSchema, the annotations' types and consistency, and a
// description.
func CheckToolDefinition(raw json.RawMessage, rev Revision) []Finding {
	var out []Finding
	members, ok := ObjectMembers(raw)
	if !ok {
		return []Finding{NewFinding(FindToolSchema, "a tool is a %s, not an object", JSONType(raw))}
	}
	m := map[string]json.RawMessage{}
	for _, mb := range members {
		m[mb.Key] = mb.Value
	}
	name, isString := stringValue(m["name"])
	label := fmt.Sprintf("tool %q", name)
	switch {
	case !isString:
		out = append(out, NewFinding(FindToolName, "a tool has no name string (name is %s)", describe(m["name"])))
		label = "a tool without a name"
	case rev >= Rev20251125:
		if p := ToolNameProblem(name); p != "" {
			out = append(out, NewFinding(FindToolName, "%s: %s", label, p))
		}
	}
	out = append(out, schemaRoot(label, "inputSchema", m["inputSchema"], true)...)
	if v, ok := m["outputSchema"]; ok && rev >= Rev20250618 {
		out = append(out, schemaRoot(label, "outputSchema", v, false)...)
	}
	if d, ok := stringValue(m["description"]); !ok || strings.TrimSpace(d) == "" {
		out = append(out, NewFinding(FindToolDescription, "%s has no description", label))
	}
	if a, ok := m["annotations"]; ok && rev >= Rev20250326 {
		out = append(out, checkAnnotations(label, a)...)
	}
	return out
}

func describe(v json.RawMessage) string {
	if v == nil {
		return "absent"
	}
	return "a " + JSONType(v)
}

// schemaRoot checks that a tool's schema is an object whose type is "object".
func schemaRoot(label, member string, v json.RawMessage, required bool) []Finding {
	if v == nil {
		if required {
			return []Finding{NewFinding(FindToolSchema, "%s has no %s; it is required (for no parameters: {\"type\":\"object\",\"additionalProperties\":false})", label, member)}
		}
		return nil
	}
	if JSONType(v) != "object" {
		return []Finding{NewFinding(FindToolSchema, "%s: %s is %s, not a JSON Schema object", label, member, describe(v))}
	}
	t, ok := findMember(v, "type")
	if s, _ := stringValue(t); !ok || s != "object" {
		what := "has no type"
		if ok {
			what = "has type " + string(t)
		}
		return []Finding{NewFinding(FindToolSchema, `%s: %s %s; its root MUST be {"type":"object"}`, label, member, what)}
	}
	return nil
}

func checkAnnotations(label string, a json.RawMessage) []Finding {
	members, ok := ObjectMembers(a)
	if !ok {
		return []Finding{NewFinding(FindToolAnnotations, "%s: annotations is %s, not an object", label, describe(a))}
	}
	var out []Finding
	hints := map[string]string{}
	for _, mb := range members {
		switch mb.Key {
		case "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint":
			s := string(mb.Value)
			if s != "true" && s != "false" {
				out = append(out, NewFinding(FindToolAnnotations, "%s: %s is %s, not a boolean", label, mb.Key, describe(mb.Value)))
				continue
			}
			hints[mb.Key] = s
		case "title":
			if _, ok := stringValue(mb.Value); !ok {
				out = append(out, NewFinding(FindToolAnnotations, "%s: annotations.title is %s, not a string", label, describe(mb.Value)))
			}
		}
	}
	if hints["readOnlyHint"] == "true" && hints["destructiveHint"] == "true" {
		out = append(out, NewFinding(FindToolAnnotations, "%s is marked both readOnlyHint and destructiveHint", label))
	}
	return out
}

// CheckPromptDefinition returns what is wrong with one prompt of a prompts/list result: a
// missing name, arguments that are not an array of objects with distinct names.
func CheckPromptDefinition(raw json.RawMessage) []Finding {
	var p struct {
		Name      *string         `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if json.Unmarshal(raw, &p) != nil {
		return []Finding{NewFinding(FindPromptArguments, "a prompt is %s, not an object of the Prompt shape", describe(raw))}
	}
	if p.Name == nil || *p.Name == "" {
		return []Finding{NewFinding(FindPromptArguments, "a prompt has no name")}
	}
	label := fmt.Sprintf("prompt %q", *p.Name)
	if p.Arguments == nil || string(p.Arguments) == "null" {
		return nil
	}
	elems, ok := ArrayElements(p.Arguments)
	if !ok {
		return []Finding{NewFinding(FindPromptArguments, "%s: arguments is %s, not an array", label, describe(p.Arguments))}
	}
	var out []Finding
	seen := map[string]bool{}
	for i, e := range elems {
		var a struct {
			Name     *string         `json:"name"`
			Required json.RawMessage `json:"required"`
		}
		if json.Unmarshal(e, &a) != nil || a.Name == nil || *a.Name == "" {
			out = append(out, NewFinding(FindPromptArguments, "%s: argument %d has no name", label, i+1))
			continue
		}
		if seen[*a.Name] {
			out = append(out, NewFinding(FindPromptArguments, "%s: argument %q appears twice", label, *a.Name))
		}
		seen[*a.Name] = true
		if r := string(a.Required); r != "" && r != "true" && r != "false" {
			out = append(out, NewFinding(FindPromptArguments, "%s: argument %q has required %s, not a boolean", label, *a.Name, r))
		}
	}
	return out
}

// CheckResourceDefinition returns what is wrong with one item of resources/list (template
// false) or resources/templates/list (template true): a missing uri or uriTemplate, a missing
// name, a template whose braces do not balance.
func CheckResourceDefinition(raw json.RawMessage, template bool) []Finding {
	var r struct {
		URI         *string `json:"uri"`
		URITemplate *string `json:"uriTemplate"`
		Name        *string `json:"name"`
	}
	if json.Unmarshal(raw, &r) != nil {
		return []Finding{NewFinding(FindResourceDef, "a list item is %s, not an object", describe(raw))}
	}
	var out []Finding
	what, uri := "resource", r.URI
	if template {
		what, uri = "resource template", r.URITemplate
	}
	if uri == nil || *uri == "" {
		member := map[bool]string{false: "uri", true: "uriTemplate"}[template]
		return []Finding{NewFinding(FindResourceDef, "a %s has no %s", what, member)}
	}
	if r.Name == nil {
		out = append(out, NewFinding(FindResourceDef, "%s %s has no name", what, *uri))
	}
	if template {
		if p := TemplateProblem(*uri); p != "" {
			out = append(out, NewFinding(FindResourceDef, "resource template %s: %s", *uri, p))
		}
	}
	return out
}

// TemplateProblem says what is wrong with the expressions of an RFC 6570 URI template
// (unbalanced or nested braces, an empty expression), or "" when nothing is.
func TemplateProblem(t string) string {
	open := -1
	for i, c := range t {
		switch c {
		case '{':
			if open >= 0 {
				return fmt.Sprintf("a brace opens at %d inside the expression opened at %d", i, open)
			}
			open = i
		case '}':
			if open < 0 {
				return fmt.Sprintf("a brace closes at %d without one opening", i)
			}
			if i == open+1 {
				return fmt.Sprintf("an empty expression at %d", open)
			}
			open = -1
		}
	}
	if open >= 0 {
		return fmt.Sprintf("the expression opened at %d is never closed", open)
	}
	return ""
}

// TemplateVariables names the variables of an RFC 6570 template in order, without operators
// and modifiers ("{+path}", "{?q,lang}", "{id*}").
func TemplateVariables(t string) []string {
	var out []string
	for {
		i := strings.IndexByte(t, '{')
		if i < 0 {
			return out
		}
		j := strings.IndexByte(t[i:], '}')
		if j < 0 {
			return out
		}
		expr := strings.TrimLeft(t[i+1:i+j], "+#./;?&=,!@|")
		for v := range strings.SplitSeq(expr, ",") {
			v = strings.TrimSuffix(v, "*")
			if k := strings.IndexByte(v, ':'); k >= 0 {
				v = v[:k]
			}
			if v != "" {
				out = append(out, v)
			}
		}
		t = t[i+j+1:]
	}
}
