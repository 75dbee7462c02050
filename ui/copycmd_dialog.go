package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session/auth"
)

var _ Dialog = (*commandDialog)(nil)

// commandDialog shows the command lines that reproduce a request outside the view, one
// chosen to copy.
type commandDialog struct {
	title  string
	cmds   []command
	cursor int
	note   string
}

// copyCommand opens the "copy as command" dialog on the selected row's request (a
// response's request), or says why there is none.
func (m *Model) copyCommand() tea.Cmd {
	e := m.timeline.Selected()
	if e != nil && e.Ev != nil && e.Ev.Dir == protocol.ServerToClient && e.Pair != nil {
		e = e.Pair
	}
	switch {
	case e == nil || e.Ev == nil || e.Ev.Frame == nil || e.Ev.Dir != protocol.ClientToServer:
		return statusCmd("select a request mcpscope sent (→ req) to copy it as a command", false)
	case e.Clipped > 0:
		return statusCmd("that request is held truncated in memory: its parameters are not all here to copy", true)
	}
	f := e.Ev.Frame
	info := reproInfo{revision: m.info.Revision, stateless: m.info.Stateless, transport: m.info.Transport,
		sessionID: m.info.SessionID, schema: m.explorer.ToolSchema}
	if st := m.auth.st; st.State == auth.StateAuthorized && st.TokenType != "" {
		info.oauth = st.TokenType
	}
	d := &commandDialog{title: "Copy " + describeFrame(f) + " as a command", cmds: reproduce(f, info, m.opts.Server, m.c.FileMask)}
	if m.opts.Recording != nil || m.opts.Live != nil {
		d.note = "the server selection flags are not known here: add them"
	} else if m.info.Transport == "sse" {
		d.note = "no curl line: HTTP+SSE posts to an endpoint its event stream names"
	} else if info.oauth == "DPoP" {
		d.note = "the curl line lacks the DPoP proof each request needs: use the mcpscope line"
	} else if info.oauth != "" {
		d.note = "curl: put the access token in " + tokenPlaceholder + " (mcpscope shows tokens only masked); the mcpscope line logs in by itself"
	}
	m.pushDialog(d)
	return nil
}

// describeFrame is "tools/call #3" or the kind of frame.
func describeFrame(f *protocol.Frame) string {
	switch {
	case f.Method != "" && !f.ID.IsZero():
		return f.Method + " #" + f.ID.String()
	case f.Method != "":
		return f.Method
	}
	return "the frame"
}

// Update implements Dialog: ↑/↓ choose, enter or y copies the chosen line, esc closes.
func (d *commandDialog) Update(m *Model, msg tea.Msg) (tea.Cmd, DialogResult) {
	kp, ok := msg.(tea.KeyPressMsg)
	k := m.c.Keys
	switch {
	case !ok:
		return nil, DialogPass
	case kp.String() == "ctrl+c":
		return nil, DialogPass
	case key.Matches(kp, k.Act.Dismiss):
		return nil, DialogCancel
	case key.Matches(kp, k.Down):
		d.cursor = min(d.cursor+1, len(d.cmds)-1)
	case key.Matches(kp, k.Up):
		d.cursor = max(d.cursor-1, 0)
	case key.Matches(kp, k.Open, k.Copy):
		line, note := []byte(d.cmds[d.cursor].Line), " (the "+d.cmds[d.cursor].Label+" line)"
		return func() tea.Msg { return clipboardMsg(line, note) }, DialogDone
	}
	return nil, DialogStay
}

// Draw implements Dialog: the lines over the body, wrapped, the chosen one marked.
func (d *commandDialog) Draw(m *Model, scr *Screen) {
	s := m.c.Styles
	iw, _ := bodyDialogSize(scr.Layout)
	out := []string{s.Bold.Render(escapeText(d.title))}
	for i, c := range d.cmds {
		mark, st := "  ", s.Muted
		if i == d.cursor {
			mark, st = s.Accent.Render("▸ "), s.Text
		}
		out = append(out, "", mark+s.PaneTitle.Render(c.Label))
		// Masked for the screen before it is wrapped (the screen's mask would shorten the
		// lines after): with --no-redact the line copied holds what the screen masks.
		for _, l := range strings.Split(ansi.Hardwrap(escapeText(m.c.Mask.String(c.Line)), max(10, iw-2), false), "\n") {
			out = append(out, "  "+st.Render(l))
		}
	}
	if d.note != "" {
		out = append(out, "", s.Muted.Render(d.note))
	}
	out = append(out, "", s.HelpDesc.Render("↑↓ choose · enter/y copy · esc close"))
	m.overlayDialog(scr, out)
}

// Keys implements Dialog.
func (d *commandDialog) Keys(m *Model) []key.Binding {
	k := m.c.Keys
	return []key.Binding{k.Up, k.Down, k.Copy, k.Act.Dismiss}
}

// SetSize implements Dialog (it is drawn at the size of the screen).
func (*commandDialog) SetSize(Layout) {}
