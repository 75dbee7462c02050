package ui

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// tokenOf is the progressToken in a request's params._meta, as JSON.
func tokenOf(e *traffic.Entry) string {
	var p struct {
		Meta struct {
			Token json.RawMessage `json:"progressToken"`
		} `json:"_meta"`
	}
	_ = json.Unmarshal(e.Ev.Frame.Params, &p)
	return string(p.Meta.Token)
}

// TestFreshProgressToken replaces only the progressToken's value, keeping the rest of the
// params and their order; params without one are left as they are.
func TestFreshProgressToken(t *testing.T) {
	in := json.RawMessage(`{"name":"slow","_meta":{"x":1,"progressToken":"slow-1","y":[2]},"arguments":{"seconds":3}}`)
	a, ok := freshProgressToken(in)
	b, _ := freshProgressToken(in)
	if !ok || string(a) == string(b) {
		t.Fatalf("two re-sends got %s and %s", a, b)
	}
	var p struct {
		Meta struct {
			Token string `json:"progressToken"`
		} `json:"_meta"`
	}
	if json.Unmarshal(a, &p) != nil || p.Meta.Token == "" || p.Meta.Token == "slow-1" {
		t.Fatalf("the token was not replaced: %s", a)
	}
	want := strings.Replace(string(in), `"slow-1"`, `"`+p.Meta.Token+`"`, 1)
	if string(a) != want {
		t.Errorf("got %s, want %s", a, want)
	}
	for _, raw := range []string{`{"name":"echo","arguments":{}}`, `{"_meta":{"other":1}}`, ``, `[1]`} {
		if got, ok := freshProgressToken(json.RawMessage(raw)); ok || string(got) != raw {
			t.Errorf("%q became %q", raw, got)
		}
	}
}

// TestResendFreshProgressToken re-sends (r) and edits & re-sends (E) a call whose params
// carry a progressToken while the original is still in flight: each copy gets a token of
// its own, and progress lands on its own row.
func TestResendFreshProgressToken(t *testing.T) {
	r := newRig(t, "2025-11-25", nil)
	r.compose("tools/call", `{"name":"slow","arguments":{"seconds":30,"steps":30},"_meta":{"progressToken":"slow-1"}}`)
	var first *traffic.Entry
	r.until("the slow call in flight", func() bool {
		first = r.frame(`"method":"tools/call"`, `"slow-1"`)
		return first != nil && first.Waiting()
	})
	r.m.timeline.Select(first)
	r.keys("r")
	var again *traffic.Entry
	r.until("the re-sent call with progress of its own", func() bool {
		again = r.frame(`"method":"tools/call"`, `"slow"`)
		return again != nil && again != first && again.Progress != nil
	})
	if tokenOf(again) == tokenOf(first) || !strings.HasPrefix(tokenOf(again), `"`) {
		t.Fatalf("the re-sent call has token %s, the first %s", tokenOf(again), tokenOf(first))
	}
	if again.Progress.Token != strings.Trim(tokenOf(again), `"`) {
		t.Errorf("the re-sent call's row shows progress for token %q", again.Progress.Token)
	}

	r.m.timeline.Select(first)
	r.keys("E")
	if c := dialogOf[*composer](r.m); c == nil || c.form == nil || strings.Contains(string(c.base), `"slow-1"`) {
		t.Fatalf("E keeps the original's progressToken")
	}
	r.keys("ctrl+s")
	var edited *traffic.Entry
	r.until("the edited call with progress of its own", func() bool {
		edited = r.frame(`"method":"tools/call"`, `"slow"`)
		return edited != nil && edited != first && edited != again && edited.Progress != nil
	})
	if tok := tokenOf(edited); tok == tokenOf(first) || tok == tokenOf(again) {
		t.Errorf("the edited call reuses token %s", tok)
	}

	// Anything else opens in the composer, its params showing a new token.
	m := r.m
	m.timeline.Select(first)
	m.explorer.SetLists(map[session.ListKind][]json.RawMessage{session.ListTools: nil}, nil) // no tool schema: the composer, not the form
	r.keys("E")
	if c := dialogOf[*composer](m); c == nil || c.form != nil || strings.Contains(c.params.Value(), `"slow-1"`) || !strings.Contains(c.params.Value(), "progressToken") {
		t.Fatalf("the composer opens with the original's progressToken")
	}
	r.keys("esc")
	for _, e := range []*traffic.Entry{first, again, edited} {
		r.m.timeline.Select(e)
		r.keys("c")
	}
}

// TestComposeRawPlaceholder opens the raw composer with nothing typed: the example frame
// is a placeholder, not text, so what the user types is sent alone.
func TestComposeRawPlaceholder(t *testing.T) {
	r := newRig(t, "2025-11-25", nil)
	r.keys(":")
	c := dialogOf[*composer](r.m)
	if c.method.Value() != "" || c.params.Value() != "" {
		t.Fatalf("method+params mode opens with text: %q %q", c.method.Value(), c.params.Value())
	}
	r.keys("ctrl+t")
	if got := c.rawText.Value(); got != "" {
		t.Fatalf("raw mode opens with text %q", got)
	}
	if !strings.Contains(r.screen(), `"id":"mcpscope-raw-1"`) {
		t.Errorf("the example frame is not shown as a placeholder:\n%s", r.screen())
	}
	mine := `{"jsonrpc":"2.0","id":"mine-1","method":"ping"}`
	r.typeText(mine)
	r.keys("ctrl+s")
	r.until("the typed frame's response", func() bool {
		e := r.frame(`"id":"mine-1"`, `"result"`)
		return e != nil && e.Pair != nil
	})
	if req := r.frame(`"id":"mine-1"`, `"method":"ping"`); req == nil || string(req.Ev.Frame.Raw) != mine {
		t.Fatalf("the raw frame was not sent exactly as typed")
	}
	if r.frame(`"mcpscope-raw-1"`) != nil {
		t.Errorf("the placeholder was sent")
	}

	// Nothing typed: nothing is sent.
	r.keys(":", "ctrl+t", "ctrl+s")
	if c := dialogOf[*composer](r.m); c == nil || c.problem != "nothing to send" {
		t.Errorf("an empty raw composer sent something")
	}
}

// TestElicitNumberAsTyped accepts the demo's form with its non-integer rating: the answer
// carries 7.5 as it is, and nothing says it was rounded.
func TestElicitNumberAsTyped(t *testing.T) {
	r := newRig(t, "2025-11-25", nil)
	r.callTool("ask_user", `{}`)
	r.until("the elicitation dialog", func() bool { return waitingAsks(r.m) == 1 })
	r.keys("enter")
	r.typeText("Ada")
	r.keys("enter", "ctrl+s")
	r.until("the tool's answer", func() bool { return r.frame("Thanks, Ada") != nil })
	if e := r.frame(`"action":"accept"`); e == nil || !strings.Contains(string(e.Ev.Frame.Raw), `"rating":7.5`) {
		t.Fatalf("the answer does not carry rating 7.5 as typed")
	}
	if strings.Contains(r.m.status.Text, "integer") || strings.Contains(r.screen(), "integers") {
		t.Errorf("a note about integers is shown: %q", r.m.status.Text)
	}
	content := elicitContent(json.RawMessage(`{"rating":7.5,"age":30,"n":-0.25}`))
	if string(content["rating"]) != "7.5" || string(content["age"]) != "30" || string(content["n"]) != "-0.25" {
		t.Errorf("content: %s %s %s", content["rating"], content["age"], content["n"])
	}
}

// handshakeTraffic is a session's handshake as the session reports it.
func handshakeTraffic(w *evWire) []*session.Event {
	connecting := w.state(session.StateConnecting, "stdio")
	handshaking := w.state(session.StateHandshaking, "")
	init := w.req(dirOut, 0, "initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"mcpscope","version":"1"}}`)
	return []*session.Event{
		connecting,
		handshaking,
		init,
		w.stderr("demo: starting"),
		w.res(5*time.Millisecond, init, `{"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":true}},"serverInfo":{"name":"demo","version":"1.0.0"}}`),
		w.note(dirOut, "notifications/initialized", `{}`, session.Correlation{}),
		w.state(session.StateReady, "demo 1.0.0, protocol 2025-11-25"),
	}
}

// checkSavedFile checks a filtered save: the handshake first, then the filtered rows, in
// order and each once, and the header starts with the first event.
func checkSavedFile(t *testing.T, path string, hs []*session.Event, rows int) []recordings.Entry {
	t.Helper()
	got := readRecording(t, path)
	if len(got) != len(hs)-1+rows { // stderr is not the handshake's
		t.Errorf("saved %d events, want %d of the handshake and %d rows", len(got), len(hs)-1, rows)
	}
	seen := map[uint64]bool{}
	for i, e := range got {
		if seen[e.Event.Seq] || i > 0 && e.Event.Seq < got[i-1].Event.Seq {
			t.Errorf("event %d (seq %d) is repeated or out of order", i, e.Event.Seq)
		}
		seen[e.Event.Seq] = true
	}
	for _, want := range []*session.Event{hs[0], hs[1], hs[2], hs[4], hs[5], hs[6]} {
		if !seen[want.Seq] {
			t.Errorf("the handshake's event %d (%s) is not saved", want.Seq, rawOf(want))
		}
	}
	r, err := recordings.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if len(got) > 0 && !r.Header().Started.Equal(got[0].Event.Time) {
		t.Errorf("the header says started %s, the first event is at %s", r.Header().Started, got[0].Event.Time)
	}
	return got
}

// TestSaveFilteredKeepsHandshake saves the rows a filter shows: the session's handshake
// is saved with them, so the saved file still knows the server's capabilities; the
// header starts with the first event. Saving again from that file read-only, filtered,
// keeps the handshake too.
func TestSaveFilteredKeepsHandshake(t *testing.T) {
	dir := t.TempDir()
	m := newTimelineModel(t, Options{RecordHeader: recordings.Header{Server: "demo", Transport: "stdio"}}, 100, 30)
	w := newEvWire()
	hs := handshakeTraffic(w)
	feedEvents(m, append(hs, mixedTraffic(w, 60)...)...)

	pressKey(m, "/")
	typeKeys(m, "kind:error")
	pressKey(m, "enter")
	rows := m.timeline.Visible()
	errs := filepath.Join(dir, "errors.jsonl")
	if st := saveAs(t, m, errs); !strings.Contains(st, "saved") {
		t.Fatalf("status after saving the filtered rows: %q", st)
	}
	checkSavedFile(t, errs, hs, rows)

	// A filter that shows handshake rows too: each is saved once.
	pressKey(m, "/")
	for range len("kind:error") {
		pressKey(m, "backspace")
	}
	typeKeys(m, "initialize")
	pressKey(m, "enter")
	shown := m.timeline.Visible()
	if shown == 0 {
		t.Fatalf("the filter shows no handshake rows")
	}
	ini := filepath.Join(dir, "initialize.jsonl")
	if st := saveAs(t, m, ini); !strings.Contains(st, "saved") {
		t.Fatalf("status: %q", st)
	}
	checkSavedFile(t, ini, hs, 0)

	// Opened read-only, the saved file knows what the server offers.
	om := openModel(t, errs, 120, 30)
	if om.info.Capabilities == nil || om.info.Implementation.Name != "demo" {
		t.Fatalf("the saved file's handshake was not read: %+v", om.info)
	}
	pressKey(om, "2")
	scr := plainScreen(om)
	if note := om.explorer.MissingNote(session.ListTools); strings.Contains(scr, "does not offer tools") ||
		!strings.Contains(scr, "the server offers tools") || note != "the server offers tools, but the recording holds no tools/list" {
		t.Errorf("the explorer on the saved file (%q):\n%s", note, scr)
	}
	pressKey(om, "1")

	// Filtered again, read-only: the handshake stays.
	pressKey(om, "/")
	typeKeys(om, "kind:erro")
	runCmdSync(t, om, pressKey(om, "r"))
	pressKey(om, "enter")
	if om.open.total() != rows {
		t.Fatalf("the read-only filter found %d rows, want %d", om.open.total(), rows)
	}
	again := filepath.Join(dir, "again.jsonl")
	if st := saveAs(t, om, again); !strings.Contains(st, "saved") {
		t.Fatalf("status: %q", st)
	}
	checkSavedFile(t, again, hs, rows)
}

// TestOpenNoHandshake opens a recording without a handshake: the explorer says so rather
// than claiming the server lacks the capabilities.
func TestOpenNoHandshake(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rows.jsonl")
	writeRecording(t, path, mixedTraffic(newEvWire(), 20))
	m := openModel(t, path, 120, 30)
	pressKey(m, "2")
	scr := plainScreen(m)
	if strings.Contains(scr, "does not offer") || !strings.Contains(scr, "this recording has no handshake") ||
		!strings.HasPrefix(m.explorer.MissingNote(session.ListTools), "this recording has no handshake") {
		t.Errorf("the explorer on a recording without a handshake:\n%s", scr)
	}
}
