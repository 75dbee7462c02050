package ui

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// logNote is a notifications/message frame whose data is size bytes of text.
func logNote(w *evWire, n, size int) *session.Event {
	data := fmt.Sprintf("%d %s", n, strings.Repeat("f", size))
	return w.note(dirIn, "notifications/message", `{"level":"info","logger":"flood","data":"`+data+`"}`, session.Correlation{})
}

// TestHistoryClipsLargeFrames holds a frame over TruncateOver cut to its head: the entry
// knows the full size, the session's event (shared with the recorder) is untouched, the
// request it answers is still paired, and its row says it is truncated and how large it is.
func TestHistoryClipsLargeFrames(t *testing.T) {
	m := newTimelineModel(t, Options{TruncateOver: 200 << 10}, 160, 20)
	w := newEvWire()
	req := w.req(dirOut, 7, "tools/call", `{"name":"huge"}`)
	text := strings.Repeat("x", 300<<10)
	resp := w.res(time.Millisecond, req, `{"content":[{"type":"text","text":"`+text+`"}]}`)
	orig := resp.Frame.Raw
	feedEvents(m, req, resp, logNote(w, 1, 100))
	e := m.hist.At(1)
	switch {
	case e.Clipped != int64(len(orig)):
		t.Fatalf("Clipped = %d, want the frame's %d bytes", e.Clipped, len(orig))
	case len(e.Ev.Frame.Raw) != traffic.ClipHead || string(e.Ev.Frame.Raw) != string(orig[:traffic.ClipHead]):
		t.Errorf("held %d bytes, want the frame's first %d", len(e.Ev.Frame.Raw), traffic.ClipHead)
	case e.Ev.Frame.Result != nil || e.Ev.Frame.ID.String() != "7" || e.Ev.Frame.Kind != protocol.KindResult:
		t.Errorf("clipped frame keeps result %d bytes, id %s, kind %v", len(e.Ev.Frame.Result), e.Ev.Frame.ID, e.Ev.Frame.Kind)
	case len(resp.Frame.Raw) != len(orig) || resp.Frame.Result == nil:
		t.Errorf("the session's event was changed")
	case m.hist.At(0).Pair != e:
		t.Errorf("the request is not paired with its clipped response")
	case m.hist.Bytes != int64(len(req.Frame.Raw)+traffic.ClipHead+len(m.hist.At(2).Ev.Frame.Raw)):
		t.Errorf("Bytes = %d does not count the clipped frame by what is held", m.hist.Bytes)
	}
	row := screenRow(plainScreen(m), "res", "tools/call")
	if !strings.Contains(row, "tools/call huge ✂ truncated in memory") || !strings.Contains(row, "307.3K") {
		t.Errorf("row %q does not say the frame is truncated in memory, with its full size", row)
	}
}

// hugeSession is a model of a real session on the misbehaving server whose huge tool
// answers with a frame of 3 MB, recorded to a file in the test's directory unless
// noRecord; it returns once the response is in and selected.
func hugeSession(t *testing.T, noRecord bool) (*Model, *driver, *traffic.Entry) {
	t.Helper()
	bad := sessiontest.BuildBadServer(t)
	opts := stdioOptions(t, "badserver", bad, []string{"-huge-size", "3000000"}, nil)
	if !noRecord {
		path := filepath.Join(t.TempDir(), "session.jsonl")
		w, err := recordings.Create(path, recordings.Header{Server: "badserver", Transport: "stdio"}, recordings.Options{})
		if err != nil {
			t.Fatal(err)
		}
		opts.Recorder = NewRecorder(path, w)
		t.Cleanup(func() { _ = opts.Recorder.Close() })
	}
	m := NewModel(NewCommon(nil), opts)
	d := newDriver(t, m)
	d.handle(tea.WindowSizeMsg{Width: 160, Height: 48})
	d.run(m.Init())
	d.until(60*time.Second, "the handshake", func() bool { return m.state == session.StateReady })
	args, _ := json.Marshal(map[string]any{"name": "huge", "arguments": map[string]any{}})
	d.run(callCmd(m.gen, m.sess, "tools/call", args))
	var resp *traffic.Entry
	d.until(60*time.Second, "the huge response", func() bool {
		for _, e := range m.hist.Entries() {
			if e.Clipped > 0 {
				resp = e
			}
		}
		return resp != nil
	})
	pressKey(m, "G")
	for i := 0; i < 20 && m.timeline.Selected() != resp; i++ {
		pressKey(m, "up")
	}
	if m.timeline.Selected() != resp {
		t.Fatalf("could not select the huge response; screen:\n%s", plainScreen(m))
	}
	return m, d, resp
}

// TestModelClippedFrameFromRecording: a 3 MB response is held cut to 64 KiB; its row says
// so with the full size, and the detail pane reads the whole frame back from the
// recording, in a command, and shows it pretty-printed (the head alone is not JSON).
func TestModelClippedFrameFromRecording(t *testing.T) {
	m, d, resp := hugeSession(t, false)
	if resp.Clipped < 3_000_000 || len(resp.Ev.Frame.Raw) != traffic.ClipHead {
		t.Fatalf("response held %d of %d bytes", len(resp.Ev.Frame.Raw), resp.Clipped)
	}
	if row := screenRow(plainScreen(m), "tools/call huge ✂ truncated in memory"); !strings.Contains(row, "3.0M") {
		t.Errorf("row of the huge response: %q", row)
	}
	d.handle(tea.KeyPressMsg{Code: tea.KeyEnter})
	d.until(30*time.Second, "the full frame read back", func() bool {
		return strings.Contains(detailText(m), "read back whole (3.0 MB) from the recording")
	})
	text := detailText(m)
	for _, want := range []string{`"jsonrpc": "2.0",`, `"content": [`, "pretty JSON", "✂ truncated in memory: first 65.5 KB of 3.0 MB", "showing the first 262.1 KB of 3.0 MB"} {
		if !strings.Contains(text, want) {
			t.Errorf("detail lacks %q:\n%s", want, plainScreen(m))
		}
	}

	// A filtered save is made from memory: the frame held cut is read back whole.
	pressKey(m, "esc")
	pressKey(m, "s")
	if !strings.Contains(strings.Split(plainScreen(m), "\n")[0], "stderr hidden") {
		t.Fatalf("s did not hide the stderr rows:\n%s", plainScreen(m))
	}
	path := filepath.Join(t.TempDir(), "filtered.jsonl")
	if st := saveAs(t, m, path); !strings.Contains(st, "saved") || strings.Contains(st, "truncated") {
		t.Errorf("status after a filtered save: %q", st)
	}
	if ev := recordedEvent(t, path, resp.Ev.Seq); len(ev.Frame.Raw) != int(resp.Clipped) || ev.Recv.Truncated {
		t.Errorf("the filtered save holds %d bytes of the %d-byte frame", len(ev.Frame.Raw), resp.Clipped)
	}
	for _, e := range readRecording(t, path) {
		if e.Event.Kind == session.EvStderr {
			t.Errorf("the save is not the filtered rows: it has the hidden stderr line %q", e.Event.Text)
		}
	}
}

// recordedEvent is the event seq of the recording at path.
func recordedEvent(t *testing.T, path string, seq uint64) *session.Event {
	t.Helper()
	for _, e := range readRecording(t, path) {
		if e.Event.Seq == seq {
			return e.Event
		}
	}
	t.Fatalf("event %d is not in %s", seq, path)
	return nil
}

// detailText is the detail pane's text, its left column then its right one, each with its
// lines joined by a space (words wrapped at the pane's edge read whole again).
func detailText(m *Model) string {
	var l, r []string
	for _, dl := range m.detail.content {
		l = append(l, strings.TrimSpace(ansi.Strip(dl.s)))
		r = append(r, strings.TrimSpace(ansi.Strip(dl.r)))
	}
	return strings.Join(l, " ") + " " + strings.Join(r, " ")
}

// TestModelClippedFrameNotRecorded: without a recording the detail pane says plainly that
// the full bytes were not kept, and why, and shows the head as received.
func TestModelClippedFrameNotRecorded(t *testing.T) {
	m, d, resp := hugeSession(t, true)
	d.handle(tea.KeyPressMsg{Code: tea.KeyEnter})
	text := detailText(m)
	for _, want := range []string{"the full bytes were not kept: this session is not recorded", "the first 65.5 KB as received", `{"id":4,"jsonrpc":"2.0","result":{"`} {
		if !strings.Contains(text, want) {
			t.Errorf("detail lacks %q:\n%s", want, plainScreen(m))
		}
	}
	for k := range m.detail.inflight {
		if k.e == resp {
			t.Errorf("a read of the full frame was started without a recording")
		}
	}

	// Saved from memory, the frame is saved as held, and the file says it was truncated.
	path := filepath.Join(t.TempDir(), "saved.jsonl")
	if st := saveAs(t, m, path); !strings.Contains(st, "1 frame saved truncated (the full bytes were not kept)") {
		t.Errorf("status after saving: %q", st)
	}
	if ev := recordedEvent(t, path, resp.Ev.Seq); !ev.Recv.Truncated || ev.Recv.Size != resp.Clipped || len(ev.Frame.Raw) != traffic.ClipHead {
		t.Errorf("saved frame: %d bytes, size %d, truncated %v", len(ev.Frame.Raw), ev.Recv.Size, ev.Recv.Truncated)
	}
}

// TestStringPrefix decodes the start of long JSON strings without cutting an escape or a
// character in two, and the whole of short ones.
func TestStringPrefix(t *testing.T) {
	long := strings.Repeat("a", 9)
	for _, c := range []struct {
		in, want string
		ok       bool
	}{
		{`"short"`, "short", true},
		{`"` + long + `\u00e9zzzz"`, long + "é", true},  // cut would fall inside \u00e9: \u00e9 is dropped or kept whole
		{`"` + long + `\\\\zzzzzz"`, long + `\\`, true}, // an escaped backslash
		{`"` + long + `é` + `zzzz"`, long + "é", true},
		{`12`, "", false},
		{`{"a":1}`, "", false},
	} {
		got, ok := stringPrefix([]byte(c.in), 11)
		if ok != c.ok || !strings.HasPrefix(c.want, got) || ok && len(got) < min(len(long), len(c.want)) {
			t.Errorf("stringPrefix(%s) = %q, %v; want a prefix of %q, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

// TestOpenClippedFrame browses a recording holding a 100 KB notification and a 2 MB
// response read-only: the window holds both cut (a window of 4,096 rows shares the 256 MiB
// budget: 64 KiB a frame), and the detail reads the response back whole from the recording
// through the reader's index.
func TestOpenClippedFrame(t *testing.T) {
	w := newEvWire()
	req := w.req(dirOut, 1, "tools/call", `{"name":"big"}`)
	note := logNote(w, 1, 100_000)
	resp := w.res(time.Millisecond, req, `{"content":[{"type":"text","text":"`+strings.Repeat("y", 2_000_000)+`"}]}`)
	path := filepath.Join(t.TempDir(), "big.jsonl")
	writeRecording(t, path, []*session.Event{req, note, resp})
	m := openModel(t, path, 160, 40)
	if e := m.hist.At(1); e.Clipped != int64(len(note.Frame.Raw)) || len(e.Ev.Frame.Raw) != traffic.ClipHead {
		t.Errorf("the 100 KB notification is held with %d of %d bytes", len(e.Ev.Frame.Raw), e.Clipped)
	}
	pressKey(m, "G")
	e := m.timeline.Selected()
	if e == nil || e.Clipped != int64(len(resp.Frame.Raw)) {
		t.Fatalf("selected %v, want the response held cut", e)
	}
	runCmdSync(t, m, pressKey(m, "enter"))
	text := detailText(m)
	for _, want := range []string{"read back whole (2.0 MB) from the recording", `"content": [`} {
		if !strings.Contains(text, want) {
			t.Errorf("detail lacks %q:\n%s", want, plainScreen(m))
		}
	}
}
