package ui

import (
	"strings"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
)

// A filter over an opened recording first looks for the query's literal parts in the
// file's bytes (recordings.Prefilter), and decodes only the lines that hold them. Each
// term says what text any line it matches must hold, as the recording's Writer writes it,
// and whether it can be decided from its event alone: a term that needs the rows around it
// (a request's latency comes with its response; tool: names the tool of a response's
// request) is judged by the sequential scan, which builds the history as it goes.

// prefilterTerm is what a term tells the prefilter.
type prefilterTerm struct {
	lit   []byte // lower case; every line the term matches holds it (nil: no such text)
	text  bool   // lit may be in a frame's bytes, which a line holds as base64 when they are not UTF-8
	local bool   // decided by the event alone
}

// literal is s as a prefilter string: lower case, and only when the Writer writes it as
// it is inside a JSON string (printable ASCII, no quote or backslash). The file's bytes
// are lowered as ASCII: a method that only Unicode case folding makes equal to the query
// (a Kelvin sign for a k) is not found by method:.
func literal(s string) []byte {
	if s == "" {
		return nil
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return nil
		}
	}
	return []byte(strings.ToLower(s))
}

// wordPrefilter: a word is looked for in the method, the frame's bytes and the text of
// the other events, all of which a line holds as JSON strings.
func wordPrefilter(w string) prefilterTerm {
	return prefilterTerm{lit: literal(w), text: true, local: true}
}

// fieldPrefilter is what field:value tells the prefilter (field in lower case).
func fieldPrefilter(field, value string) prefilterTerm {
	lv := strings.ToLower(value)
	member := func(name, v string) prefilterTerm {
		if literal(v) == nil {
			return prefilterTerm{local: true}
		}
		return prefilterTerm{lit: []byte(`"` + name + `":"` + v + `"`), local: true}
	}
	switch field {
	case "method", "m":
		if exact, ok := strings.CutPrefix(lv, "="); ok {
			return member("method", exact)
		}
		return prefilterTerm{lit: literal(lv), local: true}
	case "dir", "d":
		switch lv {
		case "in", "<", "s2c", "server":
			return member("dir", "in")
		case "out", ">", "c2s", "client":
			return member("dir", "out")
		}
	case "kind", "k":
		switch lv {
		case "request", "req":
			return member("frame", "request")
		case "notification", "note", "notif":
			return member("frame", "notification")
		case "result", "batch", "invalid":
			return member("frame", lv)
		case "bad":
			return member("frame", "invalid")
		case "stderr", "http", "transport", "state", "exit", "frame", "gap":
			k := lv
			if k == "transport" {
				k = session.EvTransport.String()
			}
			return member("kind", k)
		case "net":
			return member("kind", session.EvTransport.String())
		}
		return prefilterTerm{local: true}
	case "has":
		switch lv {
		case "finding", "findings":
			return prefilterTerm{lit: []byte(`"findings":[`), local: true}
		case "tool-error", "tool-errors":
			return prefilterTerm{lit: []byte("iserror"), text: true, local: true}
		case "error", "errors":
			return prefilterTerm{local: true}
		}
	case "id":
		return prefilterTerm{lit: literal(value), text: true, local: true}
	}
	return prefilterTerm{} // slow:, tool:, has:progress need the rows around an event
}

// prefilter is what the query tells a search of a recording: the texts every matching
// line holds; ok is false when a term needs the rows around its event (the sequential
// scan judges those).
func (q Query) prefilter() (pf recordings.Prefilter, ok bool) {
	text := false
	for _, t := range q.terms {
		if !t.pre.local {
			return recordings.Prefilter{}, false
		}
		if !t.neg && t.pre.lit != nil {
			pf.All = append(pf.All, t.pre.lit)
			text = text || t.pre.text
		}
	}
	if len(pf.All) > 0 {
		// A state event can be a marker (a new HTTP session), which every query shows;
		// the state events also say where each session starts, for its handshake.
		pf.Any = append(pf.Any, []byte(`"kind":"state"`))
		if text {
			pf.Any = append(pf.Any, []byte(`"raw_base64":`))
		}
	}
	return pf, true
}
