package ui

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/secret"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
)

// argsSummaryBytes bounds the argument summary on a tools/call row; a value is cut past
// argValueBytes.
const (
	argsSummaryBytes = 60
	argValueBytes    = 24
)

// entryMethod is the method of a frame row: its own, or its request's for a response.
func entryMethod(e *Entry) string {
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

// targetRequest is the request frame whose target a row names: the row itself for a
// request, its request for a response; nil when the method has no target.
func targetRequest(e *Entry) *protocol.Frame {
	if !rendersResult(entryMethod(e)) {
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

// targetText is what a tools/call, prompts/get or resources/read row acts on: the tool or
// prompt name or the uri, and on a request row without progress a short summary of the
// arguments ("name a=1 b=\"x\""); "" when unknown.
func targetText(e *Entry) string {
	rf := targetRequest(e)
	if rf == nil {
		return ""
	}
	t := requestTarget(rf.Method, rf.Params)
	if rf.Method == methodResourcesRead {
		t = secret.URL(t) // a uri's password and secret query parameters
	}
	t = cleanText(noMask.String(t))
	if t == "" || e.Ev.Frame != rf || e.Progress != nil {
		return t // a request with progress shows its bar instead; the arguments are in the detail
	}
	if args := argsSummary(rf.Params); args != "" {
		t += " " + args
	}
	return t
}

// noMask masks secret shapes only (the screen's own pass masks the values the command line
// named); text is masked before it is cut, as a cut secret no longer has its shape.
var noMask *secret.Masker

// argsSummary is "k=v k=v" of a request's arguments, sorted by name, values as compact
// JSON masked (all of it under a secret-sounding name, else secret shapes) and cut to a few
// bytes, the whole cut to argsSummaryBytes.
func argsSummary(params json.RawMessage) string {
	var p struct {
		Arguments map[string]json.RawMessage `json:"arguments"`
	}
	if json.Unmarshal(params, &p) != nil || len(p.Arguments) == 0 {
		return ""
	}
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(p.Arguments)) {
		var c bytes.Buffer
		v := p.Arguments[k]
		if json.Compact(&c, v) == nil {
			v = c.Bytes()
		}
		if secret.IsSecretName(k) {
			v = []byte(secret.Mask)
		}
		v = []byte(noMask.String(string(v)))
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(k + "=" + argValue(v))
		if b.Len() >= argsSummaryBytes {
			break
		}
	}
	return cleanText(b.String())
}

// argValue is a value of the argument summary: whole when short; a longer one only by its
// kind and size, never cut, since the head of a cut secret would escape the screen's mask
// (which matches whole values).
func argValue(v []byte) string {
	if len(v) <= argValueBytes {
		return string(v)
	}
	size := textfmt.Bytes(int64(len(v)))
	switch v[0] {
	case '"':
		return "\"…\"(" + size + ")"
	case '{':
		return "{…}(" + size + ")"
	case '[':
		return "[…](" + size + ")"
	}
	return "…(" + size + ")"
}

// toolErrorResult reports whether ev is a tools/call result with isError true: a tool that
// failed, reported inside a successful JSON-RPC response.
func toolErrorResult(ev *session.Event) bool {
	f := ev.Frame
	if f == nil || f.Kind != protocol.KindResult || !bytes.Contains(f.Result, []byte(`"isError"`)) {
		return false
	}
	if m := ev.Corr.Method; m != "" && m != methodToolsCall {
		return false
	}
	var r struct {
		IsError bool `json:"isError"`
	}
	return json.Unmarshal(f.Result, &r) == nil && r.IsError
}

// toolErrorText is the first text content of a tool error, one line.
func toolErrorText(f *protocol.Frame) string {
	var r struct {
		Content []struct {
			Type, Text string
		} `json:"content"`
	}
	_ = json.Unmarshal(f.Result, &r)
	for _, c := range r.Content {
		if c.Type == "text" && c.Text != "" {
			return cleanText(c.Text)
		}
	}
	return ""
}

// eraNote is what an error row and its detail say about the negotiated era.
type eraNote struct{ row, detail string }

// eraRowHint is the short form of an era hint for a timeline row.
func eraRowHint(info session.ServerInfo) string {
	if eraHint(info) == "" {
		return ""
	}
	return string(info.Revision) + " via auto: try --protocol " + string(protocol.LatestStateful)
}

// eraHint says, for a session whose revision was negotiated by protocol "auto" in the
// stateless era, which revision that was and how to force the earlier one: a server that
// fails a request may only fail in that era. "" otherwise.
func eraHint(info session.ServerInfo) string {
	if !info.Auto || !info.Stateless || info.Revision == "" {
		return ""
	}
	return "negotiated " + string(info.Revision) + " by --protocol auto; --protocol " +
		string(protocol.LatestStateful) + " forces the earlier era"
}
