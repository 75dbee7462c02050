package ui

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/transport"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

var dtStart = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// dtFrame makes a frame event from raw wire bytes, decoded as the session decodes them.
func dtFrame(seq uint64, dir protocol.Direction, raw string) *session.Event {
	return &session.Event{Seq: seq, Time: dtStart.Add(time.Duration(seq) * time.Millisecond), Kind: session.EvFrame,
		Dir: dir, Frame: protocol.Decode([]byte(raw))}
}

// dtExchange adds a request and its response to a history and returns both entries.
func dtExchange(t *testing.T, h *traffic.History, reqRaw, respRaw string) (req, resp *traffic.Entry) {
	t.Helper()
	req, _ = h.Add(1, dtFrame(1, protocol.ClientToServer, reqRaw))
	ev := dtFrame(2, protocol.ServerToClient, respRaw)
	ev.Recv = transport.RecvInfo{Via: "stdout", Size: int64(len(respRaw))}
	ev.Corr = session.Correlation{Method: req.Ev.Frame.Method, RequestSeq: 1, Latency: 12300 * time.Microsecond}
	resp, _ = h.Add(1, ev)
	if req.Pair != resp {
		t.Fatalf("request and response not paired")
	}
	return req, resp
}

func dtDetail(w, h int) *Detail {
	d := NewDetail(NewCommon(nil))
	d.SetSize(w, h)
	return d
}

// dtDrain runs cmd and every command it leads to, feeding highlight results to d.
func dtDrain(d *Detail, cmd tea.Cmd) []tea.Msg {
	var out []tea.Msg
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case tea.BatchMsg:
			queue = append(queue, msg...)
		case HighlightMsg:
			out = append(out, msg)
			queue = append(queue, d.Update(msg))
		case nil:
		default:
			out = append(out, msg)
		}
	}
	return out
}

// dtText is the pane's whole text without styles, lines trimmed, for substring checks.
func dtText(d *Detail) string {
	var b strings.Builder
	for _, l := range d.content {
		s := ansi.Strip(l.s)
		if l.split {
			s += " ║ " + ansi.Strip(l.r)
		}
		b.WriteString(strings.TrimRight(s, " "))
		b.WriteByte('\n')
	}
	return b.String()
}

// squash joins words across wrapped lines so wrapped prose can be matched.
func squash(s string) string { return strings.Join(strings.Fields(s), " ") }

func TestDetailHeader(t *testing.T) {
	const req = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo"}}`
	const res = `{"jsonrpc":"2.0","id":7,"result":{"content":[]}}`
	tests := []struct {
		name string
		make func(t *testing.T) *traffic.Entry
		want []string
	}{
		{"request answered", func(t *testing.T) *traffic.Entry {
			r, _ := dtExchange(t, traffic.NewHistory(0), req, res)
			return r
		}, []string{"→ request  tools/call  #7", "sent by mcpscope", "answer", "result after 12.3ms", "event 1"}},
		{"response", func(t *testing.T) *traffic.Entry {
			_, r := dtExchange(t, traffic.NewHistory(0), req, res)
			return r
		}, []string{"← result  tools/call  #7", "answers", "request #7 tools/call sent 12:00:00.001", "latency", "12.3ms", "the server's stdout"}},
		{"error response", func(t *testing.T) *traffic.Entry {
			_, r := dtExchange(t, traffic.NewHistory(0), req, `{"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"Method not found"}}`)
			return r
		}, []string{"← error", "-32601 Method not found"}},
		{"sse with id", func(t *testing.T) *traffic.Entry {
			ev := dtFrame(3, protocol.ServerToClient, `{"jsonrpc":"2.0","method":"notifications/message","params":{}}`)
			ev.Recv = transport.RecvInfo{Via: "sse", SSEID: "42", SSEEvent: "message", Exchange: 5}
			e, _ := traffic.NewHistory(0).Add(1, ev)
			return e
		}, []string{"an SSE event (message), event id 42, HTTP exchange 5"}},
		{"truncated", func(t *testing.T) *traffic.Entry {
			ev := dtFrame(3, protocol.ServerToClient, "")
			ev.Frame = protocol.DecodeTruncated([]byte(`{"jsonrpc":"2.0","id":9,"result":{"x":"`), 4_200_000)
			ev.Recv = transport.RecvInfo{Via: "stdout", Size: 4_200_000, Truncated: true}
			e, _ := traffic.NewHistory(0).Add(1, ev)
			return e
		}, []string{"4,200,000 B (4.2 MB) on the wire; only the first 39 B were kept", protocol.FindTooLarge}},
		{"pending", func(t *testing.T) *traffic.Entry {
			e, _ := traffic.NewHistory(0).Add(1, dtFrame(1, protocol.ClientToServer, req))
			return e
		}, []string{"waiting for a response"}},
		{"failed", func(t *testing.T) *traffic.Entry {
			h := traffic.NewHistory(0)
			e, _ := h.Add(1, dtFrame(1, protocol.ClientToServer, req))
			h.EndGeneration(1, "timed out after 30s")
			return e
		}, []string{"failed", "no response: timed out after 30s"}},
		{"finding explained", func(t *testing.T) *traffic.Entry {
			e, _ := traffic.NewHistory(0).Add(1, dtFrame(4, protocol.ServerToClient, `{"jsonrpc":"1.0","id":1,"result":{}}`))
			return e
		}, []string{"⚠ warning " + protocol.FindJSONRPCVersion, squash(protocol.Explain(protocol.FindJSONRPCVersion))}},
		{"progress", func(t *testing.T) *traffic.Entry {
			h := traffic.NewHistory(0)
			h.Add(1, dtFrame(1, protocol.ClientToServer, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"_meta":{"progressToken":"p"}}}`))
			ev := dtFrame(2, protocol.ServerToClient, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":3,"total":5}}`)
			ev.Corr = session.Correlation{RequestSeq: 1, Progress: &session.Progress{Token: "p", Progress: 3, Total: 5}}
			e, _ := h.Add(1, ev)
			return e
		}, []string{"progress", "3/5 — of request #3 tools/call"}},
		{"chain", func(t *testing.T) *traffic.Entry {
			ev := dtFrame(9, protocol.ClientToServer, req)
			ev.Corr.ChainSeq = 4
			e, _ := traffic.NewHistory(0).Add(1, ev)
			return e
		}, []string{"input_required retry of the request of event 4"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := dtDetail(100, 40)
			d.SetEntry(tt.make(t))
			text := dtText(d)
			flat := squash(text)
			for _, w := range tt.want {
				if !strings.Contains(text, w) && !strings.Contains(flat, squash(w)) {
					t.Errorf("missing %q in\n%s", w, text)
				}
			}
		})
	}
}

func TestDetailFindingsWrapToWidth(t *testing.T) {
	e, _ := traffic.NewHistory(0).Add(1, dtFrame(4, protocol.ServerToClient, `{"jsonrpc":"1.0","id":1.5,"result":{}}`))
	d := dtDetail(40, 60)
	d.SetEntry(e)
	for _, l := range d.content {
		if w := ansi.StringWidth(l.s); w > 40 {
			t.Fatalf("line of %d cells in a 40-cell pane: %q", w, ansi.Strip(l.s))
		}
	}
	if !strings.Contains(squash(dtText(d)), squash(protocol.Explain(protocol.FindIDType))) {
		t.Fatalf("id-type finding not explained:\n%s", dtText(d))
	}
}

func TestDetailNonFrame(t *testing.T) {
	h := traffic.NewHistory(0)
	ev := func(k session.EventKind) *session.Event {
		return &session.Event{Seq: 5, Time: dtStart, Kind: k}
	}
	stderr := ev(session.EvStderr)
	stderr.Text = "boom \x1b[2J cleared \xff"
	ex := ev(session.EvHTTP)
	ex.HTTP = &transport.HTTPExchange{ID: 3, Purpose: "post", Method: "POST", URL: "https://example.test/mcp", Status: 401,
		ReqHeaders:  http.Header{"Authorization": {"Bearer ****"}, "Accept": {"application/json, text/event-stream"}},
		RespHeaders: http.Header{"Www-Authenticate": {`Bearer realm="x"`}, "Content-Type": {"application/json"}},
		Duration:    42 * time.Millisecond}
	exit := ev(session.EvExit)
	exit.Exit = &transport.ExitInfo{Code: 2, LastStderr: []string{"panic: nope", "goroutine 1"}}
	note := ev(session.EvTransport)
	note.Note, note.Text = "reconnect", "resuming from event 17"
	tests := []struct {
		name string
		e    *traffic.Entry
		want []string
		not  []string
	}{
		{"stderr", func() *traffic.Entry { e, _ := h.Add(1, stderr); return e }(),
			[]string{"stderr line", `boom \x1b[2J cleared \xff`}, []string{"\x1b[2J", "\xff"}},
		{"http", func() *traffic.Entry { e, _ := h.Add(1, ex); return e }(),
			[]string{"HTTP POST", "https://example.test/mcp", "401 Unauthorized", "post", "42.0ms",
				"Request headers\n  Accept: application/json, text/event-stream\n  Authorization: Bearer ****",
				"Response headers\n  Content-Type: application/json\n  Www-Authenticate: Bearer realm=\"x\""}, nil},
		{"exit", func() *traffic.Entry { e, _ := h.Add(1, exit); return e }(),
			[]string{"server ended", "exit code  2", "Last lines on stderr", "  panic: nope", "  goroutine 1"}, nil},
		{"transport", func() *traffic.Entry { e, _ := h.Add(1, note); return e }(),
			[]string{"transport: reconnect", "resuming from event 17"}, nil},
		{"marker", h.AddMarker(2, "restart #1 of demo"), []string{"marker", "restart #1 of demo"}, nil},
		{"gap", func() *traffic.Entry {
			e, _ := h.Add(1, session.NewGapEvent(session.Gap{FirstSeq: 1200, LastSeq: 1611, Events: 412, Bytes: 103 << 20}, dtStart))
			return e
		}(), []string{"events dropped", "412 events dropped between #1200 and #1611 (103 MiB)", "these events never reached it"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := dtDetail(90, 40)
			d.SetEntry(tt.e)
			text := dtText(d)
			for _, w := range tt.want {
				if !strings.Contains(text, w) {
					t.Errorf("missing %q in\n%s", w, text)
				}
			}
			view := d.View()
			for _, n := range tt.not {
				if strings.Contains(view, n) {
					t.Errorf("view holds raw %q", n)
				}
			}
		})
	}
}

func TestDetailRawEscapesInvalidBytes(t *testing.T) {
	e, _ := traffic.NewHistory(0).Add(1, dtFrame(1, protocol.ServerToClient, "Server v1 \xff\xfe ready\x1b[31m red\x07"))
	d := dtDetail(80, 20)
	if cmd := d.SetEntry(e); cmd != nil {
		t.Fatalf("a body that is not JSON asked for highlighting")
	}
	text := dtText(d)
	if !strings.Contains(text, `Server v1 \xff\xfe ready\x1b[31m red\x07`) {
		t.Fatalf("raw text not shown escaped:\n%s", text)
	}
	if !strings.Contains(text, "as received (not JSON)") {
		t.Fatalf("not marked as not JSON:\n%s", text)
	}
	view := d.View()
	if hasAnyByte(view, "\xff\xfe\x07") || strings.Contains(view, "\x1b[31m red") {
		t.Fatalf("raw control or invalid bytes reached the screen: %q", view)
	}
}

func TestDetailRawToggleShowsWireText(t *testing.T) {
	const raw = `{"jsonrpc":"2.0",  "id":1,"result":{"a":[1,2,3],"s":"tab\there"}}`
	e, _ := traffic.NewHistory(0).Add(1, dtFrame(1, protocol.ServerToClient, raw))
	d := dtDetail(50, 40)
	dtDrain(d, d.SetEntry(e))
	if !strings.Contains(dtText(d), `"a": [`) {
		t.Fatalf("pretty body not indented:\n%s", dtText(d))
	}
	dtDrain(d, d.Update(tea.KeyPressMsg{Code: 'w', Text: "w"}))
	text := dtText(d)
	if !strings.Contains(text, "wire text as received") {
		t.Fatalf("raw mode not announced:\n%s", text)
	}
	// The wire text, hard-wrapped at 50 cells, joined back, is exactly the frame.
	var body strings.Builder
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "wire text as received · w shows pretty JSON") {
			for _, b := range lines[i+1:] {
				body.WriteString(b)
			}
			break
		}
	}
	if got := body.String(); got != raw {
		t.Fatalf("wire text\n got %q\nwant %q", got, raw)
	}
}

// TestDetailPairLayout: a pair sits side by side when each body fits its half, and the
// request is above the response when one does not; v cycles both → the request alone →
// the response alone at every width, and the actions follow the side shown.
func TestDetailPairLayout(t *testing.T) {
	long := strings.Repeat("a long description that does not fit a half ", 3)
	mid := strings.Repeat("a description of fifty characters", 2)[:50]
	for _, tc := range []struct {
		w          int
		resp       string
		sideBySide bool
	}{
		{60, `{"jsonrpc":"2.0","id":1,"result":{}}`, false},
		{80, `{"jsonrpc":"2.0","id":1,"result":{}}`, true},
		{80, `{"jsonrpc":"2.0","id":1,"result":{"description":"` + long + `"}}`, false},
		{80, `{"jsonrpc":"2.0","id":1,"result":{"description":"` + mid + `"}}`, false},
		{160, `{"jsonrpc":"2.0","id":1,"result":{"description":"` + mid + `"}}`, true},
		{160, `{"jsonrpc":"2.0","id":1,"result":{"a":"` + long + `","b":"` + long + `"}}`, false},
	} {
		t.Run(fmt.Sprintf("%d-%d", tc.w, len(tc.resp)), func(t *testing.T) {
			req, resp := dtExchange(t, traffic.NewHistory(0), `{"jsonrpc":"2.0","id":1,"method":"ping"}`, tc.resp)
			d := dtDetail(tc.w, 40)
			dtDrain(d, d.SetEntry(resp))
			split := 0
			for _, l := range d.content {
				if l.split {
					split++
				}
			}
			text := dtText(d)
			if (split > 0) != tc.sideBySide {
				t.Fatalf("side by side: %v, want %v at %d:\n%s", split > 0, tc.sideBySide, tc.w, text)
			}
			if !strings.Contains(text, "→ request #1") || !strings.Contains(text, "← result #1") {
				t.Fatalf("both sides are not shown at %d:\n%s", tc.w, text)
			}
			if !tc.sideBySide && (!strings.Contains(text, "response above request") || strings.Index(text, "→ request #1") < strings.Index(text, "← result #1")) {
				t.Fatalf("not stacked with the selected response first at %d:\n%s", tc.w, text)
			}
			if !d.Keys()[3].Enabled() {
				t.Fatalf("v is off on a pair at %d", tc.w)
			}
			dtDrain(d, d.Update(tea.KeyPressMsg{Code: 'v', Text: "v"}))
			text = dtText(d)
			if !strings.Contains(text, "showing the request alone · v shows the response alone") || strings.Contains(text, "← result #1") || d.target() != req {
				t.Fatalf("v did not show the request alone at %d:\n%s", tc.w, text)
			}
			dtDrain(d, d.Update(tea.KeyPressMsg{Code: 'v', Text: "v"}))
			if text = dtText(d); !strings.Contains(text, "showing the response alone") || d.target() != resp {
				t.Fatalf("v did not show the response alone at %d:\n%s", tc.w, text)
			}
			dtDrain(d, d.SetEntry(req))
			if d.target() != resp {
				t.Fatalf("the view did not stay on the response alone when the request was selected")
			}
			dtDrain(d, d.Update(tea.KeyPressMsg{Code: 'v', Text: "v"}))
			if text = dtText(d); (split > 0) != strings.Contains(text, "║") || d.target() != req {
				t.Fatalf("v did not come back to both at %d:\n%s", tc.w, text)
			}
		})
	}
}

// bigResult is a response whose pretty form has more than maxBodyLines lines.
func bigResult(items int) string {
	var b strings.Builder
	b.WriteString(`{"jsonrpc":"2.0","id":1,"result":{"items":[`)
	for i := range items {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"n":%d,"name":"item %d"}`, i, i)
	}
	b.WriteString(`]}}`)
	return b.String()
}

func TestDetailTruncationBadge(t *testing.T) {
	raw := bigResult(5000)
	e, _ := traffic.NewHistory(0).Add(1, dtFrame(1, protocol.ServerToClient, raw))
	d := dtDetail(100, 30)
	cmd := d.SetEntry(e)
	keys := "o pager, e editor, ctrl+s save, y copy"
	if text := dtText(d); !strings.Contains(text, "showing the first 2,000 lines ("+textfmt.Bytes(int64(len(raw)))+") — "+keys) {
		t.Fatalf("fast badge missing:\n%s", text[:min(len(text), 800)])
	}
	dtDrain(d, cmd)
	pretty, _ := prettyJSON([]byte(raw))
	total := strings.Count(string(pretty), "\n") + 1
	want := fmt.Sprintf("showing 2,000 of %s lines (%s) — %s", textfmt.Commas(int64(total)), textfmt.Bytes(int64(len(raw))), keys)
	if text := dtText(d); !strings.Contains(text, want) {
		t.Fatalf("badge %q missing:\n%s", want, text[:min(len(text), 800)])
	}
	if n := len(d.content); n > maxBodyLines+40 {
		t.Fatalf("%d lines drawn for a body cut at %d", n, maxBodyLines)
	}
	small, _ := traffic.NewHistory(0).Add(1, dtFrame(1, protocol.ServerToClient, bigResult(3)))
	dtDrain(d, d.SetEntry(small))
	if strings.Contains(dtText(d), "showing") {
		t.Fatalf("badge on a small body:\n%s", dtText(d))
	}
}

func TestDetailStaleHighlightDropped(t *testing.T) {
	h := traffic.NewHistory(0)
	a, _ := h.Add(1, dtFrame(1, protocol.ServerToClient, `{"jsonrpc":"2.0","method":"a","params":{"x":1}}`))
	b, _ := h.Add(1, dtFrame(2, protocol.ServerToClient, `{"jsonrpc":"2.0","method":"b","params":{"y":2}}`))
	d := dtDetail(80, 20)
	cmdA := d.SetEntry(a)
	cmdB := d.SetEntry(b)
	before := dtText(d)
	msg := cmdA()
	if hm, ok := msg.(HighlightMsg); !ok || hm.Entry != a {
		t.Fatalf("want a HighlightMsg for a, got %T", msg)
	}
	d.Update(msg)
	if d.cache.len() != 0 || dtText(d) != before {
		t.Fatalf("stale highlight for another entry was used")
	}
	// Same entry, but made for another width or flavour: dropped too.
	d.SetSize(70, 20)
	d.Update(cmdB())
	if d.cache.len() != 0 {
		t.Fatalf("highlight for an old width was kept")
	}
	dtDrain(d, d.Refresh())
	if d.cache.len() != 1 {
		t.Fatalf("refresh after resize did not highlight (cache %d)", d.cache.len())
	}
	for k, v := range d.cache.m {
		if k.e != b || k.width != 70 || !v.Value.(*hlItem).v.chroma {
			t.Fatalf("cached %+v", k)
		}
	}
	// Back at the old entry, the cached highlight is used without a new command.
	d.SetEntry(a)
	if cmd := d.SetEntry(b); cmd != nil {
		t.Fatalf("cached body highlighted again")
	}
}

func TestDetailRestyleAsksAgain(t *testing.T) {
	e, _ := traffic.NewHistory(0).Add(1, dtFrame(1, protocol.ServerToClient, `{"jsonrpc":"2.0","method":"a","params":{"x":1}}`))
	d := dtDetail(80, 20)
	dtDrain(d, d.SetEntry(e))
	d.c.Styles = NewStyles(false)
	msgs := dtDrain(d, d.Restyle())
	if len(msgs) != 1 || msgs[0].(HighlightMsg).Dark {
		t.Fatalf("restyle: %v", msgs)
	}
	if d.cache.len() != 2 {
		t.Fatalf("want both flavours cached, have %d", d.cache.len())
	}
}

func TestDetailViewExactSize(t *testing.T) {
	req, _ := dtExchange(t, traffic.NewHistory(0), `{"jsonrpc":"2.0","id":"日本","method":"tools/call","params":{"name":"絵文字🎉","arguments":{"s":"`+strings.Repeat("x", 300)+`"}}}`, `{"jsonrpc":"2.0","id":"日本","result":{}}`)
	for _, sz := range [][2]int{{1, 1}, {5, 3}, {40, 10}, {119, 30}, {120, 30}, {200, 50}} {
		d := dtDetail(sz[0], sz[1])
		dtDrain(d, d.SetEntry(req))
		for _, offset := range []int{0, 5, 1 << 20} {
			d.offset = offset
			lines := strings.Split(d.View(), "\n")
			if len(lines) != sz[1] {
				t.Fatalf("%v: %d lines", sz, len(lines))
			}
			for i, l := range lines {
				if w := ansi.StringWidth(l); w != sz[0] {
					t.Fatalf("%v line %d: %d cells: %q", sz, i, w, l)
				}
			}
		}
	}
}

func TestDetailScroll(t *testing.T) {
	e, _ := traffic.NewHistory(0).Add(1, dtFrame(1, protocol.ServerToClient, bigResult(40)))
	d := dtDetail(80, 10)
	dtDrain(d, d.SetEntry(e))
	keys := NewCommon(nil).Keys
	press := func(s string) {
		d.Update(tea.KeyPressMsg{Text: s, Code: []rune(s)[0]})
	}
	_ = keys
	press("j")
	press("j")
	if d.offset != 2 {
		t.Fatalf("down twice: offset %d", d.offset)
	}
	press("G")
	if d.offset != len(d.content)-10 {
		t.Fatalf("bottom: offset %d of %d", d.offset, len(d.content))
	}
	d.Update(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	if d.offset != len(d.content)-10-wheelStep {
		t.Fatalf("wheel up: offset %d", d.offset)
	}
	press("g")
	d.Update(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	if d.offset != 0 {
		t.Fatalf("top: offset %d", d.offset)
	}
}

// hasAnyByte reports whether s holds any of the bytes of set, byte by byte (ContainsAny
// reads set as UTF-8, so an invalid byte in it would stand for U+FFFD).
func hasAnyByte(s, set string) bool {
	for i := 0; i < len(set); i++ {
		if strings.IndexByte(s, set[i]) >= 0 {
			return true
		}
	}
	return false
}
