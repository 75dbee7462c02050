package ui

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/protocol"
)

// everyKey is every printable ASCII character and a few that are not ASCII: what a user
// may type into any text input.
func everyKey() string {
	var b strings.Builder
	for c := ' '; c <= '~'; c++ {
		b.WriteRune(c)
	}
	return b.String() + "é日本🙂"
}

// mark is the sequence number of the newest event in the history, for sent.
func (r *rig) mark() uint64 {
	var seq uint64
	for _, e := range r.m.hist.Entries() {
		if e.Ev != nil {
			seq = max(seq, e.Ev.Seq)
		}
	}
	return seq
}

// sent waits for a frame mcpscope sent after the event since whose decoded JSON gives want
// at path (member names, or array indexes as numbers), looked up in the frame's params, or
// in its result when path starts with "result".
func (r *rig) sent(since uint64, what string, want any, path ...any) {
	r.t.Helper()
	wantJSON, _ := json.Marshal(want)
	r.until(what+" on the wire", func() bool {
		for _, e := range r.m.hist.Entries() {
			if e.Ev == nil || e.Ev.Frame == nil || e.Ev.Dir != protocol.ClientToServer || e.Ev.Seq <= since {
				continue
			}
			var v any
			src, p := e.Ev.Frame.Params, path
			if len(p) > 0 && p[0] == "result" {
				src, p = e.Ev.Frame.Result, p[1:]
			}
			if json.Unmarshal(src, &v) != nil {
				continue
			}
			for _, s := range p {
				switch s := s.(type) {
				case string:
					o, _ := v.(map[string]any)
					v = o[s]
				case int:
					if a, _ := v.([]any); s < len(a) {
						v = a[s]
					} else {
						v = nil
					}
				}
			}
			if got, _ := json.Marshal(v); v != nil && string(got) == string(wantJSON) {
				// The bytes too, not only the decoded value: a typed & < > goes out as
				// typed, never as \u0026 \u003c \u003e.
				if s, ok := want.(string); ok {
					enc, _ := protocol.Marshal(s)
					if !strings.Contains(string(e.Ev.Frame.Raw), string(enc)) {
						r.t.Fatalf("%s: the frame carries the value, but not as typed: want %s in\n%s", what, enc, e.Ev.Frame.Raw)
					}
				}
				return true
			}
		}
		return false
	})
}

// TestEveryKeyOnTheWire types every printable ASCII character and a few that are not
// ASCII into each kind of text input the user can type into, against the demo server, and
// checks that the frame sent carries exactly what was typed: a tool form's string field
// (holding a default), its number field, an array item just added (after another one), a
// map member's key and value, the
// form's JSON view, an elicitation form's field, the request composer's method, params and
// raw text. The timeline's and the explorer's filters send nothing: they must hold exactly
// what was typed.
func TestEveryKeyOnTheWire(t *testing.T) {
	typed := everyKey()
	quoted, _ := protocol.Marshal("json:" + typed) // typed as a user would: & < > as they are
	r := newRig(t, "2025-11-25", nil)
	d := r.d
	done := func() {
		t.Helper()
		r.until("the form closed and its call done", func() bool {
			run := selectedCall(r.m)
			return !r.m.explorer.FormOpen() && run != nil && run.Done
		})
	}

	// A tool form's string field that holds a default: the first key replaces it.
	at := r.mark()
	r.keys("2")
	d.selectItem(0, "echo")
	r.keys("enter")
	r.typeText(typed)
	r.keys("ctrl+s")
	r.sent(at, "echo's text", typed, "arguments", "text")
	done()

	// The same form's JSON view: ctrl+a selects the text, typing replaces it.
	at = r.mark()
	r.keys("enter", "ctrl+j", "ctrl+a")
	r.typeText(`{"text":` + string(quoted) + `,"uppercase":true}`)
	r.keys("ctrl+j", "ctrl+s")
	r.sent(at, "echo's text from the JSON view", map[string]any{"text": "json:" + typed, "uppercase": true}, "arguments")
	done()

	// A number field takes every key; the text is not a number, sent after confirming.
	at = r.mark()
	d.selectItem(0, "add")
	r.keys("enter")
	r.typeText(typed)
	r.keys("ctrl+s", "y")
	r.sent(at, "add's a", typed, "arguments", "a")
	done()

	// create_ticket's links: an item added, typed, left; another added and typed.
	at = r.mark()
	d.selectItem(0, "create_ticket")
	r.keys("enter")
	for i := 0; i < 40 && !strings.Contains(r.screen(), "▸ links"); i++ {
		r.keys("down")
	}
	if !strings.Contains(r.screen(), "▸ links") {
		t.Fatalf("no links field in focus:\n%s", r.screen())
	}
	r.keys("ctrl+n")
	r.typeText("src/main.go")
	r.keys("esc", "ctrl+n")
	r.typeText("docs/README.md" + typed)
	r.keys("ctrl+s", "y")
	r.sent(at, "create_ticket's links", []string{"src/main.go", "docs/README.md" + typed}, "arguments", "links")
	done()

	// create_ticket's fields, a map: ctrl+n asks for a member's key, enter goes on to its
	// value; both take every key.
	at = r.mark()
	d.selectItem(0, "create_ticket")
	r.keys("enter")
	for i := 0; i < 40 && !strings.Contains(r.screen(), "▸ fields"); i++ {
		r.keys("down")
	}
	if !strings.Contains(r.screen(), "▸ fields") {
		t.Fatalf("no fields in focus:\n%s", r.screen())
	}
	r.keys("ctrl+n")
	r.typeText("k" + typed)
	r.keys("enter")
	r.typeText("v" + typed)
	r.keys("ctrl+s", "y")
	r.sent(at, "create_ticket's fields", map[string]string{"k" + typed: "v" + typed}, "arguments", "fields")
	done()

	// An elicitation form's field, typed from its first key.
	at = r.mark()
	r.callTool("ask_user", `{"message":"Who are you?"}`)
	r.until("the elicitation dialog", func() bool {
		return strings.Contains(r.screen(), "The server asks you to fill in a form")
	})
	r.typeText("mary" + typed)
	r.keys("ctrl+s", "y") // longer than the schema's 50 characters: sent after confirming
	r.sent(at, "the elicitation's name", "mary"+typed, "result", "content", "name")

	// The composer: the method, then the params typed as JSON.
	at = r.mark()
	r.keys(":")
	r.typeText("x" + typed)
	r.keys("tab")
	r.typeText(`{"q":` + string(quoted) + `}`)
	r.keys("ctrl+s", "ctrl+s") // an odd method is sent on the second ctrl+s
	r.sent(at, "the composed params", "json:"+typed, "q")
	if e := r.frame(`"q":`, `"x `); e == nil || e.Ev.Frame.Method != "x"+typed {
		t.Fatalf("the composed method is not what was typed: %v", e)
	}

	// The composer's raw text.
	at = r.mark()
	r.keys(":", "ctrl+t")
	r.typeText(`{"jsonrpc":"2.0","id":"raw-typed","method":"ping","params":{"q":` + string(quoted) + `}}`)
	r.keys("ctrl+s")
	r.sent(at, "the raw text", "json:"+typed, "q")

	// The timeline's filter and the explorer's filter hold what was typed.
	r.keys("1", "/")
	r.typeText(typed)
	if got := r.m.filter.Value(); got != typed {
		t.Errorf("the timeline filter holds %q, want %q", got, typed)
	}
	r.keys("esc", "2", "/")
	r.typeText(typed)
	if got := r.m.explorer.FilterText(); got != typed {
		t.Errorf("the explorer filter holds %q, want %q", got, typed)
	}
}
