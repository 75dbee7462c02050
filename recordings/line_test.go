package recordings

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/transport"
)

// referenceLine is how an event line was encoded before appendEventLine: a json.Encoder
// with HTML escaping off, newline included.
func referenceLine(l *line) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(l); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// checkLine encodes l both ways and fails unless both refuse it or both give the same bytes.
func checkLine(t testing.TB, name string, l *line) {
	t.Helper()
	want, werr := referenceLine(l)
	got, gerr := appendEventLine([]byte("prefix"), l)
	switch {
	case werr != nil && gerr != nil:
		if string(got) != "prefix" {
			t.Errorf("%s: a refused line left %q in the buffer", name, got)
		}
		return
	case werr != nil:
		t.Errorf("%s: encoding/json refuses the line (%v), appendEventLine wrote %q", name, werr, got)
		return
	case gerr != nil:
		t.Errorf("%s: appendEventLine refuses the line (%v), encoding/json wrote %q", name, gerr, want)
		return
	}
	if !bytes.Equal(got[len("prefix"):], want) {
		t.Errorf("%s: bytes differ\n got %q\nwant %q", name, got[len("prefix"):], want)
	}
}

// frameEvent is an event carrying raw decoded as a frame.
func frameEvent(seq uint64, dir protocol.Direction, raw string) *session.Event {
	return &session.Event{Seq: seq, Kind: session.EvFrame, Dir: dir, Frame: protocol.Decode([]byte(raw)),
		Recv: transport.RecvInfo{Via: "stdout", Size: int64(len(raw))}}
}

// sampleEvents are events of every kind and shape a recording holds.
func sampleEvents() []*session.Event {
	t0 := time.Date(2025, 11, 25, 9, 30, 0, 123456789, time.FixedZone("CET", 3600))
	var evs []*session.Event
	add := func(e *session.Event) {
		if e.Time.IsZero() {
			e.Time = t0.Add(time.Duration(len(evs)) * 1500 * time.Microsecond)
		}
		evs = append(evs, e)
	}
	out, in := protocol.ClientToServer, protocol.ServerToClient
	frames := []struct {
		dir protocol.Direction
		raw string
	}{
		{out, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"mcpscope","version":"1"}}}`},
		{in, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"demo","version":"1"}}}`},
		{out, `{"jsonrpc":"2.0","method":"notifications/initialized"}`},
		{out, `{"jsonrpc":"2.0","id":"req-<7>&\"x\"","method":"tools/call","params":{"name":"echo","arguments":{"text":"<b>bold</b> & \u2028 \u2029 é ✓ 😀"}}}`},
		{in, `{"jsonrpc":"2.0","id":"req-<7>&\"x\"","result":{"content":[{"type":"text","text":"line\nbreak\ttab \u0001 <script>"}]}}`},
		{in, `{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"Method not found: <x>"}}`},
		{in, `{"jsonrpc":"2.0","id":3,"error":{"code":-32602}}`},
		{out, `[{"jsonrpc":"2.0","id":4,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}},{"id":5}]`},
		{in, `[{"jsonrpc":"2.0","id":4,"result":{}},{"jsonrpc":"1.0","id":5,"result":{}}]`},
		{in, `[]`},
		{in, `{"id":6,"result":{}}`},
		{in, `{"jsonrpc":"2.0","id": 7 ,"result" : { "a" : [ 1 , 2 ] } }`},
		{in, `{"jsonrpc":"2.0","id":{"not":"valid id"},"result":{}}`},
		{in, `{"jsonrpc":"2.0","id":1.5e3,"result":{}}`},
		{in, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`},
		{in, "{\"jsonrpc\":\"2.0\",\"id\":8,\"result\":{\"text\":\"\xff\xfe invalid \xc3\x28 utf-8\"}}"},
		{in, "\xed\xa0\x80 not json at all \x00\x1f\x7f"},
		{in, `not json <>&`},
		{in, ``},
		{in, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"tok-1","progress":0.5,"total":1,"message":"half <done> & more"}}`},
		{in, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"Bearer abcdef.ghijkl token=hunter22 sk-abcdefghijklmnopqrstuv"}}`},
		{out, `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"login","arguments":{"url":"https://user:pa55word@example.com/x?api_key=a-secret-value"}}}`},
		{out, `{"jsonrpc":"2.0","id":10,"method":"server/discover"}`},
	}
	for _, f := range frames {
		add(frameEvent(uint64(len(evs)+1), f.dir, f.raw))
	}
	// Correlation: responses with latencies of every magnitude, chains, probes, progress.
	latencies := []time.Duration{0, time.Microsecond, 999 * time.Microsecond, time.Millisecond,
		1234567 * time.Microsecond, 3 * time.Hour, -5 * time.Microsecond, time.Duration(math.MaxInt64)}
	for i, lat := range latencies {
		e := frameEvent(uint64(len(evs)+1), in, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{}}`, 100+i))
		e.Corr = session.Correlation{Method: "tools/call", RequestSeq: uint64(i + 1), Latency: lat, ChainSeq: uint64(i % 3), Probe: i%2 == 1}
		e.Recv = transport.RecvInfo{Via: "sse", Exchange: uint64(i), SSEID: fmt.Sprintf("ev-%d<&>", i), SSEEvent: []string{"", "message", "custom\u2028"}[i%3], Size: int64(40 * i)}
		add(e)
	}
	for _, p := range []session.Progress{
		{Token: "tok-1", Progress: 0.5, Total: 1, Message: "half"},
		{Token: "", Progress: 0, Total: 0},
		{Token: "42", Progress: 1e21, Total: 1e-7, Message: "\u2029<>&\x01"},
		{Token: "t", Progress: 123456789.123, Total: -0.000001, Message: "Bearer xyzxyzxyz"},
	} {
		e := frameEvent(uint64(len(evs)+1), in, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"tok-1","progress":1}}`)
		pc := p
		e.Corr = session.Correlation{RequestSeq: 3, Progress: &pc}
		add(e)
	}
	// Findings on the frame and on batch members.
	fe := frameEvent(uint64(len(evs)+1), in, `[{"jsonrpc":"2.0","id":1,"result":{}},{"id":2}]`)
	fe.Frame.Findings = append(fe.Frame.Findings, protocol.Finding{Code: "late-response", Message: "response to <unknown> id & \"2\"", Severity: protocol.SevError})
	if len(fe.Frame.Batch) > 1 {
		fe.Frame.Batch[1].Findings = append(fe.Frame.Batch[1].Findings, protocol.Finding{Code: "x", Message: "member \u2028 token=abcdefgh", Severity: protocol.SevInfo})
	}
	add(fe)
	// A truncated frame: size larger than the bytes kept.
	te := frameEvent(uint64(len(evs)+1), in, `{"jsonrpc":"2.0","id":11,"result":{"text":"aaaa`)
	te.Recv.Size, te.Recv.Truncated = 1<<40, true
	add(te)
	// Stderr, transport notes, errors, lists.
	for _, s := range []string{"plain line", "", "<html> & \"quotes\" \\ back", "ctl \x00\x01\x07\x08\x0b\x0c\x0e\x1b[31mred\x1b[0m\x7f",
		"tab\tcr\rlf\n", "\u2028\u2029 \ufffd \U0010ffff", "bad \xff\xc0\x80 \xed\xbf\xbf \xf4\x90\x80\x80 utf8", "password=hunter2222 ghp_abcdefghijklmnopqrstuvwxyz",
		strings.Repeat("long ", 500)} {
		add(&session.Event{Seq: uint64(len(evs) + 1), Kind: session.EvStderr, Text: s})
	}
	add(&session.Event{Seq: uint64(len(evs) + 1), Kind: session.EvTransport, Note: "spawn", Text: "demo --token a-secret-value"})
	add(&session.Event{Seq: uint64(len(evs) + 1), Kind: session.EvError, Text: "timeout <after 30s>", Corr: session.Correlation{RequestSeq: 9, Probe: true}})
	add(&session.Event{Seq: uint64(len(evs) + 1), Kind: session.EvLists, Note: "tools"})
	for s := session.StateIdle; s <= session.StateClosed+1; s++ {
		add(&session.Event{Seq: uint64(len(evs) + 1), Kind: session.EvState, State: s, Text: "step"})
	}
	add(&session.Event{Seq: uint64(len(evs) + 1), Kind: session.EventKind(200)})
	// HTTP exchanges.
	many := http.Header{}
	for i := 0; i < 40; i++ {
		many.Add(fmt.Sprintf("X-H-%02d", 39-i), fmt.Sprint(i))
	}
	for i, h := range []*transport.HTTPExchange{
		{ID: 1, Purpose: "post", Method: "POST", URL: "http://127.0.0.1:8080/mcp?a=1&b=<2>",
			ReqHeaders:  http.Header{"Content-Type": {"application/json"}, "Accept": {"application/json", "text/event-stream"}, "Authorization": {"Bearer abcdefghijkl"}, "Mcp-Session-Id": {"s-1"}},
			Status:      200,
			RespHeaders: http.Header{"Content-Type": {"text/event-stream"}, "Set-Cookie": {"a=b; Path=/", "session=a-secret-value"}, "X-Empty": {}, "X-Nil": nil, "x-lower": {"\u2028<>"}, "Ünïcode\xff": {"v"}},
			Duration:    1500 * time.Microsecond},
		{ID: 2, Purpose: "listen", Method: "GET", URL: "https://user:pa55word@example.com/sse", Err: "dial tcp: connection refused <x>", Duration: 0},
		{ID: 3, Purpose: "probe", Method: "DELETE", URL: "", ReqHeaders: http.Header{}, RespHeaders: many, Status: 404, Duration: 7 * time.Nanosecond},
		{ID: math.MaxUint64, Purpose: "", Method: "", Status: -1, Duration: 48 * time.Hour},
		{ID: 5, Purpose: "post", Method: "POST", URL: "http://a/mcp", Status: 307, Hop: 2, Redirect: &transport.Redirect{Location: "http://b/<mcp>",
			CrossOrigin: true, Followed: true, Withheld: []string{"Authorization", "X-\"q\""}}},
		{ID: 6, Purpose: "listen", Method: "GET", Status: 302, Redirect: &transport.Redirect{Forwarded: []string{"Cookie"}}},
		{ID: 7, Purpose: "post", Method: "POST", Status: 302, Redirect: &transport.Redirect{NotFollowed: "no Location"}},
		{ID: 8, Purpose: "post", Method: "POST", Status: 301, Redirect: &transport.Redirect{}},
	} {
		add(&session.Event{Seq: uint64(len(evs) + 1), Kind: session.EvHTTP, HTTP: h, Text: fmt.Sprint(i)})
	}
	// Exits.
	for _, x := range []*transport.ExitInfo{
		{Code: 0},
		{Code: -1, Signal: "killed", Err: "signal: killed", LastStderr: []string{"panic: <boom>", "", "\x1b[1mbold\x1b[0m", "bad \xff"}, ByUs: true},
		{Code: 2, LastStderr: []string{}},
		{Code: 1, Err: "exit status 1 token=abcdefghi"},
	} {
		add(&session.Event{Seq: uint64(len(evs) + 1), Kind: session.EvExit, Exit: x})
	}
	// Times: zero, UTC, negative offsets, no sub-second part, trailing zeros, a monotonic reading.
	for _, tm := range []time.Time{{}, time.Date(1999, 12, 31, 23, 59, 59, 0, time.UTC),
		time.Date(2024, 2, 29, 0, 0, 0, 100, time.FixedZone("", -(9*3600+30*60))), time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.FixedZone("", 14*3600)),
		time.Date(2025, 1, 1, 0, 0, 0, 120000000, time.Local), time.Now()} {
		add(&session.Event{Seq: uint64(len(evs) + 1), Time: tm, Kind: session.EvStderr, Text: "time"})
	}
	return evs
}

// eventLines are the lines of evs as a Writer with the given options builds them.
func eventLines(evs []*session.Event, o Options) []line {
	red := newRedactor(o.Secrets, o.NoRedact)
	var out []line
	for i, e := range evs {
		l := line{EventJSON: e.JSON(), MonoNS: int64(e.Time.Sub(evs[0].Time)), Gen: i % 3, Exchange: e.Recv.Exchange, SSEEvent: e.Recv.SSEEvent}
		red.event(&l.EventJSON)
		out = append(out, l)
	}
	return out
}

// TestEventLineBytes encodes many events both ways, masked and not, and compares the bytes.
func TestEventLineBytes(t *testing.T) {
	evs := sampleEvents()
	for _, o := range []Options{{NoRedact: true}, {Secrets: []string{"a-secret-value", "pa55word", "<quoted \"secret\">"}}} {
		for i, l := range eventLines(evs, o) {
			checkLine(t, fmt.Sprintf("event %d (redact %v)", i, !o.NoRedact), &l)
		}
	}
}

// TestEventLineValues covers values encoding/json refuses or treats specially, set on a line
// directly.
func TestEventLineValues(t *testing.T) {
	base := func() line {
		raw := `{"a":1}`
		return line{EventJSON: session.EventJSON{Seq: 1, Time: time.Unix(0, 0).UTC(), Kind: "frame", Raw: &raw}}
	}
	empty := ""
	cases := map[string]func(*line){
		"empty raw":      func(l *line) { l.Raw = &empty },
		"nan latency":    func(l *line) { l.LatencyMS = math.NaN() },
		"inf latency":    func(l *line) { l.LatencyMS = math.Inf(-1) },
		"negative zero":  func(l *line) { l.LatencyMS = math.Copysign(0, -1) },
		"tiny latency":   func(l *line) { l.LatencyMS = 5e-324 },
		"huge latency":   func(l *line) { l.LatencyMS = math.MaxFloat64 },
		"e-7":            func(l *line) { l.LatencyMS = 1.5e-7 },
		"e+21":           func(l *line) { l.LatencyMS = -1e21 },
		"below e21":      func(l *line) { l.LatencyMS = 999999999999999900000 },
		"nan progress":   func(l *line) { l.Progress = &session.Progress{Progress: math.NaN()} },
		"inf total":      func(l *line) { l.Progress = &session.Progress{Total: math.Inf(1)} },
		"nan duration":   func(l *line) { l.HTTP = &session.HTTPJSON{DurationMS: math.NaN()} },
		"year 10000":     func(l *line) { l.Time = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC) },
		"year -1":        func(l *line) { l.Time = time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC) },
		"zone 24h":       func(l *line) { l.Time = time.Date(2020, 1, 1, 0, 0, 0, 0, time.FixedZone("", 24*3600)) },
		"zone seconds":   func(l *line) { l.Time = time.Date(2020, 1, 1, 0, 0, 0, 0, time.FixedZone("", 3600+30*60+17)) },
		"invalid id":     func(l *line) { l.ID = json.RawMessage(`{"a":`) },
		"id with spaces": func(l *line) { l.ID = json.RawMessage(" [ 1 ,\t\"a b\\\" c\" ,\n{ \"k\" : null } ]\r\n") },
		"id with html":   func(l *line) { l.ID = json.RawMessage(`"<a>&\u2028` + "\u2028\u2029\xff" + `"`) },
		"empty id":       func(l *line) { l.ID = json.RawMessage{} },
		"max ints": func(l *line) {
			l.Seq, l.Size, l.Request, l.Chain, l.MonoNS, l.Gen, l.Exchange = math.MaxUint64, math.MinInt64, math.MaxUint64, 1, math.MinInt64, math.MinInt, math.MaxUint64
		},
		"empty findings":    func(l *line) { l.Findings = []session.FindingJSON{} },
		"finding member":    func(l *line) { l.Findings = []session.FindingJSON{{Member: -3}, {Code: "c", Member: 1}} },
		"empty exit":        func(l *line) { l.Exit = &session.ExitJSON{LastStderr: []string{}} },
		"empty http":        func(l *line) { l.HTTP = &session.HTTPJSON{ReqHeaders: http.Header{}} },
		"header nil values": func(l *line) { l.HTTP = &session.HTTPJSON{ReqHeaders: http.Header{"b": nil, "a": {}, "": {""}}} },
		"base64":            func(l *line) { l.Raw, l.RawBase64 = nil, "//79/A==" },
		"all strings": func(l *line) {
			l.Dir, l.FrameKind, l.Method, l.Via, l.SSEID, l.Text, l.Note, l.State, l.SSEEvent = "a", "b", "c", "d", "e", "f", "g", "h", "i"
		},
		"probe without more": func(l *line) { l.Probe = true },
		"gap": func(l *line) {
			l.Kind, l.Raw, l.Gap = "gap", nil, &session.Gap{FirstSeq: 1, LastSeq: math.MaxUint64, Events: 3, Bytes: math.MinInt64}
		},
		"empty gap": func(l *line) { l.Gap = &session.Gap{} },
		"exchange bodies": func(l *line) {
			l.HTTP = &session.HTTPJSON{Purpose: "card", Step: "<endpoint>/server-card", ReqBody: "a=<b>", RespBody: `{"name":"x/y"}`, Checks: []string{"c", "d"}}
		},
	}
	for name, set := range cases {
		l := base()
		set(&l)
		checkLine(t, name, &l)
	}
}

// TestWriterLines writes events with a Writer and compares the file with the reference
// encoding, and checks that a line only encoding/json can judge still fails as it did.
func TestWriterLines(t *testing.T) {
	evs := sampleEvents()
	o := Options{Secrets: []string{"a-secret-value"}}
	path := filepath.Join(t.TempDir(), "w.jsonl")
	w, err := Create(path, Header{Server: "demo"}, o)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range evs {
		if err := w.WriteGen(e, i%3); err != nil {
			t.Fatal(err)
		}
	}
	bad := &session.Event{Seq: 999, Time: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), Kind: session.EvStderr}
	err = w.Write(bad)
	l := line{EventJSON: bad.JSON(), MonoNS: int64(bad.Time.Sub(evs[0].Time))}
	_, want := referenceLine(&l)
	if err == nil || want == nil || err.Error() != fmt.Sprintf("encode event 999: %v", want) {
		t.Errorf("writing a time past year 9999: %v, want encode event 999: %v", err, want)
	}
	if err := w.Close(); err != nil && !strings.Contains(err.Error(), "year outside") {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	sc.Scan() // header
	for i, l := range eventLines(evs, o) {
		want, err := referenceLine(&l)
		if err != nil {
			t.Fatal(err)
		}
		if !sc.Scan() {
			t.Fatalf("the file ends before event %d", i)
		}
		if got := append(sc.Bytes(), '\n'); !bytes.Equal(got, want) {
			t.Errorf("event %d:\n got %q\nwant %q", i, got, want)
		}
	}
	if sc.Scan() {
		t.Errorf("an extra line: %q", sc.Text())
	}
}

// FuzzEventLine builds events from arbitrary strings and numbers and checks that
// appendEventLine never panics and writes what encoding/json writes.
func FuzzEventLine(f *testing.F) {
	f.Add(`{"jsonrpc":"2.0","id":1,"result":{}}`, "stderr <line> & \u2028", "Content-Type", "text/plain", []byte(`1`), uint64(7), int64(1500), int64(1700000000123456789), 3600, 2, 0.5)
	f.Add("\xff\xfe bad", "\x00\x1f\x7f", "", "", []byte(` "a" `), uint64(0), int64(-1), int64(-62135596800000000), -45000, 0, math.Inf(1))
	f.Add(`[{"id":1},{"jsonrpc":"2.0","method":"m"}]`, "Bearer abcdefghijk token=zzzzzzzz", "\u2029", "\xc3", []byte(`{`), uint64(math.MaxUint64), int64(math.MaxInt64), int64(math.MinInt64), 86400, -1, 1e-7)
	f.Fuzz(func(t *testing.T, raw, text, hname, hval string, id []byte, seq uint64, latencyUS, unixNS int64, zone, n int, fl float64) {
		tm := time.Unix(0, unixNS).In(time.FixedZone(text, zone))
		e := &session.Event{Seq: seq, Time: tm, Kind: session.EventKind(n & 15), Dir: protocol.Direction(n & 3), Frame: protocol.Decode([]byte(raw)),
			Recv: transport.RecvInfo{Via: text, Exchange: seq >> 3, SSEID: hval, SSEEvent: hname, Size: latencyUS},
			Corr: session.Correlation{Method: hname, RequestSeq: seq >> 1, Latency: time.Duration(latencyUS) * time.Microsecond, ChainSeq: seq & 7,
				Progress: &session.Progress{Token: hval, Progress: fl, Total: float64(latencyUS) / 3, Message: text}, Probe: n&1 == 1},
			Text: text, Note: raw, State: session.State(n & 7),
			HTTP: &transport.HTTPExchange{ID: seq, Purpose: text, Method: hname, URL: raw, Status: n, Duration: time.Duration(latencyUS),
				ReqHeaders: http.Header{hname: {hval, text}, "A": nil}, RespHeaders: http.Header{hval: {}, text: {raw}}, Err: hval},
			Exit: &transport.ExitInfo{Code: n, Signal: hname, Err: hval, LastStderr: []string{text, raw}, ByUs: n&2 == 2},
			Gap:  &session.Gap{FirstSeq: seq, LastSeq: seq >> 2, Events: uint64(latencyUS), Bytes: unixNS}}
		e.Frame.Findings = append(e.Frame.Findings, protocol.Finding{Code: hname, Message: text, Severity: protocol.Severity(n & 3)})
		for _, red := range []*redactor{newRedactor(nil, true), newRedactor([]string{text, hval}, false)} {
			l := line{EventJSON: e.JSON(), MonoNS: unixNS, Gen: n, Exchange: seq, SSEEvent: hval}
			red.event(&l.EventJSON)
			checkLine(t, "event", &l)
			l.ID, l.LatencyMS = id, fl
			checkLine(t, "event with id and latency", &l)
		}
	})
}

// TestGapLineRoundTrip: a gap event survives its line (trace, recording, tap) exactly, and
// a "gap" line without its counts is an error, not a silent zero.
func TestGapLineRoundTrip(t *testing.T) {
	g := session.Gap{FirstSeq: 1200, LastSeq: 1611, Events: 412, Bytes: 103 << 20}
	e := &session.Event{Kind: session.EvGap, Time: time.Unix(5, 0).UTC(), Gap: &g, Text: g.String()}
	l := line{EventJSON: e.JSON()}
	b, err := appendEventLine(nil, &l)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(`"kind":"gap"`)) || !bytes.Contains(b, []byte(`"gap":{"first_seq":1200,"last_seq":1611,"events":412,"bytes":108003328}`)) {
		t.Errorf("line %s", b)
	}
	var back line
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	got, err := back.toEvent()
	if err != nil {
		t.Fatal(err)
	}
	if got.Kind != session.EvGap || got.Gap == nil || *got.Gap != g || got.Text != "412 events dropped between seq 1200 and 1611 (103 MiB)" {
		t.Errorf("back: %+v %+v", got, got.Gap)
	}
	back.Gap = nil
	if _, err := back.toEvent(); err == nil {
		t.Error("a gap line without counts must be an error")
	}
}
