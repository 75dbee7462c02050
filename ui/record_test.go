package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/session/transport"
)

// readRecording returns the events of the recording at path with their generations.
func readRecording(t *testing.T, path string) []recordings.Entry {
	t.Helper()
	r, err := recordings.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if p := r.Problems(); len(p) > 0 {
		t.Errorf("%s: problems %v", path, p)
	}
	out := make([]recordings.Entry, r.Len())
	for i := range out {
		if out[i], err = r.Entry(i); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// TestModelRecordsByDefault runs the demo server in a model that records to a new file in
// a data directory, restarts it once, and checks that the file holds both sessions, each
// under its generation, and that the status bar names the file.
func TestModelRecordsByDefault(t *testing.T) {
	bin := sessiontest.BuildMCPScope(t)
	dir := t.TempDir()
	w, path, err := recordings.CreateIn(dir, recordings.Header{Server: "mcpscope demo", Transport: "stdio"}, recordings.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(path) != dir {
		t.Fatalf("recording %s is not in the data directory %s", path, dir)
	}
	rec := NewRecorder(path, w)
	m := NewModel(NewCommon(nil), Options{Target: "mcpscope demo", TransportName: "stdio", Recorder: rec,
		NewSession: func() (*session.Session, error) {
			return session.New(session.Config{Transport: transport.NewStdio(transport.StdioOptions{Command: bin, Args: []string{"demo"}})}), nil
		}})
	d := newDriver(t, m)
	d.handle(tea.WindowSizeMsg{Width: 160, Height: 40})
	d.run(m.Init())
	listed := func() bool {
		return m.state == session.StateReady && screenRow(plainScreen(m), "res", "tools/list") != ""
	}
	d.until(60*time.Second, "the first session's tools/list", listed)
	if status := strings.Split(plainScreen(m), "\n")[0]; !strings.Contains(status, "● rec "+filepath.Base(path)) {
		t.Errorf("the status bar does not name the recording: %q", status)
	}
	d.handle(tea.KeyPressMsg{Code: 'R', Text: "R"})
	d.until(60*time.Second, "the second session's tools/list", func() bool { return m.gen == 2 && listed() })
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	gens := map[int]int{}
	for _, e := range readRecording(t, path) {
		gens[e.Gen]++
	}
	if gens[1] == 0 || gens[2] == 0 || len(gens) != 2 {
		t.Errorf("events per generation in the recording: %v; want sessions 1 and 2", gens)
	}
}

// TestPrune keeps the newest recordings within a count and a total size; the new one
// always stays.
func TestPrune(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	var paths []string
	for i, size := range []int{100, 200, 300, 400, 500} { // oldest first
		p := filepath.Join(dir, "mcpscope-"+string(rune('a'+i))+".jsonl")
		if err := os.WriteFile(p, make([]byte, size), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, now, now.Add(time.Duration(i-10)*time.Minute)); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	other := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(other, make([]byte, 5000), 0o600); err != nil {
		t.Fatal(err)
	}
	removed, err := recordings.Prune(dir, 4, 0, paths[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(removed) != 1 || removed[0] != paths[1] {
		t.Errorf("keep 4 with the oldest spared removed %v, want %v", removed, paths[1:2])
	}
	removed, err = recordings.Prune(dir, 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	// Newest first: 500 + 400 = 900 fit; 300 does not, 100 (the oldest) does.
	if strings.Join(removed, ",") != paths[2] {
		t.Errorf("a 1000-byte limit removed %v, want %v", removed, paths[2:3])
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("a file that is not a recording was touched: %v", err)
	}
}

// saveAs opens the save prompt, replaces the offered name with path, and saves.
func saveAs(t *testing.T, m *Model, path string) string {
	t.Helper()
	m.Update(tea.KeyPressMsg{Code: 'w', Mod: tea.ModCtrl})
	if dialogOf[*saveDialog](m) == nil || !strings.Contains(plainScreen(m), "save session to: mcpscope-session-") {
		t.Fatalf("ctrl+w does not ask for a file name:\n%s", plainScreen(m))
	}
	dialogOf[*saveDialog](m).input.SetValue(path)
	var status string
	_, cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	for cmd != nil {
		msg := cmd()
		if s, ok := msg.(StatusMsg); ok {
			status = s.Text
			break
		}
		_, cmd = m.Update(msg)
	}
	return status
}

// TestModelSave saves the whole session from memory, then only the rows the filter shows:
// both are recordings with exactly those events.
func TestModelSave(t *testing.T) {
	dir := t.TempDir()
	m := newTimelineModel(t, Options{RecordHeader: recordings.Header{Server: "demo", Transport: "stdio"}}, 100, 30)
	w := newEvWire()
	evs := mixedTraffic(w, 60)
	feedEvents(m, evs...)

	all := filepath.Join(dir, "all.jsonl")
	if st := saveAs(t, m, all); !strings.Contains(st, "saved 60 events") {
		t.Fatalf("status after saving: %q", st)
	}
	got := readRecording(t, all)
	if len(got) != len(evs) {
		t.Fatalf("saved %d events, want %d", len(got), len(evs))
	}
	for i, e := range got {
		if e.Event.Seq != evs[i].Seq || rawOf(e.Event) != rawOf(evs[i]) || e.Gen != 1 {
			t.Fatalf("event %d: seq %d gen %d, want seq %d gen 1", i, e.Event.Seq, e.Gen, evs[i].Seq)
		}
	}

	pressKey(m, "/")
	typeKeys(m, "kind:error")
	pressKey(m, "enter")
	want := m.timeline.Visible()
	errs := filepath.Join(dir, "errors.jsonl")
	if st := saveAs(t, m, errs); !strings.Contains(st, "saved") {
		t.Fatalf("status after saving the filtered rows: %q", st)
	}
	got = readRecording(t, errs)
	if len(got) != want || want == 0 {
		t.Fatalf("saved %d filtered events, want %d", len(got), want)
	}
	for _, e := range got {
		if f := e.Event.Frame; f == nil || !strings.Contains(string(f.Raw), `"error"`) {
			t.Errorf("a saved row does not pass kind:error: %s", f.Raw)
		}
	}
	if st := saveAs(t, m, errs); !strings.Contains(st, "already exists") {
		t.Errorf("saving over an existing file says %q", st)
	}
}

// TestModelSaveCopiesRecording saves a recorded session: the copy is the recording so far.
func TestModelSaveCopiesRecording(t *testing.T) {
	dir := t.TempDir()
	w, path, err := recordings.CreateIn(dir, recordings.Header{Server: "demo"}, recordings.Options{})
	if err != nil {
		t.Fatal(err)
	}
	wire := newEvWire()
	evs := mixedTraffic(wire, 30)
	for _, e := range evs {
		if err := w.WriteGen(e, 1); err != nil {
			t.Fatal(err)
		}
	}
	rec := NewRecorder(path, w)
	t.Cleanup(func() { _ = rec.Close() })
	m := newTimelineModel(t, Options{Recorder: rec, HistoryLimit: 20}, 400, 30)
	feedEvents(m, evs...)
	scr := plainScreen(m)
	if m.hist.Dropped == 0 || !strings.Contains(scr, "older rows on disk") || strings.Contains(scr, "dropped from memory") {
		t.Errorf("the status bar does not say the dropped rows are on disk:\n%s", scr)
	}
	if first := strings.Split(scr, "\n")[1]; !strings.Contains(first, "older rows in "+path+" — mcpscope open "+path) {
		t.Errorf("the timeline's first line does not name the recording:\n%s", scr)
	}
	out := filepath.Join(dir, "copy.jsonl")
	if st := saveAs(t, m, out); !strings.Contains(st, "saved 30 events") {
		t.Fatalf("status: %q", st)
	}
	if got := readRecording(t, out); len(got) != 30 {
		t.Errorf("the copy holds %d events, want 30", len(got))
	}
}

// rawOf is a frame's bytes, or another event's text.
func rawOf(e *session.Event) string {
	if e.Frame == nil {
		return e.Text
	}
	return string(e.Frame.Raw)
}

// TestModelNamesRecording checks that the recording's full path can be found at 80 columns,
// where the status bar shows only "● rec": on the server page and in the help overlay.
func TestModelNamesRecording(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state", "mcpscope", "recordings")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	w, path, err := recordings.CreateIn(dir, recordings.Header{Server: "demo"}, recordings.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rec := NewRecorder(path, w)
	t.Cleanup(func() { _ = rec.Close() })
	m := newTimelineModel(t, Options{Recorder: rec}, 80, 24)
	flat := func() string { return strings.ReplaceAll(strings.ReplaceAll(plainScreen(m), "\n", ""), " ", "") }
	if strings.Contains(flat(), path) {
		t.Fatalf("the traffic page at 80 columns already shows the path; the test proves nothing")
	}
	pressKey(m, "3")
	if scr := plainScreen(m); !strings.Contains(scr, "recording") || !strings.Contains(flat(), path) {
		t.Errorf("the server page does not name the recording %s:\n%s", path, scr)
	}
	pressKey(m, "?")
	for i := 0; i < 100 && !strings.Contains(flat(), path); i++ {
		pressKey(m, "down") // at 80 columns the help is one column: its end is scrolled to
	}
	if scr := plainScreen(m); !strings.Contains(flat(), path) {
		t.Errorf("the help overlay does not name the recording %s:\n%s", path, scr)
	}
}

// TestHelpRecordingPathWhole: the recording's path is on the help's first screen, at the
// whole width under its title (it was the last block of a column, cut by the screen's last
// line at 160×45): on one line at 160 columns, in pieces ending after a slash at 80, even in
// a directory of wide characters; nothing needs scrolling.
func TestHelpRecordingPathWhole(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "記録記録記録記録記録記録", "state", "mcpscope", "recordings")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	w, path, err := recordings.CreateIn(dir, recordings.Header{Server: "demo"}, recordings.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rec := NewRecorder(path, w)
	t.Cleanup(func() { _ = rec.Close() })
	for _, size := range [][2]int{{160, 45}, {160, 24}, {80, 24}} {
		m := newTimelineModel(t, Options{Recorder: rec}, size[0], size[1])
		pressKey(m, "?")
		scr := plainScreen(m)
		pieces := cutPath(path, size[0]-3)
		if strings.Join(pieces, "") != path {
			t.Fatalf("cut path %q", pieces)
		}
		if size[0] == 160 && len(pieces) != 1 {
			t.Errorf("%dx%d: the path is cut into %q, want one line", size[0], size[1], pieces)
		}
		for _, p := range pieces {
			if !strings.Contains(scr, p) {
				t.Errorf("%dx%d: the help's first screen lacks the path's piece %q:\n%s", size[0], size[1], p, scr)
			}
		}
	}
}

// TestCutPath cuts at slashes where it can and within a name where it must, by cells.
func TestCutPath(t *testing.T) {
	tests := []struct {
		path string
		w    int
		want []string
	}{
		{"/a/b/c.jsonl", 20, []string{"/a/b/c.jsonl"}},
		{"/home/user/state/file.jsonl", 12, []string{"/home/user/", "state/", "file.jsonl"}},
		{"/verylongdirectoryname/x", 8, []string{"/verylon", "gdirecto", "ryname/x"}},
		{"/記録記録/f", 5, []string{"/記録", "記録/", "f"}},
	}
	for _, tt := range tests {
		got := cutPath(tt.path, tt.w)
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("cutPath(%q, %d) = %q, want %q", tt.path, tt.w, got, tt.want)
		}
		for _, p := range got {
			if ansi.StringWidth(p) > tt.w {
				t.Errorf("cutPath(%q, %d): %q is wider than %d", tt.path, tt.w, p, tt.w)
			}
		}
	}
}

// TestHelpListsFormKeys: the full help lists the form's keys (its ctrl keys are the only
// way to act on a field that takes text), and at 160 columns its columns take the width,
// so no description of the keymap is cut.
func TestHelpListsFormKeys(t *testing.T) {
	m := newTimelineModel(t, Options{}, 160, 60)
	pressKey(m, "?")
	scr := plainScreen(m)
	for _, want := range []string{"Form", "ctrl+n", "new item", "ctrl+k", "delete item", "ctrl+z", "undo", "ctrl+x", "clear field"} {
		if !strings.Contains(scr, want) {
			t.Errorf("the help lacks %q:\n%s", want, scr)
		}
	}
	if strings.Contains(scr, "call tool · get prompt · read …") {
		t.Errorf("a description is cut at 160 columns:\n%s", scr)
	}
}
