package ui

import (
	"path/filepath"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/ui/internal/textfmt"
	"github.com/mcpscope/mcpscope/ui/traffic"
)

// The dialogs of the inspector itself: the quit confirmation, the filter and save prompts
// in the footer, and the full help. Each takes every key while it is on top.
var (
	_ Dialog = (*confirmDialog)(nil)
	_ Dialog = (*filterDialog)(nil)
	_ Dialog = (*saveDialog)(nil)
	_ Dialog = (*helpDialog)(nil)
)

// confirmDialog asks whether to quit while requests are in flight; the model also quits
// once they have all finished (events).
type confirmDialog struct {
	inFlight string // "2 in flight": the calls awaiting an answer; "" when none
	unsaved  bool   // the session is not recorded and not saved: quitting loses it
}

// Update implements Dialog.
func (d *confirmDialog) Update(m *Model, msg tea.Msg) (tea.Cmd, DialogResult) {
	kp, ok := msg.(tea.KeyPressMsg)
	k := m.c.Keys
	switch {
	case !ok:
		return nil, DialogPass
	case d.unsaved && key.Matches(kp, k.SaveSession):
		return m.startSave(), DialogCancel // save instead; q again quits
	case key.Matches(kp, k.Yes), kp.String() == "ctrl+c":
		return tea.Quit, DialogDone
	case key.Matches(kp, k.No):
		return nil, DialogCancel
	}
	return nil, DialogStay
}

// Draw implements Dialog: the question in place of the body, saying what quitting loses.
func (d *confirmDialog) Draw(m *Model, scr *Screen) {
	l, s := scr.Layout.Body, m.c.Styles
	var why []string
	if d.inFlight != "" {
		why = append(why, s.Bold.Render("Requests are in flight")+" ("+d.inFlight+").")
	}
	if d.unsaved {
		why = append(why, s.Bold.Render("The session is not recorded (--no-record).")+"\n"+
			m.c.Keys.SaveSession.Help().Key+" saves it instead of quitting.")
	}
	scr.Body = lipgloss.Place(l.W, l.H, lipgloss.Center, lipgloss.Center,
		s.Dialog.Render(strings.Join(why, "\n")+"\nQuit anyway? (y/n)"))
}

// Keys implements Dialog: the page's help line stays.
func (*confirmDialog) Keys(*Model) []key.Binding { return nil }

// SetSize implements Dialog.
func (*confirmDialog) SetSize(Layout) {}

// filterDialog edits the timeline's filter (the model's filter input, which keeps its
// value when the dialog closes) in the footer, filtering as the user types.
type filterDialog struct {
	_ byte // not zero-size: the stack tells dialogs apart by address
}

// openFilter opens the filter prompt.
func (m *Model) openFilter() tea.Cmd {
	m.pushDialog(&filterDialog{})
	m.relayout()
	return m.filter.Focus()
}

// Update implements Dialog: enter keeps the filter, esc clears it.
func (*filterDialog) Update(m *Model, msg tea.Msg) (tea.Cmd, DialogResult) {
	kp, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, DialogPass
	}
	switch kp.String() {
	case "esc", "enter":
		var refilter tea.Cmd
		res := DialogDone
		if kp.String() == "esc" {
			res = DialogCancel
			cleared := m.filter.Value() != ""
			m.filter.SetValue("")
			m.timeline.SetQuery(traffic.Query{})
			if cleared {
				refilter = m.openRefilter()
			}
		}
		m.filter.Blur()
		return tea.Batch(m.detail.SetEntry(m.timeline.Selected()), refilter), res
	}
	var cmd tea.Cmd
	before := m.filter.Value()
	m.filter, cmd = m.filter.Update(kp)
	m.timeline.SetQuery(traffic.ParseQuery(m.filter.Value()))
	if m.filter.Value() != before {
		// The detail follows the selection the query leaves, as the filter is typed.
		cmd = tea.Batch(cmd, m.openRefilter(), m.detail.SetEntry(m.timeline.Selected()))
	}
	return cmd, DialogStay
}

// Draw implements Dialog: the input, and the query's error, in the footer.
func (*filterDialog) Draw(m *Model, scr *Screen) {
	w := scr.Layout.Footer.W
	line := m.filter.View()
	if q := m.timeline.Query(); q.Err != "" {
		msg := textfmt.Clip(q.Err, max(10, w/2))
		line = textfmt.FitRow(line, max(0, w-ansi.StringWidth(msg)-2)) + "  " + m.c.Styles.Finding.Render(msg)
	}
	scr.Footer = textfmt.FitRow(line, w)
}

// Keys implements Dialog.
func (*filterDialog) Keys(*Model) []key.Binding { return nil }

// SetSize implements Dialog (the model sizes its filter input in relayout).
func (*filterDialog) SetSize(Layout) {}

// saveDialog asks in the footer for the file to save the session, or one frame, to.
type saveDialog struct {
	input textinput.Model
	frame *payload // the detail's frame being saved, or nil for the session
}

// openSavePrompt asks for a file name in the footer, offering name; frame is the detail's
// frame to save, or nil for the session.
func (m *Model) openSavePrompt(prompt, name string, frame *payload) tea.Cmd {
	d := &saveDialog{input: newSaveInput(), frame: frame}
	d.input.Prompt = prompt
	d.input.SetValue(name)
	d.input.CursorEnd()
	m.pushDialog(d)
	m.relayout()
	return d.input.Focus()
}

// Update implements Dialog: enter saves, esc cancels.
func (d *saveDialog) Update(m *Model, msg tea.Msg) (tea.Cmd, DialogResult) {
	kp, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, DialogPass
	}
	switch kp.String() {
	case "esc":
		d.input.Blur()
		return statusCmd("not saved", false), DialogCancel
	case "enter":
		d.input.Blur()
		path, frame := d.input.Value(), d.frame
		switch {
		case path == "":
			return statusCmd("not saved: no file name", true), DialogDone
		case frame != nil:
			// saveFile never writes over a file: a taken name gets a numbered suffix.
			frame.as = filepath.Base(path)
			return saveCmd(filepath.Dir(path), *frame), DialogDone
		}
		return m.saveCmd(path), DialogDone
	}
	var cmd tea.Cmd
	d.input, cmd = d.input.Update(kp)
	return cmd, DialogStay
}

// Draw implements Dialog: the prompt in the footer.
func (d *saveDialog) Draw(_ *Model, scr *Screen) {
	scr.Footer = textfmt.FitRow(d.input.View(), scr.Layout.Footer.W)
}

// Keys implements Dialog.
func (*saveDialog) Keys(*Model) []key.Binding { return nil }

// SetSize implements Dialog.
func (d *saveDialog) SetSize(l Layout) {
	d.input.SetWidth(max(10, l.Footer.W-len(d.input.Prompt)-1))
}

// helpDialog is the full help in place of the body, scrolled by offset.
type helpDialog struct {
	offset, lines int // the first line shown; how many lines the help has
}

// Update implements Dialog: ↑/↓ scroll, ? or esc closes.
func (h *helpDialog) Update(m *Model, msg tea.Msg) (tea.Cmd, DialogResult) {
	kp, ok := msg.(tea.KeyPressMsg)
	k := m.c.Keys
	switch {
	case !ok:
		return nil, DialogPass
	case key.Matches(kp, k.Help, k.Back, k.Quit):
		return nil, DialogDone
	case key.Matches(kp, k.Down, k.PageDown):
		h.offset = min(h.offset+1, max(0, h.lines-m.layout.Body.H))
	case key.Matches(kp, k.Up, k.PageUp):
		h.offset = max(0, h.offset-1)
	}
	return nil, DialogStay
}

// Draw implements Dialog.
func (h *helpDialog) Draw(m *Model, scr *Screen) {
	l := scr.Layout.Body
	scr.Body = textfmt.FitBlock(m.fullHelp(h), l.W, l.H)
}

// Keys implements Dialog: the help's own keys, not those of the page under it.
func (*helpDialog) Keys(m *Model) []key.Binding {
	k := m.c.Keys
	scroll, closeKey := k.Down, k.Help
	scroll.SetHelp("↑/↓", "scroll")
	closeKey.SetHelp("?/esc/q", "close help")
	return []key.Binding{scroll, closeKey}
}

// SetSize implements Dialog.
func (*helpDialog) SetSize(Layout) {}
