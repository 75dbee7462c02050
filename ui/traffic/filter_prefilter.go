package traffic

import (
	"strings"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
)

// A filter over an opened recording first looks for the query's literal parts in the
// file's bytes (recordings.Prefilter), and decodes only the lines that hold them. Each
// term says what text any line it matches must hold, as the recording's Writer writes it.
// A term that needs the rows around its event (a request's latency comes with its
// response; tool: names the tool of a response's request) is learnt first by a pass of
// its own (filter_relate.go), which then tells the prefilter its lines.

// prefilterTerm is what a term tells the prefilter.
type prefilterTerm struct {
	lit  []byte // lower case; every line the term matches holds it (nil: no such text)
	text bool   // lit may be in a frame's bytes, which a line holds as base64 when they are not UTF-8
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
	return prefilterTerm{lit: literal(w), text: true}
}

// fieldPrefilter is what field:value tells the prefilter (field by its name in Fields).
func fieldPrefilter(field, value string) prefilterTerm {
	lv := strings.ToLower(value)
	member := func(name, v string) prefilterTerm {
		if literal(v) == nil {
			return prefilterTerm{}
		}
		return prefilterTerm{lit: []byte(`"` + name + `":"` + v + `"`)}
	}
	switch field {
	case "method":
		if exact, ok := strings.CutPrefix(lv, "="); ok {
			return member("method", exact)
		}
		return prefilterTerm{lit: literal(lv)}
	case "dir":
		switch lv {
		case "in", "<", "s2c", "server":
			return member("dir", "in")
		case "out", ">", "c2s", "client":
			return member("dir", "out")
		}
	case "kind":
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
		return prefilterTerm{}
	case "has":
		switch lv {
		case "finding", "findings":
			return prefilterTerm{lit: []byte(`"findings":[`)}
		case "tool-error", "tool-errors":
			return prefilterTerm{lit: []byte("iserror"), text: true}
		case "error", "errors":
			return prefilterTerm{}
		}
	case "id":
		return prefilterTerm{lit: literal(value), text: true}
	}
	return prefilterTerm{} // slow:, tool:, has:progress: see filter_relate.go
}

// Prefilter is what the query's literal parts tell a search of a recording: the texts
// every matching line holds (the line terms of relations are added by relate).
func (q Query) Prefilter() (pf recordings.Prefilter) {
	for _, t := range q.terms {
		if !t.neg && t.pre.lit != nil {
			pf.All = append(pf.All, t.pre.lit)
		}
	}
	return pf
}

// Bypass adds to pf what every search decodes whatever the query: a state event can be a
// marker (a new HTTP session), which every query shows, and the state events say where
// each session starts, for its handshake; frames held as base64 (not UTF-8) hide a word.
func (q Query) Bypass(pf *recordings.Prefilter) {
	if len(pf.All) == 0 && len(pf.Terms) == 0 {
		return
	}
	pf.Any = append(pf.Any, []byte(`"kind":"state"`))
	for _, t := range q.terms {
		if !t.neg && t.pre.lit != nil && t.pre.text {
			pf.Any = append(pf.Any, []byte(`"raw_base64":`))
			return
		}
	}
}
