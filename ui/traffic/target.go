package traffic

import (
	"bytes"
	"encoding/json"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
)

// Methods whose requests act on a named target (a tool, a prompt, a resource).
const (
	MethodToolsCall     = "tools/call"
	MethodPromptsGet    = "prompts/get"
	MethodResourcesRead = "resources/read"
)

// RendersResult reports whether method's requests act on a named target, and so whether
// its results are shown by content type.
func RendersResult(method string) bool {
	return method == MethodToolsCall || method == MethodPromptsGet || method == MethodResourcesRead
}

// RequestTarget is what a request acts on: the tool or prompt name, or the uri.
// Both are read by their exact key (protocol.MemberString), as the server reads them.
func RequestTarget(method string, params json.RawMessage) string {
	key := "name"
	if method == MethodResourcesRead {
		key = "uri"
	}
	s, _ := protocol.MemberString(params, key)
	return s
}

// NewEntry is the row of event ev of session gen, as the filter sees it when the rows
// around it are not needed (a search of a recording sets its Index to the event's line).
func NewEntry(gen int, ev *session.Event) *Entry {
	e := &Entry{Ev: ev, Gen: gen}
	if ev.Kind == session.EvState && ev.Note == session.NoteNewSession {
		e.Marker = ev.Text
	}
	e.ToolErr = toolErrorResult(ev)
	return e
}

// EntryMethod is the method of a frame row: its own, or its request's for a response.
func EntryMethod(e *Entry) string {
	f := e.Ev.Frame
	if f.Method != "" {
		return f.Method
	}
	if e.Ev.Corr.Method != "" {
		return e.Ev.Corr.Method
	}
	if e.Pair != nil && e.Pair.Ev != nil && e.Pair.Ev.Frame != nil {
		return e.Pair.Ev.Frame.Method
	}
	return ""
}

// TargetRequest is the request frame whose target a row names: the row itself for a
// request, its request for a response; nil when the method has no target.
func TargetRequest(e *Entry) *protocol.Frame {
	if !RendersResult(EntryMethod(e)) {
		return nil
	}
	f := e.Ev.Frame
	if f.Kind == protocol.KindRequest {
		return f
	}
	if f.Kind.IsResponse() && e.Pair != nil && e.Pair.Ev != nil && e.Pair.Ev.Frame != nil {
		return e.Pair.Ev.Frame
	}
	return nil
}

// toolErrorResult reports whether ev is a tools/call result with isError true: a tool that
// failed, reported inside a successful JSON-RPC response.
func toolErrorResult(ev *session.Event) bool {
	f := ev.Frame
	if f == nil || f.Kind != protocol.KindResult || !bytes.Contains(f.Result, []byte(`"isError"`)) {
		return false
	}
	if m := ev.Corr.Method; m != "" && m != MethodToolsCall {
		return false
	}
	var r struct {
		IsError bool `json:"isError"`
	}
	return json.Unmarshal(f.Result, &r) == nil && r.IsError
}

// EraNote is what an error row and its detail say about the negotiated era.
type EraNote struct{ Row, Detail string }

// eraRowHint is the short form of an era hint for a timeline row.
func eraRowHint(info session.ServerInfo) string {
	if EraHint(info) == "" {
		return ""
	}
	return string(info.Revision) + " via auto: try --protocol " + string(protocol.LatestStateful)
}

// EraHint says, for a session whose revision was negotiated by protocol "auto" in the
// stateless era, which revision that was and how to force the earlier one: a server that
// fails a request may only fail in that era. "" otherwise.
func EraHint(info session.ServerInfo) string {
	if !info.Auto || !info.Stateless || info.Revision == "" {
		return ""
	}
	return "negotiated " + string(info.Revision) + " by --protocol auto; --protocol " +
		string(protocol.LatestStateful) + " forces the earlier era"
}
