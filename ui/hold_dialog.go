package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/protocol"
	"github.com/mcpscope/mcpscope/session/fault"
	"github.com/mcpscope/mcpscope/session/secret"
)

var _ Dialog = (*holdDialog)(nil)

// holdDialog shows the oldest held message and takes the user's word on it: forward it,
// edit it then forward it, drop it, answer it (an error, or a result written in the
// editor), or continue all. It stays while any message is held: nothing is held without
// the user seeing it. The edited bytes are checked as JSON-RPC and flagged, not refused:
// a second ctrl+s sends them as they are.
type holdDialog struct {
	id        int    // the held message shown
	body      string // its bytes, indented (heldBody)
	editing   bool
	answering bool // the editor holds an answer to the message, not the message
	flagged   bool // the editor's text was flagged; the next ctrl+s sends it anyway
	editor    textarea.Model
	opened    string        // the editor's text as it opened: what undo goes back to
	hidden    secret.Hidden // the editor's text was masked before it was laid out: what its masks stand for
	problem   string
	width     int
	height    int // the dialog's inner height (SetSize)
}

// holdEditorHeight is the editor's height in a dialog ih lines high: at most 12, leaving
// room for the header, the label and a problem of a few lines (each wrapped, never cut).
func holdEditorHeight(ih int) int { return max(3, min(12, ih-9)) }

// heldBodyBound is the most bytes of a held message the dialog indents; beyond it the
// head is shown as it came.
const heldBodyBound = 64 << 10

// heldBody is a held message as the dialog shows it. Bounded: it indents at most
// heldBodyBound bytes, and cuts a longer message to its head.
func heldBody(raw []byte) string {
	lines := strings.Split(indented(raw), "\n")
	for i, l := range lines {
		lines[i] = escapeText(l)
	}
	return strings.Join(lines, "\n")
}

// indented is raw indented when it is JSON, as it came otherwise; cut to its head past
// heldBodyBound. Bounded: it indents at most heldBodyBound bytes.
func indented(raw []byte) string {
	if len(raw) > heldBodyBound {
		return string(raw[:cutUTF8(raw, heldBodyBound)])
	}
	var b bytes.Buffer
	if json.Indent(&b, raw, "", "  ") == nil {
		return b.String()
	}
	return string(raw)
}

// current is the held message shown, or nil.
func (d *holdDialog) current(m *Model) *fault.Held {
	for i := range m.brk.held {
		if m.brk.held[i].ID == d.id {
			return &m.brk.held[i]
		}
	}
	return nil
}

// sync shows the oldest held message when the one shown was decided.
func (d *holdDialog) sync(m *Model) {
	if d.current(m) != nil || len(m.brk.held) == 0 {
		return
	}
	h := m.brk.held[0]
	// Masked before it is laid out: a line cut at the edge must not show a secret's head.
	d.id, d.body, d.editing, d.answering, d.flagged, d.problem = h.ID, heldBody(m.c.Mask.Bytes(h.Raw)), false, false, false, ""
}

// Update implements Dialog.
func (d *holdDialog) Update(m *Model, msg tea.Msg) (tea.Cmd, DialogResult) {
	if d.id == 0 {
		d.sync(m)
	}
	switch msg := msg.(type) {
	case holdDecidedMsg:
		return d.decided(m, msg)
	case tea.PasteMsg:
		if d.editing {
			var cmd tea.Cmd
			d.editor, cmd = d.editor.Update(msg)
			return cmd, DialogStay
		}
		return nil, DialogStay
	case tea.KeyPressMsg:
		if msg.String() == "ctrl+c" {
			return nil, DialogPass
		}
		if d.editing {
			return d.editKey(m, msg), DialogStay
		}
		return d.key(m, msg), DialogStay
	}
	return nil, DialogPass
}

// decided takes a decision's outcome: the held messages are read again; the dialog
// closes when none is left.
func (d *holdDialog) decided(m *Model, msg holdDecidedMsg) (tea.Cmd, DialogResult) {
	m.brk.held = m.opts.Breakpoints.Held()
	status := statusCmd(msg.What, false)
	if msg.Err != nil {
		status = statusCmd(msg.What+": "+msg.Err.Error(), true)
	}
	if len(m.brk.held) == 0 {
		return status, DialogDone
	}
	d.sync(m)
	return status, DialogStay
}

// key is a key while the message is shown.
func (d *holdDialog) key(m *Model, kp tea.KeyPressMsg) tea.Cmd {
	k, bps, h := m.c.Keys.Break, m.opts.Breakpoints, d.current(m)
	if h == nil {
		d.sync(m)
		return nil
	}
	switch {
	case key.Matches(kp, k.Forward):
		return decideCmd(bps, h.ID, fault.Decision{Verb: fault.Forward}, fmt.Sprintf("held #%d forwarded", h.ID))
	case key.Matches(kp, k.Drop):
		return decideCmd(bps, h.ID, fault.Decision{Verb: fault.DropIt}, fmt.Sprintf("held #%d dropped", h.ID))
	case key.Matches(kp, k.ContinueAll):
		return continueAllCmd(bps)
	case key.Matches(kp, k.Edit):
		return d.edit(m, h.Raw, false)
	case key.Matches(kp, k.AnswerError), key.Matches(kp, k.AnswerResult):
		if !h.Request {
			d.problem = "only a request can be answered"
			return nil
		}
		if key.Matches(kp, k.AnswerError) {
			return decideCmd(bps, h.ID, fault.Decision{Verb: fault.Answer, Raw: answerError(*h)}, fmt.Sprintf("held #%d answered with an error", h.ID))
		}
		return d.edit(m, answerResult(*h, m.info.Revision), true)
	}
	return nil
}

// edit opens the editor on raw (indented when it is JSON), its secrets masked: the editor
// wraps its lines, and a secret split across two would escape the screen's mask. Each mask
// is given its secret back when the text is sent.
func (d *holdDialog) edit(m *Model, raw []byte, answering bool) tea.Cmd {
	if len(raw) > heldBodyBound {
		d.problem = "too large to edit here: forward, drop or answer it"
		return nil
	}
	d.editor = textarea.New()
	d.editor.ShowLineNumbers = false
	d.editor.SetWidth(max(10, d.width))
	d.editor.SetHeight(holdEditorHeight(d.height))
	d.editor.CharLimit = 0
	d.editor.MaxHeight = 0
	d.hidden = m.c.Mask.Hide(indented(raw))
	d.opened = d.hidden.Text()
	d.editor.SetValue(d.opened)
	d.editing, d.answering, d.flagged, d.problem = true, answering, false, ""
	return d.editor.Focus()
}

// editKey is a key while the editor is open: ctrl+s sends, esc goes back to the message.
func (d *holdDialog) editKey(m *Model, kp tea.KeyPressMsg) tea.Cmd {
	k := m.c.Keys.Act
	h := d.current(m)
	switch {
	case h == nil:
		d.sync(m)
		return nil
	case key.Matches(kp, k.Send):
		text, err := d.hidden.Reveal(d.editor.Value())
		if err != nil && !d.flagged {
			d.flagged = true
			d.problem = "flagged: " + err.Error() + " — ctrl+s again sends it as it is, " + secret.Mask + " included"
			return nil
		}
		raw := []byte(text)
		var b bytes.Buffer
		if json.Compact(&b, raw) == nil {
			raw = b.Bytes()
		}
		// Bounded: what the user typed, once per ctrl+s.
		if f := protocol.Decode(raw); len(f.Findings) > 0 && !d.flagged {
			d.flagged = true
			d.problem = "flagged: " + f.Findings[0].Message + " — ctrl+s again sends it as it is"
			if h.LineFramed && bytes.ContainsAny(raw, "\r\n") {
				d.problem += ", its line breaks as spaces (a stdio frame is one line)"
			}
			return nil
		}
		if d.answering {
			return decideCmd(m.opts.Breakpoints, h.ID, fault.Decision{Verb: fault.Answer, Raw: raw}, fmt.Sprintf("held #%d answered", h.ID))
		}
		return decideCmd(m.opts.Breakpoints, h.ID, fault.Decision{Verb: fault.Forward, Raw: raw}, fmt.Sprintf("held #%d forwarded, edited", h.ID))
	case key.Matches(kp, k.Dismiss):
		d.editing, d.problem = false, ""
		return nil
	}
	d.flagged, d.problem = false, "" // the flag was about the text before this key
	if d.formKey(kp) {
		return nil
	}
	var cmd tea.Cmd
	d.editor, cmd = d.editor.Update(kp)
	return cmd
}

// Draw implements Dialog: the held message over the body.
func (d *holdDialog) Draw(m *Model, scr *Screen) {
	s := m.c.Styles
	h := d.current(m)
	if h == nil {
		return
	}
	iw, ih := bodyDialogSize(scr.Layout)
	what := h.Dir.String() + " " + h.Kind.String()
	if h.Method != "" {
		what += " " + h.Method
	}
	if !h.MsgID.IsZero() {
		what += " #" + h.MsgID.String()
	}
	title := fmt.Sprintf("Held #%d  %s", h.ID, what)
	held := max(0, m.timeline.Now.Sub(h.Since)).Truncate(1e9)
	out := []string{s.Bold.Render(escapeText(title)) + "  " + s.Accent.Render("held "+held.String())}
	if more := len(m.brk.held) - 1; more > 0 {
		out[0] += "  " + s.BadgeFinding.Render(fmt.Sprintf("+%d more held", more))
	}
	out = append(out, s.Muted.Render("breakpoint "+escapeText(h.Point)+" · the other side's timeout keeps running"), "")
	room := max(3, ih-len(out)-4)
	if d.editing {
		label := "Edit, then ctrl+s forwards it (esc: back)"
		if d.answering {
			label = "The answer mcpscope sends in the other side's place (ctrl+s sends, esc: back)"
		}
		if d.hidden.Secrets() > 0 {
			label += " · each " + secret.Mask + " is a secret, sent as it was"
		}
		out = append(out, wrapStyled(s.PaneTitle.Render, label, iw)...)
		out = append(out, strings.Split(d.editor.View(), "\n")...)
		for _, l := range wrapHint(holdEditHint(), iw) {
			out = append(out, s.HelpDesc.Render(l))
		}
	} else {
		lines := strings.Split(d.body, "\n")
		if len(lines) > room {
			lines = append(lines[:room-1], fmt.Sprintf("… %d more lines (e opens it all in the editor)", len(lines)-room+1))
		}
		for _, l := range lines {
			out = append(out, s.Text.Render(ansi.Truncate(l, iw, "…")))
		}
	}
	if d.problem != "" {
		out = append(out, "")
		out = append(out, wrapStyled(s.Error.Render, escapeText(d.problem), iw)...)
	}
	if !d.editing {
		hint := "f forward · e edit · d drop · C continue all"
		if h.Request {
			hint = "f forward · e edit · d drop · x answer error · r answer result · C continue all"
		}
		out = append(out, "")
		for _, l := range wrapHint(hint, iw) {
			out = append(out, s.HelpDesc.Render(l))
		}
	}
	m.overlayDialog(scr, out)
}

// Keys implements Dialog.
func (d *holdDialog) Keys(m *Model) []key.Binding {
	k := m.c.Keys
	if d.editing {
		return append([]key.Binding{k.Act.Send}, append(holdEditKeys(), k.Act.Dismiss)...)
	}
	return []key.Binding{k.Break.Forward, k.Break.Edit, k.Break.Drop, k.Break.AnswerError, k.Break.AnswerResult, k.Break.ContinueAll}
}

// SetSize implements Dialog.
func (d *holdDialog) SetSize(l Layout) {
	iw, ih := bodyDialogSize(l)
	d.width, d.height = iw, ih
	if d.editing {
		d.editor.SetWidth(max(10, iw))
		d.editor.SetHeight(holdEditorHeight(ih))
	}
}

// wrapStyled is text wrapped at w cells (words kept whole where they fit), each line
// rendered by st: an instruction or an error is read whole, never cut at the edge.
func wrapStyled(st func(...string) string, text string, w int) []string {
	lines := strings.Split(ansi.Wrap(text, max(1, w), ""), "\n")
	for i, l := range lines {
		lines[i] = st(l)
	}
	return lines
}

// wrapHint breaks a hint of "a · b · c" parts into lines of at most w cells, between parts.
func wrapHint(hint string, w int) []string {
	var out []string
	line := ""
	for _, part := range strings.Split(hint, " · ") {
		switch {
		case line == "":
			line = part
		case ansi.StringWidth(line+" · "+part) <= w:
			line += " · " + part
		default:
			out, line = append(out, line), part
		}
	}
	return append(out, line)
}
