package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/secret"
	"github.com/mcpscope/mcpscope/ui/internal/common"
	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
)

// Detail actions: each is a command; Update only captures what it needs.
const (
	actPager = iota
	actEditor
	actSave
	actCopy
)

// payload is what an action hands on, captured in Update. The frame bytes are immutable, so
// a command may read them; the pretty form is computed in the command.
type payload struct {
	data []byte // exact wire bytes of a frame, or the plain text of a description
	json bool   // data is JSON: pager, editor and copy get it pretty-printed
	wire bool   // raw mode: pager, editor and copy get the wire bytes as they are
	seq  uint64 // event number, for file names
	name string // method or event kind, for file names
	mask *secret.Masker

	// load reads the whole frame back when data is only the head of a frame held cut.
	load func(ctx context.Context) (*session.Event, error)
	// partial, when data is the head of a frame held cut that cannot be read back, says so.
	partial string
	// as is the file name the user chose ("": fileName's default).
	as string
}

// whole is p with the whole frame in data, read back from the recording when p holds only
// its head (in the command, off the UI loop).
func (p payload) whole() (payload, error) {
	if p.load == nil {
		return p, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), fullTimeout)
	defer cancel()
	ev, err := p.load(ctx)
	if err != nil {
		return p, fmt.Errorf("could not read the full frame back from the recording: %w", err)
	}
	p.data, p.load = ev.Frame.Raw, nil
	return p, nil
}

// note is what a status message adds for a frame held cut whose head alone was handed on.
func (p payload) note() string {
	if p.partial == "" {
		return ""
	}
	return " (" + p.partial + ")"
}

// payload captures what the actions work on: the shown frame, or the shown description.
func (d *Detail) payload() (payload, bool) {
	if d.showsFailure() {
		return payload{data: []byte(d.failure), name: "failure"}, true
	}
	e := d.target()
	if e == nil {
		return payload{}, false
	}
	if _, url, ok := session.AppHostedURL(e.Ev); ok {
		return payload{data: []byte(url), name: "app-url", seq: e.Ev.Seq}, true // the address, whole
	}
	if !d.isFrame(e) {
		b := newTextBlock(d.c.Styles, 100)
		eventText(b, e)
		var sb strings.Builder
		for _, l := range b.lines {
			sb.WriteString(strings.TrimRight(ansi.Strip(l), " "))
			sb.WriteByte('\n')
		}
		p := payload{data: []byte(sb.String()), name: "marker"}
		if e.Ev != nil {
			p.seq, p.name = e.Ev.Seq, e.Ev.Kind.String()
		}
		return p, true
	}
	f := e.Ev.Frame
	name := f.Method
	if name == "" {
		name = e.Ev.Corr.Method
	}
	if name == "" {
		name = f.Kind.String()
	}
	pl := payload{data: f.Raw, json: frameIsJSON(f), wire: d.raw, seq: e.Ev.Seq, name: name}
	if b, ok := d.delivered(e); ok {
		pl.data, pl.json = b, json.Valid(b)
		if isCutNote(b) {
			pl.partial = "only the first " + textfmt.Bytes(int64(len(b))) + " of the edit were kept"
		}
		return pl, true
	}
	switch {
	case e.Clipped > 0 && d.full.Load != nil:
		pl.load, pl.json = d.full.Load(e), true
	case e.Clipped > 0:
		pl.partial = "only the first " + textfmt.Bytes(int64(len(f.Raw))) + " of " + textfmt.Bytes(e.Clipped) + " were kept in memory"
	}
	return pl, true
}

// text is what the pager, the editor and the clipboard get, secrets masked.
func (p payload) text() []byte {
	if p.json && !p.wire {
		if pretty, err := prettyJSON(p.data); err == nil {
			return p.mask.Bytes(append(pretty, '\n'))
		}
	}
	return p.exact()
}

// exact is the bytes as they are, secrets masked: what a saved file gets.
func (p payload) exact() []byte { return p.mask.Bytes(p.data) }

// fileName is "mcpscope-<seq>-<method>.json" (.txt when the bytes are not JSON).
func (p payload) fileName() string {
	if p.as != "" {
		return p.as
	}
	ext := ".txt"
	if p.json {
		ext = ".json"
	}
	return fmt.Sprintf("mcpscope-%d-%s%s", p.seq, common.SafeName(p.name), ext)
}

// action starts one action on what the pane shows.
func (d *Detail) action(which int) tea.Cmd {
	p, ok := d.payload()
	if !ok {
		return statusCmd("nothing to hand on: select a row first", true)
	}
	p.mask = d.c.FileMask
	switch which {
	case actPager:
		return viewCmd("PAGER", [][]string{{"less", "-R"}, {"more"}}, p)
	case actEditor:
		return viewCmd("EDITOR", [][]string{{"vi"}, {"nano"}}, p)
	case actSave:
		return askSaveFrameCmd(p)
	}
	return copyCmd(p)
}

// copyCmd puts the text on the clipboard (a clipboard command, or OSC 52 through the
// terminal: see clipboardCmd).
func copyCmd(p payload) tea.Cmd {
	return func() tea.Msg {
		p, err := p.whole()
		if err != nil {
			return StatusMsg{Text: "not copied: " + err.Error(), Error: true}
		}
		return clipboardMsg(p.text(), p.note())
	}
}

// saveFrameAskMsg asks the model for the file to save a frame to.
type saveFrameAskMsg struct{ p payload }

// askSaveFrameCmd asks for a file name before saving the frame p.
func askSaveFrameCmd(p payload) tea.Cmd {
	return func() tea.Msg { return saveFrameAskMsg{p} }
}

// saveCmd writes the exact bytes to a new file in dir and reports its path.
func saveCmd(dir string, p payload) tea.Cmd {
	return func() tea.Msg {
		p, err := p.whole()
		if err != nil {
			return StatusMsg{Text: "not saved: " + err.Error(), Error: true}
		}
		path, err := common.SaveFile(dir, p.fileName(), p.exact())
		if err != nil {
			return StatusMsg{Text: "save: " + err.Error(), Error: true}
		}
		return StatusMsg{Text: fmt.Sprintf("saved %s bytes to %s%s", textfmt.Commas(int64(len(p.exact()))), path, p.note())}
	}
}

// viewCmd writes the text to a temporary file and opens it with $env (or the first of the
// defaults found), handing the terminal over while it runs; the file is removed after.
func viewCmd(env string, defaults [][]string, p payload) tea.Cmd {
	return func() tea.Msg {
		argv, err := viewerArgv(env, defaults, os.Getenv, exec.LookPath)
		if err != nil {
			return StatusMsg{Text: err.Error(), Error: true}
		}
		if p, err = p.whole(); err != nil {
			return StatusMsg{Text: err.Error(), Error: true}
		}
		ext := ".txt"
		if p.json && !p.wire {
			ext = ".json"
		}
		f, err := os.CreateTemp("", "mcpscope-*"+ext)
		if err != nil {
			return StatusMsg{Text: "temporary file: " + err.Error(), Error: true}
		}
		path := f.Name()
		_, werr := f.Write(p.text())
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			_ = os.Remove(path)
			return StatusMsg{Text: "temporary file: " + werr.Error(), Error: true}
		}
		c := exec.Command(argv[0], append(argv[1:], path)...)
		return tea.ExecProcess(c, func(err error) tea.Msg {
			return tea.BatchMsg{removeCmd(path, argv[0], err)}
		})()
	}
}

// removeCmd removes the temporary file after the viewer ended, reporting a failed viewer.
func removeCmd(path, viewer string, runErr error) tea.Cmd {
	return func() tea.Msg {
		_ = os.Remove(path)
		if runErr != nil {
			return StatusMsg{Text: viewer + ": " + runErr.Error(), Error: true}
		}
		return nil
	}
}

// viewerArgv is the command line of the user's pager or editor: $env split on spaces, or
// the first default that is installed.
func viewerArgv(env string, defaults [][]string, getenv func(string) string, look func(string) (string, error)) ([]string, error) {
	if v := strings.Fields(getenv(env)); len(v) > 0 {
		if _, err := look(v[0]); err != nil {
			return nil, fmt.Errorf("$%s is %q, which cannot be run: %v", env, strings.Join(v, " "), err)
		}
		return v, nil
	}
	var tried []string
	for _, d := range defaults {
		if _, err := look(d[0]); err == nil {
			return d, nil
		}
		tried = append(tried, d[0])
	}
	return nil, fmt.Errorf("no %s found (tried %s): set $%s", strings.ToLower(env), strings.Join(tried, ", "), env)
}
