package ui

import (
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/session"
	"github.com/mcpscope/mcpscope/session/sessiontest"
	"github.com/mcpscope/mcpscope/ui/internal/jsonview"
)

// The escapeserver's hostile pieces (testdata/escapeserver) as every view shows them.
const (
	shownClip   = `\x1b]52;c;ZXZpbA==\x07`
	shownClear  = `\x1b[2J`
	shownLink   = `\x1b]8;;https://evil.example/\x07`
	shownC1     = `\u009b31m`
	shownHidden = `\u200b\u202e\u2066\U000e0041\ufe0f\u00ad`
)

// sgr matches the select-graphic-rendition sequences the views style text with.
var sgr = regexp.MustCompile("\x1b\\[[0-9;:]*m")

// rawControls lists what a rendered screen carries raw that a terminal must not get: any
// escape sequence but the views' own styling, and every character jsonview.EscapeRune
// escapes (line feeds apart).
func rawControls(screen string) []string {
	var bad []string
	rest := sgr.ReplaceAllString(screen, "")
	if i := strings.IndexByte(rest, 0x1b); i >= 0 {
		bad = append(bad, strings.ToValidUTF8(rest[i:min(len(rest), i+12)], "?"))
	}
	for _, l := range strings.Split(rest, "\n") {
		for _, sp := range jsonview.AppendEscaped(nil, l, "", "e") {
			if sp.SGR != "" {
				bad = append(bad, sp.Text)
			}
		}
	}
	return bad
}

// escapeModel runs the model on the escapeserver until its lists are in.
func escapeModel(t *testing.T, w, h int) (*Model, *driver) {
	t.Helper()
	m := NewModel(NewCommon(nil), stdioOptions(t, "escapeserver", sessiontest.BuildEscapeServer(t), nil, nil))
	d := newDriver(t, m)
	d.handle(tea.WindowSizeMsg{Width: w, Height: h})
	d.run(m.Init())
	d.until(60*time.Second, "the explorer's lists", func() bool {
		return m.explorer.Loaded() && m.explorer.Items(session.ListTools) > 0
	})
	return m, d
}

// TestEscapesVisibleEverywhere: metadata holding escape sequences (a clipboard write, a
// screen clear, a hyperlink), C1 controls and characters that hide or reorder text reaches
// no screen raw and shows, escaped the same way, in the status bar, the timeline's rows,
// the explorer's lists and details (tools, resources, templates, prompts, schemas), the
// server page, a call's form and rows, and the detail pane.
func TestEscapesVisibleEverywhere(t *testing.T) {
	m, d := escapeModel(t, 160, 48)
	check := func(view string, wants ...string) {
		t.Helper()
		screen := m.Render()
		if bad := rawControls(screen); len(bad) > 0 {
			t.Errorf("%s: raw on the screen: %q", view, bad)
		}
		plain := plainScreen(m)
		for _, want := range wants {
			if !strings.Contains(plain, want) {
				t.Errorf("%s: the screen lacks %s:\n%s", view, want, plain)
			}
		}
		// The escapes are set apart from text that only looks like them.
		if !strings.Contains(screen, jsonview.MarkOn+`\x1b`+jsonview.MarkOff) && !strings.Contains(screen, jsonview.MarkOn+`\x07`) {
			t.Errorf("%s: no escape is set apart in reverse video", view)
		}
	}
	d.until(10*time.Second, "the handshake's state row", func() bool {
		return strings.Contains(plainScreen(m), "ready: escape"+shownClip+"server")
	})
	check("timeline", "server escape"+shownClip+"server 1.0"+shownC1, "ready: escape"+shownClip+"server 1.0"+shownC1)

	d.keys("2")
	d.selectItem(0, shownClip+"read_file")
	check("explorer tools", shownClip+"read_file", "Read"+shownClear+" a file"+shownHidden,
		"Reads a file."+shownLink+" Harmless."+shownC1, `"The path\u200b\u0007 to read\u001b]52;c;ZXZpbA==\u0007"`)
	d.selectItem(0, `read\u200bfile`)
	check("explorer second tool", `read\u200bfile`, `Zero\u2060width\u202ereversed\u2069 text`)
	d.selectItem(1, `file:///etc/`+shownClip+`passwd`)
	check("explorer resources", `file:///etc/`+shownClip+`passwd`, "Pass"+shownClear+"words", "The file"+shownLink)
	d.selectItem(2, `file:///{path}`+shownClip)
	check("explorer templates", `file:///{path}`+shownClip, `Any\u200bfile`, "A template"+shownHidden)
	d.selectItem(3, "greet"+shownClip)
	check("explorer prompts", "greet"+shownClip, `Greet\u202e`+shownC1, "Greets"+shownClear+shownHidden, `who\u200b`, "Whom"+shownClip)

	d.keys("3")
	check("server page", "escape"+shownClip+"server", "Escape"+shownHidden+"Server", "1.0"+shownC1,
		"Use"+shownLink+` this\x1b]8;;\x07 server.`+shownClear+shownHidden)

	// A call: the form names the tool, the row names its target, the result and the
	// request's JSON show the escapes.
	d.keys("2")
	d.selectItem(0, shownClip+"read_file")
	d.keys("enter")
	if !m.explorer.FormOpen() {
		t.Fatalf("enter did not open the form:\n%s", plainScreen(m))
	}
	check("call form", "tools/call "+shownClip+"read_file", `The path\u200b\x07 to read`+shownClip)
	d.keys("ctrl+s")
	d.until(30*time.Second, "the call's result", func() bool {
		r := selectedCall(m)
		return r != nil && r.Done
	})
	check("call result", "tools/call "+shownClip+"read_file", "done"+shownClip+shownHidden)
	d.until(10*time.Second, "the call in the history", func() bool {
		e := selectedCall(m).Request
		return e != nil && e.Pair != nil
	})
	d.keys("T")
	d.until(10*time.Second, "the timeline after T", func() bool { return m.page == pageTraffic })
	// The row is cut at this width; the JSON keeps the server's own \u escapes and shows the
	// characters it sent raw as escapes.
	check("call rows and detail", "tools/call "+shownClip+"read_fi", `"text": "done\u001b]52;c;ZXZpbA==\u0007\u200b\u202e`)
	d.keys("w") // the wire bytes
	check("wire bytes", `"name":"\u001b]52;c;ZXZpbA==\u0007read_file"`, `\u0007`+shownHidden+`","type":"text"`)

	// At 80×24 the same screens, cut, still carry nothing raw.
	d.handle(tea.WindowSizeMsg{Width: 80, Height: 24})
	for _, k := range []string{"1", "2", "3"} {
		d.keys(k)
		if bad := rawControls(m.Render()); len(bad) > 0 {
			t.Errorf("80×24, page %s: raw on the screen: %q", k, bad)
		}
	}
}

// TestTaskLineEscapes: the tasks page's row of a task shows its id, tool, status and status
// message escaped, the columns in their places.
func TestTaskLineEscapes(t *testing.T) {
	r := &taskRow{tool: "read" + "\u200b" + "file", task: session.Task{ID: "t\x1b[2J1", Status: "working", StatusMessage: "copying" + "\x1b]52;c;ZXZpbA==\x07"}}
	now := time.Now()
	r.at = now
	line := taskLine(r, now, 120)
	if bad := rawControls(line); len(bad) > 0 {
		t.Errorf("raw in the task row: %q", bad)
	}
	plain := ansi.Strip(line)
	for _, want := range []string{`t\x1b[2J1`, `read\u200bfile`, "copying" + shownClip} {
		if !strings.Contains(plain, want) {
			t.Errorf("the task row lacks %s: %q", want, plain)
		}
	}
	if head := ansi.Strip(taskColumns("TASK", "TOOL", "STATUS", "UPDATED", "POLL", "MESSAGE", 120)); strings.Index(head, "TOOL") != strings.Index(plain, `read\u200bfile`) {
		t.Errorf("the tool column moved:\n%s\n%s", head, plain)
	}
}

// TestStatusMessageEscapes: a status message quoting the server (an error's message) shows
// its escapes in the footer, nothing raw.
func TestStatusMessageEscapes(t *testing.T) {
	m := newTimelineModel(t, Options{}, 100, 20)
	m.Update(StatusMsg{Text: "call failed: denied" + "\x1b]52;c;ZXZpbA==\x07", Error: true})
	screen := m.Render()
	if bad := rawControls(screen); len(bad) > 0 {
		t.Errorf("raw in the footer: %q", bad)
	}
	if !strings.Contains(ansi.Strip(screen), "call failed: denied"+shownClip) {
		t.Errorf("the footer lacks the escaped message:\n%s", ansi.Strip(screen))
	}
}
