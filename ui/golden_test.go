package ui

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session"
)

// The golden screens run the real program (teatest) on a model whose traffic comes from
// fixtures instead of a live server: frames the demo server actually sent and received,
// with the times they were recorded at, so every relative time and latency on screen is the
// same on every run. The golden files hold the screen's text without colours (the styles
// are checked by the model's own tests); regenerate them with
//
//	go test ./ui -run Golden -update

// goldenSizes are the terminal sizes of every golden screen: the classic 80×24 and a wide
// terminal where the timeline and the detail sit side by side.
var goldenSizes = []struct{ w, h int }{{80, 24}, {160, 48}}

// noInit runs a Model without its Init, which would start a real session: the golden
// tests send the model its session's messages themselves.
type noInit struct{ *Model }

// Init does nothing.
func (noInit) Init() tea.Cmd { return nil }

// TestGolden renders each screen at each size and compares it with its golden file.
func TestGolden(t *testing.T) {
	traffic := goldenTraffic(t)
	info := goldenInfo(t, traffic)
	lists := goldenLists(t)
	feed := func(tm *teatest.TestModel) {
		tm.Send(EventsMsg{Events: traffic, Info: &info, Closed: true})
	}
	scenes := []struct {
		name  string
		drive func(tm *teatest.TestModel)
	}{
		// Before the first event: the session is still starting.
		{"connecting", func(*teatest.TestModel) {}},
		// The demo's handshake, two pages of tools/list and a tools/call that failed.
		{"traffic", feed},
		// The JSON-RPC error response selected, with the detail open.
		{"error_detail", func(tm *teatest.TestModel) {
			feed(tm)
			tm.Send(keyPress("/"))
			tm.Type("kind:error")
			tm.Send(keyPress("enter"))
			tm.Send(keyPress("G"))
			tm.Send(keyPress("enter"))
		}},
		// The filter being typed.
		{"filter", func(tm *teatest.TestModel) {
			feed(tm)
			tm.Send(keyPress("/"))
			tm.Type("method:tools")
		}},
		// The explorer page with the demo's lists.
		{"explorer", func(tm *teatest.TestModel) {
			feed(tm)
			tm.Send(ListsMsg{Lists: lists, Errs: map[session.ListKind]error{}})
			tm.Send(keyPress("2"))
			// The tools' context cost is counted in a command; the screen shows it.
			teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(" tok")) },
				teatest.WithDuration(20*time.Second))
		}},
		// The full help.
		{"help", func(tm *teatest.TestModel) {
			feed(tm)
			tm.Send(keyPress("?"))
		}},
	}
	for _, sc := range scenes {
		for _, sz := range goldenSizes {
			t.Run(fmt.Sprintf("%s_%dx%d", sc.name, sz.w, sz.h), func(t *testing.T) {
				golden.RequireEqual(t, goldenScreen(t, sz.w, sz.h, sc.drive))
			})
		}
	}
}

// goldenScreen runs the program at w×h, lets drive send it messages, quits, and returns
// the final screen's text. Messages reach Update in the order they were sent, and the quit
// message comes last, so the screen shows everything drive did.
func goldenScreen(t *testing.T, w, h int, drive func(tm *teatest.TestModel)) string {
	t.Helper()
	m := NewModel(NewCommon(nil), Options{
		NewSession: func() (*session.Session, error) {
			t.Error("the golden screens must not start a session")
			return nil, os.ErrInvalid
		},
		TransportName: "stdio",
		Target:        "mcpscope demo",
	})
	return goldenRun(t, m, w, h, drive)
}

// goldenRun is goldenScreen for a model made by the test.
func goldenRun(t *testing.T, m *Model, w, h int, drive func(tm *teatest.TestModel)) string {
	t.Helper()
	tm := teatest.NewTestModel(t, noInit{m},
		teatest.WithInitialTermSize(w, h),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)),
	)
	drive(tm)
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
	screen := ansi.Strip(m.Render())
	checkScreenSize(t, screen, w, h)
	return screen + "\n"
}

// checkScreenSize fails the test unless screen is exactly h rows of at most w cells.
func checkScreenSize(t *testing.T, screen string, w, h int) {
	t.Helper()
	rows := strings.Split(screen, "\n")
	if len(rows) != h {
		t.Errorf("the screen has %d rows, want %d", len(rows), h)
	}
	for i, r := range rows {
		if n := ansi.StringWidth(r); n > w {
			t.Errorf("row %d is %d cells wide, want at most %d: %q", i, n, w, r)
		}
	}
}

// keyPress is the message of one key, named as tea.KeyPressMsg.String names it.
func keyPress(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

// goldenTraffic reads testdata/demo-traffic.ndjson: the --trace output of
// `mcpscope call no_such_tool x=1` against the demo server (handshake, tools/list, a
// tools/call answered with a JSON-RPC error, the server's stderr), without the events that
// name the machine (the spawned command, its pid). Frames are decoded from their recorded
// bytes.
func goldenTraffic(t *testing.T) []*session.Event {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "demo-traffic.ndjson"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var evs []*session.Event
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var j session.EventJSON
		if err := json.Unmarshal(sc.Bytes(), &j); err != nil {
			t.Fatalf("demo-traffic.ndjson: %v", err)
		}
		evs = append(evs, eventFromJSON(t, j))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return evs
}

// eventFromJSON turns one --trace line back into the event it describes.
func eventFromJSON(t *testing.T, j session.EventJSON) *session.Event {
	t.Helper()
	ev := &session.Event{Seq: j.Seq, Time: j.Time, Text: j.Text, Note: j.Note}
	for k := session.EvFrame; k <= session.EvLists; k++ {
		if k.String() == j.Kind {
			ev.Kind = k
		}
	}
	if ev.Kind == 0 {
		t.Fatalf("event %d: unknown kind %q", j.Seq, j.Kind)
	}
	if ev.Kind == session.EvState {
		for s := session.StateIdle; s <= session.StateClosed; s++ {
			if s.String() == j.State {
				ev.State = s
			}
		}
	}
	if ev.Kind == session.EvFrame {
		if j.Raw == nil {
			t.Fatalf("event %d: a frame without raw bytes", j.Seq)
		}
		ev.Frame = protocol.Decode([]byte(*j.Raw))
		ev.Dir = protocol.ServerToClient
		if j.Dir == protocol.ClientToServer.String() {
			ev.Dir = protocol.ClientToServer
		}
		ev.Corr = session.Correlation{
			RequestSeq: j.Request,
			Latency:    time.Duration(j.LatencyMS * float64(time.Millisecond)),
			Progress:   j.Progress,
		}
		if ev.Frame.Method == "" {
			ev.Corr.Method = j.Method
		}
	}
	return ev
}

// goldenInfo is what the demo said about itself in its server/discover result.
func goldenInfo(t *testing.T, evs []*session.Event) session.ServerInfo {
	t.Helper()
	for _, ev := range evs {
		if ev.Frame == nil || ev.Corr.Method != "server/discover" {
			continue
		}
		var res struct {
			Result struct {
				Capabilities json.RawMessage `json:"capabilities"`
				Instructions string          `json:"instructions"`
			} `json:"result"`
		}
		if err := json.Unmarshal(ev.Frame.Raw, &res); err != nil {
			t.Fatal(err)
		}
		return session.ServerInfo{
			Implementation: session.Implementation{Name: "mcpscope-demo", Version: "1.0.0"},
			Capabilities:   res.Result.Capabilities,
			Instructions:   res.Result.Instructions,
			Revision:       protocol.Revision("2026-07-28"),
			Stateless:      true,
			Transport:      "stdio",
		}
	}
	t.Fatal("demo-traffic.ndjson has no server/discover result")
	return session.ServerInfo{}
}

// goldenLists reads the demo's lists (the output of `mcpscope list tools` and so on).
func goldenLists(t *testing.T) map[session.ListKind][]json.RawMessage {
	t.Helper()
	files := map[session.ListKind]string{
		session.ListTools:     "demo-tools.json",
		session.ListResources: "demo-resources.json",
		session.ListTemplates: "demo-templates.json",
		session.ListPrompts:   "demo-prompts.json",
	}
	lists := map[session.ListKind][]json.RawMessage{}
	for kind, name := range files {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		var items []json.RawMessage
		if err := json.Unmarshal(b, &items); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		lists[kind] = items
	}
	return lists
}
