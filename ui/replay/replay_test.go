package replay

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/session/transport"
	"github.com/mcpscope/mcpscope/ui"
)

// recordEcho records `mcpscope call echo text=hello` against the demo server with the
// built binary and returns the recording's path.
func recordEcho(t *testing.T) string {
	t.Helper()
	bin := sessiontest.BuildMCPScope(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "echo.jsonl")
	cmd := exec.Command(bin, "--record", file, "call", "echo", "text=hello")
	cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+filepath.Join(dir, "state"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("record: %v\n%s", err, out)
	}
	return file
}

// replayModel loads the recording at file and makes the report's model for a replay
// against the server command; the session is closed when the test ends.
func replayModel(t *testing.T, file string, command string, args ...string) *Model {
	t.Helper()
	tr, err := recordings.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	ig, err := recordings.NewIgnore(recordings.DefaultIgnores...)
	if err != nil {
		t.Fatal(err)
	}
	s := session.New(session.Config{
		Transport: transport.NewStdio(transport.StdioOptions{Command: command, Args: args}),
		Responder: recordings.NewResponder(tr, nil),
		Protocol:  tr.Header.Protocol,
	})
	t.Cleanup(func() { _ = s.Close() })
	return New(ui.NewCommon(nil), Options{Transcript: tr, Session: s, Target: filepath.Base(command),
		Replay: recordings.ReplayOptions{Ignore: ig, Unanswered: 2 * time.Second}})
}

// runReplay runs the model's replay (the command Init starts) and hands it the outcome.
func runReplay(t *testing.T, m *Model) {
	t.Helper()
	msg := RunCmd(m.ctx, m.opts, nil)()
	if done, ok := msg.(doneMsg); !ok || done.err != nil {
		t.Fatalf("replay: %#v", msg)
	}
	m.Update(msg)
}

// marked returns the marked lines of a response.
func marked(lines []rline) []string {
	var out []string
	for _, l := range lines {
		if l.mark {
			out = append(out, l.text)
		}
	}
	return out
}

// TestReplayReportChanged replays a recording of the demo against a server whose echo tool
// answers differently: the summary counts one difference, the tools/call is selected, and
// its two responses are shown side by side (one at a time when narrow) with exactly the
// differing line marked on each side.
func TestReplayReportChanged(t *testing.T) {
	file := recordEcho(t)
	m := replayModel(t, file, sessiontest.BuildChangedServer(t))
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 40})
	if scr := ansi.Strip(m.Render()); !strings.Contains(scr, "replaying…") {
		t.Errorf("before the outcome the screen does not say the replay runs:\n%s", scr)
	}
	runReplay(t, m)
	rep, err := m.Report()
	if err != nil || rep == nil || rep.Same() {
		t.Fatalf("report %v, error %v: want differences", rep, err)
	}
	scr := ansi.Strip(m.Render())
	status := strings.Split(scr, "\n")[0]
	if !strings.Contains(status, "same, 1 different") {
		t.Errorf("status bar lacks the summary: %q", status)
	}
	if sel := rep.Results[m.cur]; sel.Method != "tools/call" || sel.Status != recordings.StatusDifferent || len(sel.Differences) != 1 {
		t.Fatalf("selected %+v, want the different tools/call", sel)
	}
	if screenRow(scr, "tools/call", "different", "1") == "" || screenRow(scr, "tools/list", "same", "0") == "" {
		t.Errorf("the list lacks the requests' rows:\n%s", scr)
	}
	if !strings.Contains(scr, `/result/content/0/text: "hello" → "hello (changed)"`) {
		t.Errorf("the difference is not listed:\n%s", scr)
	}
	row := screenRow(scr, `"text": "hello" `, `"text": "hello (changed)"`)
	if row == "" {
		t.Errorf("the two responses are not side by side:\n%s", scr)
	}
	rec, live := m.lines()
	if got := marked(rec); len(got) != 1 || !strings.Contains(got[0], `"text": "hello"`) {
		t.Errorf("recorded response: marked lines %q, want the text alone", got)
	}
	if got := marked(live); len(got) != 1 || !strings.Contains(got[0], `"text": "hello (changed)"`) {
		t.Errorf("live response: marked lines %q, want the text alone", got)
	}
	styled := m.Render()
	for l := range strings.SplitSeq(styled, "\n") {
		if strings.Contains(ansi.Strip(l), `"text": "hello (changed)"`) && !strings.Contains(l, "▌") {
			t.Errorf("the differing live line is not marked: %q", ansi.Strip(l))
		}
	}

	// Narrow: one response at a time, v switches.
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	if !m.keys.Side.Enabled() {
		t.Errorf("the side key is disabled in a narrow terminal")
	}
	scr = ansi.Strip(m.Render())
	if !strings.Contains(scr, "recorded response") || strings.Contains(scr, "hello (changed)\"") && strings.Contains(scr, "live response") {
		t.Errorf("narrow: the recorded response is not shown alone:\n%s", scr)
	}
	m.Update(keyPress("v"))
	scr = ansi.Strip(m.Render())
	if !strings.Contains(scr, "live response") || screenRow(scr, "▌", `"text": "hello (changed)"`) == "" {
		t.Errorf("v does not show the live response with its difference marked:\n%s", scr)
	}
	// Down selects the next request; its lines replace the ones shown.
	m.Update(keyPress("G"))
	if m.cur != len(rep.Results)-1 {
		t.Errorf("G selects request %d of %d", m.cur, len(rep.Results))
	}
	if _, cmd := m.Update(keyPress("q")); cmd == nil {
		t.Errorf("q does not quit")
	}
}

// TestReplayReportSame replays the recording against the demo itself: every request is
// the same and nothing is marked.
func TestReplayReportSame(t *testing.T) {
	file := recordEcho(t)
	m := replayModel(t, file, sessiontest.BuildMCPScope(t), "demo")
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	runReplay(t, m)
	rep, _ := m.Report()
	if !rep.Same() {
		t.Fatalf("replay against the demo differs: %+v", rep.Results)
	}
	if status := strings.Split(ansi.Strip(m.Render()), "\n")[0]; strings.Contains(status, "different") || !strings.Contains(status, "same") {
		t.Errorf("status bar: %q", status)
	}
	rec, live := m.lines()
	if len(marked(rec))+len(marked(live)) != 0 {
		t.Errorf("lines marked in a replay without differences")
	}
}

// TestResponseLinesMarks marks the lines of a differing place, found by their JSON
// pointers (member names with / and ~, elements, empty containers), and nothing else; a
// response that is not JSON is shown as it is, all of it marked when the whole differs.
func TestResponseLinesMarks(t *testing.T) {
	p := ui.NewStyles(true).JSON()
	raw := json.RawMessage(`{"a/b":[1,{"c~":"<x>"}],"e":{},"f":[]}`)
	got := responseLines(p, raw, []recordings.Difference{{Path: "/a~1b/1"}}, 80, "")
	want := []rline{
		{text: `{`},
		{text: `  "a/b": [`},
		{text: `    1,`},
		{text: `    {`, mark: true},
		{text: `      "c~": "<x>"`, mark: true},
		{text: `    }`, mark: true},
		{text: `  ],`},
		{text: `  "e": {},`},
		{text: `  "f": []`},
		{text: `}`},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d lines, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		if got[i].text != want[i].text || got[i].mark != want[i].mark || ansi.Strip(got[i].styled) != got[i].text {
			t.Errorf("line %d: got %q marked %v, want %q marked %v", i, got[i].text, got[i].mark, want[i].text, want[i].mark)
		}
	}
	if l := responseLines(p, json.RawMessage("not json\nat all"), []recordings.Difference{{Path: ""}}, 80, ""); len(l) != 2 || !l[0].mark || !l[1].mark {
		t.Errorf("text that is not JSON: %+v", l)
	}
	if l := responseLines(p, nil, nil, 80, "(none)"); len(l) != 1 || l[0].text != "(none)" {
		t.Errorf("no response: %+v", l)
	}
}

// TestReplayLayout checks the report's layout at a few sizes.
func TestReplayLayout(t *testing.T) {
	for _, c := range []struct {
		w, h, results, diffs int
		want                 layout
	}{
		{80, 24, 3, 1, layout{w: 80, h: 24, listRows: 3, respH: 15, colW: 80}},
		{80, 24, 40, 1, layout{w: 80, h: 24, listRows: 7, respH: 11, colW: 80}},
		{160, 48, 3, 4, layout{w: 160, h: 48, listRows: 3, respH: 36, wide: true, colW: 79}},
		{20, 3, 5, 4, layout{w: 20, h: 3, listRows: 3, colW: 20}},
	} {
		if got := computeLayout(c.w, c.h, c.results, c.diffs); got != c.want {
			t.Errorf("%d×%d, %d results, %d difference lines: %+v, want %+v", c.w, c.h, c.results, c.diffs, got, c.want)
		}
	}
}

// noInit runs a Model without its Init, which would start a real replay.
type noInit struct{ *Model }

// Init does nothing.
func (noInit) Init() tea.Cmd { return nil }

// goldenReport is the report of replaying a recorded `call echo text=hello` against a
// server whose echo tool appends " (changed)".
func goldenReport() *recordings.Report {
	raw := func(s string) json.RawMessage { return json.RawMessage(s) }
	return &recordings.Report{Recording: "echo.jsonl", Results: []recordings.Result{
		{N: 0, Seq: 1, Method: "initialize", Status: recordings.StatusSame,
			Recorded: raw(`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{"listChanged":true}},"serverInfo":{"name":"mcpscope-demo","version":"1.0.0"}}}`),
			Live:     raw(`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{"listChanged":true}},"serverInfo":{"name":"mcpscope-demo","version":"1.0.0"}}}`)},
		{N: 1, Seq: 5, Method: "tools/list", Status: recordings.StatusSame,
			Recorded: raw(`{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]}}`),
			Live:     raw(`{"jsonrpc":"2.0","id":1000001,"result":{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]}}`)},
		{N: 2, Seq: 7, Method: "tools/call", Status: recordings.StatusDifferent,
			Differences: []recordings.Difference{{Path: "/result/content/0/text", Recorded: raw(`"hello"`), Live: raw(`"hello (changed)"`)}},
			Recorded:    raw(`{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"hello"}],"structuredContent":{"text":"hello"}}}`),
			Live:        raw(`{"jsonrpc":"2.0","id":1000002,"result":{"content":[{"type":"text","text":"hello (changed)"}],"structuredContent":{"text":"hello"}}}`)},
	}}
}

// TestGoldenReplay renders the report of a replay with one difference, selected, at 80×24
// (one response at a time; the live one after v) and 160×48 (side by side).
func TestGoldenReplay(t *testing.T) {
	for _, sc := range []struct {
		name string
		w, h int
		keys []string
	}{
		{"recorded_80x24", 80, 24, nil},
		{"live_80x24", 80, 24, []string{"v"}},
		{"side_by_side_160x48", 160, 48, nil},
	} {
		t.Run(sc.name, func(t *testing.T) {
			m := New(ui.NewCommon(nil), Options{Transcript: &recordings.Transcript{Path: "echo.jsonl"}, Target: "changedserver"})
			tm := teatest.NewTestModel(t, noInit{m},
				teatest.WithInitialTermSize(sc.w, sc.h),
				teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)),
			)
			tm.Send(doneMsg{rep: goldenReport()})
			for _, k := range sc.keys {
				tm.Send(keyPress(k))
			}
			if err := tm.Quit(); err != nil {
				t.Fatal(err)
			}
			tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
			screen := ansi.Strip(m.Render())
			checkScreenSize(t, screen, sc.w, sc.h)
			golden.RequireEqual(t, screen+"\n")
		})
	}
}

// TestReplayJSONAsInspector: the report draws a response's JSON exactly as the inspector
// does (ui.ColorizeJSON, the one palette), in the dark and the light palette.
func TestReplayJSONAsInspector(t *testing.T) {
	for _, dark := range []bool{true, false} {
		s := ui.NewStyles(dark)
		for _, r := range goldenReport().Results {
			for _, raw := range []json.RawMessage{r.Recorded, r.Live} {
				var styled []string
				for _, l := range responseLines(s.JSON(), raw, nil, 1000, "") {
					styled = append(styled, l.styled)
				}
				if got, want := strings.Join(styled, "\n"), ui.ColorizeJSON(s, raw, true); got != want {
					t.Errorf("dark %v, %s: the report draws\n%q\nthe inspector\n%q", dark, raw, got, want)
				}
			}
		}
	}
}

// TestReplayDiffWraps: a difference longer than the screen is wrapped under a hanging
// indent, whole, at 80 columns, and the responses below make room for its lines.
func TestReplayDiffWraps(t *testing.T) {
	rep := goldenReport()
	long := `"` + strings.Repeat("a long answer that changed ", 8) + `"`
	rep.Results[2].Differences[0].Live = json.RawMessage(long)
	m := New(ui.NewCommon(nil), Options{Transcript: &recordings.Transcript{Path: "echo.jsonl"}, Target: "changedserver"})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m.Update(doneMsg{rep: rep})
	screen := ansi.Strip(m.Render())
	checkScreenSize(t, screen, 80, 24)
	var diff []string
	in := false
	for _, l := range strings.Split(screen, "\n") {
		switch {
		case strings.HasPrefix(l, "#2 tools/call"):
			in = true
		case in && strings.HasPrefix(l, "    "):
			diff = append(diff, strings.TrimSpace(l))
		case in && strings.HasPrefix(l, "  /result"):
			diff = append(diff, strings.TrimSpace(l))
		case in:
			in = false
		}
	}
	if len(diff) < 3 || !strings.Contains(strings.Join(diff, " "), strings.TrimSpace(strings.Repeat("a long answer that changed ", 7))) {
		t.Errorf("the difference is not wrapped whole (%d lines):\n%s", len(diff), screen)
	}
	if m.lay.respH != 24-2-1-m.lay.listRows-2-len(diff) {
		t.Errorf("the responses have %d lines, which does not leave room for %d lines of difference", m.lay.respH, len(diff))
	}
}
