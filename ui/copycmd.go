package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/secret"
	"github.com/mcpscope/mcpscope/session/transport"
)

// ServerArgs is how the headless commands select the server the view is on, for "copy as
// command": the server selection flags as the command line gave them, the command after
// "--", and what curl needs to reach an HTTP server. Secrets are as given: every line
// made from them goes through Common.FileMask, so they are masked unless --no-redact.
type ServerArgs struct {
	Flags   []string // e.g. --url URL -H 'NAME: VALUE' --protocol REV
	Command []string // the server command after "--" (nil for a URL or the demo server)
	URL     string   // the server URL ("" for stdio)
	Headers []string // the -H headers, "Name: value"
	Bearer  string   // --bearer
}

// command is one way to reproduce a request: what it is and the line.
type command struct {
	Label, Line string
}

// reproduce is the lines that send frame f (a request or notification mcpscope sent)
// again outside the view: the mcpscope command and, over Streamable HTTP, curl. Secrets
// are masked by mask (a nil Masker masks shapes only).
func reproduce(f *protocol.Frame, info reproInfo, a ServerArgs, mask *secret.Masker) []command {
	words := append([]string{"mcpscope"}, headlessWords(f, info)...)
	words = append(words, a.Flags...)
	if len(a.Command) > 0 {
		words = append(append(words, "--"), a.Command...)
	}
	out := []command{{"mcpscope", shellLine(words, mask)}}
	if a.URL != "" && info.transport == "http" {
		out = append(out, command{"curl", shellLine(curlWords(f, info, a), mask)})
	}
	return out
}

// reproInfo is what the session knows that the lines need.
type reproInfo struct {
	revision  protocol.Revision
	stateless bool
	transport string // stdio, http or sse
	sessionID string
	schema    func(tool string) json.RawMessage // a tool's inputSchema, or nil
	oauth     string                            // the token type of an OAuth login ("Bearer", "DPoP"), or ""
}

// tokenPlaceholder stands for a token obtained by an OAuth login in the curl line: the
// token itself is never shown.
const tokenPlaceholder = "$MCPSCOPE_TOKEN"

// headlessWords are the words of the mcpscope command that sends f: call, read or prompt
// when f is exactly what they send, rpc otherwise.
func headlessWords(f *protocol.Frame, info reproInfo) []string {
	if f.Kind != protocol.KindRequest && f.Kind != protocol.KindNotification {
		return []string{"rpc", "--raw", string(f.Raw)}
	}
	var p map[string]json.RawMessage
	if len(f.Params) > 0 && json.Unmarshal(f.Params, &p) != nil {
		p = nil
	}
	progress, plainMeta := metaOf(p["_meta"], info.stateless)
	str := func(k string) (string, bool) {
		var s string
		return s, json.Unmarshal(p[k], &s) == nil && s != ""
	}
	only := func(keys ...string) bool {
		for k := range p {
			if k != "_meta" && !slices.Contains(keys, k) {
				return false
			}
		}
		return plainMeta
	}
	if f.Kind == protocol.KindRequest && p != nil {
		switch f.Method {
		case "tools/call":
			if name, ok := str("name"); ok && only("name", "arguments") {
				if w, ok := argWords(p["arguments"], info.schema(name), true); ok {
					w = append([]string{"call", name}, w...)
					if !progress {
						w = append(w, "--no-progress")
					}
					return w
				}
			}
		case "resources/read":
			if uri, ok := str("uri"); ok && only("uri") && !progress {
				return []string{"read", uri}
			}
		case "prompts/get":
			if name, ok := str("name"); ok && only("name", "arguments") && !progress {
				if w, ok := argWords(p["arguments"], nil, false); ok {
					return append([]string{"prompt", name}, w...)
				}
			}
		}
	}
	w := []string{"rpc", f.Method}
	if len(f.Params) > 0 {
		w = append(w, "--params", compactJSON(f.Params))
	}
	if f.Kind == protocol.KindNotification {
		w = append(w, "--notify")
	}
	if info.stateless {
		w = append(w, "--exact") // the params carry their _meta already
	}
	return w
}

// metaOf says whether _meta asks for progress, and whether it holds nothing else than
// the commands add by themselves (the progress token and, in 2026-07-28, the per-request
// keys).
func metaOf(raw json.RawMessage, stateless bool) (progress, plain bool) {
	if len(raw) == 0 {
		return false, true
	}
	var meta map[string]json.RawMessage
	if json.Unmarshal(raw, &meta) != nil {
		return false, false
	}
	own := []string{protocol.MetaProgressToken}
	if stateless {
		own = append(own, protocol.MetaProtocolVersion, protocol.MetaClientCapabilities,
			protocol.MetaClientInfo, protocol.MetaLogLevel)
	}
	for k := range meta {
		if !slices.Contains(own, k) {
			return false, false
		}
	}
	_, progress = meta[protocol.MetaProgressToken]
	return progress, true
}

// argWords are arguments as key=value words (strings the schema types as strings, or
// every string for a prompt) and key:=JSON words; ok is false when a name cannot be one
// word's key.
func argWords(raw json.RawMessage, schema json.RawMessage, typed bool) ([]string, bool) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, true
	}
	var args map[string]json.RawMessage
	if json.Unmarshal(raw, &args) != nil {
		return nil, false
	}
	props := stringProps(schema)
	keys := make([]string, 0, len(args))
	for k := range args {
		if k == "" || strings.ContainsAny(k, "=:") {
			return nil, false
		}
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var out []string
	for _, k := range keys {
		var s string
		if json.Unmarshal(args[k], &s) == nil && (!typed || props[k]) {
			out = append(out, k+"="+s)
			continue
		}
		if !typed {
			return nil, false // prompt arguments are strings
		}
		out = append(out, k+":="+compactJSON(args[k]))
	}
	return out, true
}

// stringProps are the properties of an object schema whose type allows a string.
func stringProps(schema json.RawMessage) map[string]bool {
	var s struct {
		Properties map[string]struct {
			Type json.RawMessage `json:"type"`
		} `json:"properties"`
	}
	_ = json.Unmarshal(schema, &s)
	out := map[string]bool{}
	for name, p := range s.Properties {
		var one string
		var many []string
		if json.Unmarshal(p.Type, &one) == nil {
			out[name] = one == "string"
		} else if json.Unmarshal(p.Type, &many) == nil {
			out[name] = slices.Contains(many, "string")
		}
	}
	return out
}

// curlWords is the curl command that POSTs f to the server as mcpscope did.
func curlWords(f *protocol.Frame, info reproInfo, a ServerArgs) []string {
	w := []string{"curl", "-sS", "-X", "POST", a.URL,
		"-H", "Content-Type: application/json",
		"-H", "Accept: application/json, text/event-stream"}
	if info.revision.Known() && info.revision != protocol.Rev20241105 {
		w = append(w, "-H", "MCP-Protocol-Version: "+string(info.revision))
	}
	if info.sessionID != "" {
		w = append(w, "-H", "Mcp-Session-Id: "+info.sessionID)
	}
	for _, h := range mirroredHeaders(f, info) {
		w = append(w, "-H", h)
	}
	for _, h := range a.Headers {
		w = append(w, "-H", h)
	}
	if a.Bearer != "" {
		w = append(w, "-H", "Authorization: Bearer "+a.Bearer)
	} else if info.oauth != "" {
		w = append(w, "-H", "Authorization: "+info.oauth+" "+tokenPlaceholder)
	}
	return append(w, "--data-raw", string(f.Raw))
}

// mirroredHeaders are the headers 2026-07-28 mirrors from a request's body, as the session
// sends them: Mcp-Method, Mcp-Name, and the Mcp-Param-* a tool's x-mcp-header annotations
// ask for (from the tool's inputSchema as listed).
func mirroredHeaders(f *protocol.Frame, info reproInfo) []string {
	if !info.stateless || f.Kind != protocol.KindRequest {
		return nil
	}
	out := []string{"Mcp-Method: " + f.Method}
	name := session.MirroredName(f.Method, f.Params)
	if name != "" {
		out = append(out, "Mcp-Name: "+transport.HeaderValue(name))
	}
	if f.Method != "tools/call" || info.schema == nil {
		return out
	}
	params, _ := protocol.ToolHeaderParams(info.schema(name))
	var p struct {
		Arguments json.RawMessage `json:"arguments"`
	}
	if len(params) == 0 || json.Unmarshal(f.Params, &p) != nil {
		return out
	}
	for _, hp := range params {
		if v, ok := protocol.HeaderParamValue(hp, p.Arguments); ok {
			out = append(out, hp.Header()+": "+transport.HeaderValue(v))
		}
	}
	return out
}

// compactJSON is raw without insignificant space (raw itself when it is not JSON).
func compactJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

// shellLine joins words into one POSIX shell line, each word masked, then quoted where
// the shell would otherwise change it.
func shellLine(words []string, mask *secret.Masker) string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = shellQuote(mask.String(w))
	}
	return strings.Join(out, " ")
}

// shellQuote is w as one shell word. A word holding tokenPlaceholder is double-quoted so
// the shell expands that variable, and nothing else.
func shellQuote(w string) string {
	if strings.Contains(w, tokenPlaceholder) {
		parts := strings.Split(w, tokenPlaceholder)
		for i, p := range parts {
			parts[i] = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "$", `\$`, "`", "\\`").Replace(p)
		}
		return `"` + strings.Join(parts, tokenPlaceholder) + `"`
	}
	if w != "" && strings.IndexFunc(w, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=@%+,", r))
	}) < 0 {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}

// String names the command (for the debug log).
func (c command) String() string { return fmt.Sprintf("%s: %s", c.Label, c.Line) }
