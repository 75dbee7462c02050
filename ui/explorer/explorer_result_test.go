package explorer

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/ui/internal/common"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// bigText is about n bytes of numbered lines, as the badserver's bigtext tool sends.
func bigText(n int) string {
	var b strings.Builder
	b.Grow(n + 128)
	for i := 1; b.Len() < n; i++ {
		fmt.Fprintf(&b, "line %07d: the quick brown fox jumps over the lazy dog, again and again.\n", i)
	}
	return b.String()
}

// bigToolResult is a tools/call result of one text block of about n bytes.
func bigToolResult(tb testing.TB, n int) json.RawMessage {
	tb.Helper()
	raw, err := json.Marshal(map[string]any{"content": []any{map[string]any{"type": "text", "text": bigText(n)}}})
	if err != nil {
		tb.Fatal(err)
	}
	return raw
}

// exHost hosts an explorer as the model does, for the tests: a message goes to its Update
// (a new window size to SetSize), then RenderCmd asks for the layout its result needs; its
// screen is its View.
type exHost struct{ x *Explorer }

// newExHost is an explorer of w×h on a history of budget bytes (0: the default).
func newExHost(tb testing.TB, budget, w, h int) *exHost {
	tb.Helper()
	x := NewExplorer(common.NewCommon(nil))
	hist := traffic.NewHistory(0)
	hist.MaxBytes = int64(budget)
	x.SetHistory(hist)
	x.SetSize(w, h)
	return &exHost{x: x}
}

// Update hands msg to the explorer as the model does.
func (m *exHost) Update(msg tea.Msg) (*exHost, tea.Cmd) {
	var cmd tea.Cmd
	if ws, ok := msg.(tea.WindowSizeMsg); ok {
		m.x.SetSize(ws.Width, ws.Height)
	} else {
		cmd = m.x.Update(msg)
	}
	return m, tea.Batch(cmd, m.x.RenderCmd())
}

// Render is the explorer's screen.
func (m *exHost) Render() string { return m.x.View() }

// plainScreen is the explorer's screen without styles.
func plainScreen(m *exHost) string { return ansi.Strip(m.x.View()) }

// runWithResult is a w×h explorer whose selected tool "big" has just been sent: the
// returned message is its answer, result, as it arrives.
func runWithResult(tb testing.TB, w, h int, result json.RawMessage) (*exHost, CallDoneMsg) {
	tb.Helper()
	m := newExHost(tb, 0, w, h)
	x := m.x
	x.SetLists(map[session.ListKind][]json.RawMessage{session.ListTools: {json.RawMessage(`{"name":"big","inputSchema":{"type":"object"}}`)}}, nil)
	if x.selected() == nil {
		tb.Fatalf("big is not selected:\n%s", plainScreen(m))
	}
	x.start(x.selected(), methodToolsCall, "big", "big", nil)
	return m, CallDoneMsg{Gen: x.gen, Run: x.runSeq, Resp: &session.Response{Result: result}, At: time.Now()}
}

// takeRendered runs cmd (and the commands of a batch it returns) and returns the result
// layout it made, or fails.
func takeRendered(tb testing.TB, cmd tea.Cmd) resultRenderedMsg {
	tb.Helper()
	msg, ok := findRendered(cmd)
	if !ok {
		tb.Fatal("no result layout was asked for")
	}
	return msg
}

// findRendered runs cmd (and the commands of a batch it returns) and returns the result
// layout it made, if it made one.
func findRendered(cmd tea.Cmd) (resultRenderedMsg, bool) {
	if cmd == nil {
		return resultRenderedMsg{}, false
	}
	switch msg := cmd().(type) {
	case resultRenderedMsg:
		return msg, true
	case tea.BatchMsg:
		for _, c := range msg {
			if r, ok := findRendered(c); ok {
				return r, true
			}
		}
	}
	return resultRenderedMsg{}, false
}

// TestExplorerBigResultPreview: a 20 MB result is answered with its head as received at
// once, and its layout comes from a command; keys scroll meanwhile; the layout shows a
// bounded part and says where the rest is; z and G reach its end at once.
func TestExplorerBigResultPreview(t *testing.T) {
	m, done := runWithResult(t, 100, 30, bigToolResult(t, 20<<20))
	_, cmd := m.Update(done)
	scr := plainScreen(m)
	for _, want := range []string{"laying out 21.2 MB of result", `"text": "line 0000001: the quick`} {
		if !strings.Contains(scr, want) {
			t.Errorf("the first screen lacks %q:\n%s", want, scr)
		}
	}
	r := m.x.selectedRun()
	if r.view != nil {
		t.Fatal("the whole result was laid out in Update")
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyPgDown}) // a key while the layout is made
	if m.x.dOff == 0 {
		t.Error("page down did not scroll the preview")
	}
	if _, again := m.Update(tea.KeyPressMsg{Code: tea.KeyPgUp}); again != nil {
		if _, ok := findRendered(again); ok {
			t.Error("the layout was asked for twice")
		}
	}
	m.Update(takeRendered(t, cmd))
	if r.view == nil {
		t.Fatal("the layout did not arrive")
	}
	scr = plainScreen(m)
	if !strings.Contains(scr, "line 0000001: the quick") || strings.Contains(scr, "laying out") {
		t.Errorf("the layout is not on screen:\n%s", scr)
	}
	if r.view.hidden < 18<<20 {
		t.Errorf("hidden %d bytes, want the text past %d", r.view.hidden, resultShownBytes)
	}
	_, cmd = m.Update(keyPress("z")) // the whole page: another width
	m.Update(keyPress("G"))          // before its layout arrives: the end of the preview
	m.Update(takeRendered(t, cmd))
	end := plainScreen(m)
	for _, want := range []string{"MB more", "not shown: T shows the whole response in the timeline"} {
		if !strings.Contains(end, want) {
			t.Errorf("G on the preview did not lead to the end of the layout: no %q:\n%s", want, end)
		}
	}
	m.Update(keyPress("g"))
	start := time.Now()
	m.Update(keyPress("G"))
	if d := time.Since(start); d > time.Second {
		t.Errorf("G took %s", d)
	}
	if scr := plainScreen(m); scr != end {
		t.Errorf("G does not show the end:\n%s", scr)
	}
	_, cmd = m.Update(keyPress("z")) // back to the list: its layout was kept
	if _, ok := findRendered(cmd); ok || strings.Contains(plainScreen(m), "laying out") {
		t.Errorf("the list's width is laid out again:\n%s", plainScreen(m))
	}
	_, cmd = m.Update(tea.WindowSizeMsg{Width: 90, Height: 30})
	if r.preview == nil || r.previewKey.w != 90 {
		t.Errorf("a new width does not show the preview until its layout:\n%s", plainScreen(m))
	}
	if msg := takeRendered(t, cmd); msg.key.w != 90 {
		t.Errorf("a new width asked for a layout %d wide", msg.key.w)
	}
}

// TestExplorerSmallResultInline: a result up to resultInline is laid out where it is shown,
// with no command and no preview.
func TestExplorerSmallResultInline(t *testing.T) {
	m, done := runWithResult(t, 100, 30, bigToolResult(t, 4<<10))
	_, cmd := m.Update(done)
	if scr := plainScreen(m); !strings.Contains(scr, "line 0000001: the quick") || strings.Contains(scr, "laying out") {
		t.Errorf("a small result is not laid out at once:\n%s", scr)
	}
	if _, ok := findRendered(cmd); ok {
		t.Error("a small result was laid out by a command")
	}
}

// TestResultBudget: a layout shows at most resultShownBytes of texts and JSON, cut at a
// line's end, and counts the rest.
func TestResultBudget(t *testing.T) {
	c := common.NewCommon(nil)
	text := bigText(3 << 20)
	raw, _ := json.Marshal(map[string]any{
		"content":           []any{map[string]any{"type": "text", "text": text}},
		"structuredContent": map[string]any{"lines": strings.Split(text[:200<<10], "\n")},
	})
	v := RenderResult(c.Styles, c.Keys, methodToolsCall, "big", raw, ResultEnv{}, 100)
	if v.hidden < int64(len(text)-resultShownBytes+200<<10) || v.hidden > int64(len(raw)) {
		t.Errorf("hidden %d, want the text past the budget and the structured content", v.hidden)
	}
	last := ""
	for _, l := range v.lines {
		if strings.Contains(l, "line ") {
			last = l
		}
	}
	if !strings.HasSuffix(strings.TrimSpace(ansi.Strip(last)), "again and again.") {
		t.Errorf("the text is not cut at a line's end: %q", ansi.Strip(last))
	}
	if n := strings.Count(ansi.Strip(strings.Join(v.lines, "\n")), "B more"); n != 2 {
		t.Errorf("%d \"more\" lines, want one for the text and one for the structured content", n)
	}
}

// BenchmarkExplorerBigResult measures, at 120×40, the time from a 20 MB result's arrival to
// its first screen (the preview), to its laid-out screen, and the latency of a page key
// pressed every 20 ms while the layout is made.
func BenchmarkExplorerBigResult(b *testing.B) {
	result := bigToolResult(b, 20<<20)
	for b.Loop() {
		m, done := runWithResult(b, 120, 40, result)
		start := time.Now()
		_, cmd := m.Update(done)
		m.Render()
		first := time.Since(start)
		rendered := make(chan resultRenderedMsg, 1)
		go func() { rendered <- takeRendered(b, cmd) }()
		var lat []time.Duration
		tick := time.NewTicker(20 * time.Millisecond)
	wait:
		for {
			select {
			case msg := <-rendered:
				m.Update(msg)
				m.Render()
				break wait
			case <-tick.C:
				k := time.Now()
				code := tea.KeyPgDown
				if len(lat)%2 == 1 {
					code = tea.KeyPgUp
				}
				m.Update(tea.KeyPressMsg{Code: code})
				m.Render()
				lat = append(lat, time.Since(k))
			}
		}
		tick.Stop()
		laid := time.Since(start)
		k := time.Now()
		m.Update(keyPress("G"))
		m.Render()
		end := time.Since(k)
		slices.Sort(lat)
		b.ReportMetric(float64(first.Microseconds())/1000, "first-screen-ms")
		b.ReportMetric(float64(laid.Microseconds())/1000, "laid-out-ms")
		b.ReportMetric(float64(end.Microseconds())/1000, "end-ms")
		if len(lat) > 0 {
			b.ReportMetric(float64(lat[len(lat)-1].Microseconds())/1000, "key-max-ms")
			b.ReportMetric(float64(len(lat)), "keys")
		}
	}
}

// TestExplorerResultsHeld: the explorer holds whole results up to a quarter of the
// history's byte budget; past it the older run's result goes, and that run says where the
// whole response is.
func TestExplorerResultsHeld(t *testing.T) {
	m := newExHost(t, 40<<20, 100, 30) // holds 10 MiB of results
	x := m.x
	x.SetLists(map[session.ListKind][]json.RawMessage{session.ListTools: {
		json.RawMessage(`{"name":"a","inputSchema":{"type":"object"}}`), json.RawMessage(`{"name":"b","inputSchema":{"type":"object"}}`)}}, nil)
	result := bigToolResult(t, 6<<20)
	call := func(sel int) *callRun {
		x.tab().sel = sel
		it := x.selected()
		x.start(it, methodToolsCall, it.name, it.name, nil)
		frame := &protocol.Frame{Raw: result, Result: result}
		m.Update(CallDoneMsg{Gen: x.gen, Run: x.runSeq, Resp: &session.Response{Result: result, Event: &session.Event{Seq: 7, Frame: frame}}, At: time.Now()})
		return x.selectedRun()
	}
	a := call(0)
	if a.released {
		t.Fatal("a result within the share was let go")
	}
	b := call(1)
	if !a.released || a.resp.Result != nil || a.resp.Event.Frame != nil || a.resp.Event.Seq != 7 {
		t.Errorf("the older result is still held (released %v) or its place in the history was lost", a.released)
	}
	if b.released || len(b.resp.Result) != len(result) {
		t.Error("the newest result was let go")
	}
	x.tab().sel = 0
	x.dOff = 0
	if scr := plainScreen(m); !strings.Contains(scr, "is no longer held") {
		t.Errorf("the run let go does not say so:\n%s", scr)
	}
	call(0) // run again: now b is the older one
	if !b.released || x.selectedRun().released {
		t.Error("running a again did not make b the one let go")
	}
}

// TestPreviewLinesBounded: the preview of a large result reads only its head and indents
// at most resultPreviewLimit lines of it, even when the head is one long array.
func TestPreviewLinesBounded(t *testing.T) {
	raw := []byte("[" + strings.Repeat("1,", 1<<20) + "1]")
	got := previewLines(common.NewStyles(true), raw, 80)
	if n := len(got) - 2; n < 100 || n > resultPreviewLimit.Lines {
		t.Fatalf("preview has %d body lines, want 100..%d", n, resultPreviewLimit.Lines)
	}
}
