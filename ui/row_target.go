package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session/secret"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// argsSummaryBytes bounds the argument summary on a tools/call row; a value is cut past
// argValueBytes.
const (
	argsSummaryBytes = 60
	argValueBytes    = 24
)

// targetText is what a tools/call, prompts/get or resources/read row acts on: the tool or
// prompt name or the uri, and on a request row without progress a short summary of the
// arguments ("name a=1 b=\"x\""), masked by mask (nil: secret shapes only); "" when unknown.
func targetText(e *traffic.Entry, mask *secret.Masker) string {
	rf := traffic.TargetRequest(e)
	if rf == nil {
		return ""
	}
	params, ok := deliveredParams(e, rf)
	if !ok {
		return "" // edited past what the note keeps: the original's target is not what was delivered
	}
	t := traffic.RequestTarget(rf.Method, params)
	if rf.Method == traffic.MethodResourcesRead {
		t = secret.URL(t) // a uri's password and secret query parameters
	}
	t = cleanText(noMask.String(t))
	if t == "" || e.Ev.Frame != rf || e.Progress != nil {
		return t // a request with progress shows its bar instead; the arguments are in the detail
	}
	if args := argsSummary(params, mask); args != "" {
		t += " " + args
	}
	return t
}

// deliveredParams are the params of request rf as the server got them: those of the bytes
// delivered in its place when it was edited at a breakpoint (the row of the request, or
// of its response, then summarises what the server answered), else its own. ok is false
// for an edit the note kept only the head of (4 KiB): what was delivered is then unknown.
func deliveredParams(e *traffic.Entry, rf *protocol.Frame) (params json.RawMessage, ok bool) {
	req := e
	if e.Ev.Frame != rf {
		req = e.Pair
	}
	if req == nil || !editedRequest(req) {
		return rf.Params, true
	}
	var m struct {
		Params json.RawMessage `json:"params"`
	}
	if json.Unmarshal([]byte(req.Delivered), &m) != nil {
		return nil, false
	}
	return m.Params, true
}

// editedRequest reports whether e is a message mcpscope sent that was held at a
// breakpoint and edited: its frame is the bytes as they came, Delivered what the server
// got instead.
func editedRequest(e *traffic.Entry) bool {
	return e.Delivered != "" && e.Ev != nil && e.Ev.Dir == protocol.ClientToServer
}

// noMask masks secret shapes only (the screen's own pass masks the values the command line
// named); text is masked before it is cut, as a cut secret no longer has its shape.
var noMask *secret.Masker

// argsSummary is "k=v k=v" of a request's arguments, sorted by name, values as compact
// JSON masked (all of it under a secret-sounding name, else by mask: the values the command
// line named and secret shapes; nil: shapes only) and then cut to a prefix of a few bytes,
// the whole cut to argsSummaryBytes.
func argsSummary(params json.RawMessage, mask *secret.Masker) string {
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
		if mask == nil {
			mask = noMask
		}
		v = []byte(mask.String(string(v)))
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

// argValue is a value of the argument summary, already masked (a secret is masked whole
// before it is cut, so no head of one shows): whole when short, else its first bytes and
// "…" (url="http://127.0.0.1:8…).
func argValue(v []byte) string {
	if len(v) <= argValueBytes {
		return string(v)
	}
	cut := argValueBytes - 1
	for cut > 0 && !utf8.RuneStart(v[cut]) {
		cut--
	}
	return string(v[:cut]) + "…"
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

// clipNote says that an entry's frame is held cut, and how much of it is held.
func clipNote(e *traffic.Entry) string {
	return fmt.Sprintf("✂ truncated in memory: first %s of %s", textfmt.Bytes(int64(len(e.Ev.Frame.Raw))), textfmt.Bytes(e.Clipped))
}
