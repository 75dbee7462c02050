package ui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/session/fault"
)

var _ Dialog = (*breakpointsDialog)(nil)

// breakpointsDialog is B: the breakpoints, each enabled or not; a adds one (any query of
// the filter's language, refused with the column of a mistake), space turns the chosen
// one on or off, d removes it. While the query input has focus it takes every printable
// key.
type breakpointsDialog struct {
	list    []fault.Breakpoint
	cursor  int
	adding  bool
	input   textinput.Model
	problem string
}

func newBreakpointsDialog(m *Model) *breakpointsDialog {
	d := &breakpointsDialog{input: textinput.New()}
	d.input.Prompt = "query: "
	d.input.Placeholder = "tool:=search  or  method:=tools/call dir:out"
	d.list = m.opts.Breakpoints.List()
	return d
}

// Update implements Dialog.
func (d *breakpointsDialog) Update(m *Model, msg tea.Msg) (tea.Cmd, DialogResult) {
	bps, k := m.opts.Breakpoints, m.c.Keys
	switch msg := msg.(type) {
	case tea.PasteMsg:
		if d.adding {
			var cmd tea.Cmd
			d.input, cmd = d.input.Update(msg)
			return cmd, DialogStay
		}
		return nil, DialogStay
	case tea.KeyPressMsg:
		if msg.String() == "ctrl+c" {
			return nil, DialogPass
		}
		if d.adding {
			switch msg.String() {
			case "enter":
				p, err := bps.Add(d.input.Value())
				if err != nil {
					d.problem = err.Error()
					return nil, DialogStay
				}
				d.adding, d.problem = false, ""
				d.input.Blur()
				d.list = bps.List()
				d.cursor = len(d.list) - 1
				return statusCmd(fmt.Sprintf("breakpoint %d: %s", p.ID, p.Query), false), DialogStay
			case "esc":
				d.adding, d.problem = false, ""
				d.input.Blur()
				return nil, DialogStay
			}
			var cmd tea.Cmd
			d.input, cmd = d.input.Update(msg)
			return cmd, DialogStay
		}
		switch {
		case key.Matches(msg, k.Act.Dismiss):
			return nil, DialogCancel
		case key.Matches(msg, k.Break.Add):
			d.adding, d.problem = true, ""
			d.input.SetValue("")
			return d.input.Focus(), DialogStay
		case key.Matches(msg, k.Down):
			d.cursor = min(d.cursor+1, len(d.list)-1)
		case key.Matches(msg, k.Up):
			d.cursor = max(d.cursor-1, 0)
		case len(d.list) == 0:
		case key.Matches(msg, k.Break.Toggle):
			p := d.list[d.cursor]
			bps.Enable(p.ID, !p.Enabled)
			d.list = bps.List()
		case key.Matches(msg, k.Break.Remove):
			bps.Remove(d.list[d.cursor].ID)
			d.list = bps.List()
			d.cursor = max(0, min(d.cursor, len(d.list)-1))
		}
		return nil, DialogStay
	}
	return nil, DialogPass
}

// Draw implements Dialog: the list over the body.
func (d *breakpointsDialog) Draw(m *Model, scr *Screen) {
	s := m.c.Styles
	out := []string{s.Bold.Render("Breakpoints") + "  " + s.Muted.Render("a matching message, either way, is held until you decide")}
	if t := m.heldText(); t != "" {
		out[0] += "  " + s.BadgeFinding.Render(t)
	}
	out = append(out, "")
	if len(d.list) == 0 {
		out = append(out, s.Muted.Render("none yet: a adds one, or b on a timeline row"))
	}
	for i, p := range d.list {
		mark, st := "  ", s.Muted
		if i == d.cursor {
			mark, st = s.Accent.Render("▸ "), s.Text
		}
		box := "[ ]"
		if p.Enabled {
			box = "[x]"
		}
		out = append(out, mark+st.Render(fmt.Sprintf("%s %d  %s", box, p.ID, escapeText(p.Query))))
	}
	if d.adding {
		out = append(out, "", d.input.View())
	}
	if d.problem != "" {
		iw, _ := bodyDialogSize(scr.Layout)
		out = append(out, "")
		out = append(out, wrapStyled(s.Error.Render, escapeText(d.problem), iw)...)
	}
	hint := "a add · space enable/disable · d remove · esc close"
	if d.adding {
		hint = "enter add · esc cancel"
	}
	out = append(out, "", s.HelpDesc.Render(hint))
	m.overlayDialog(scr, out)
}

// Keys implements Dialog.
func (d *breakpointsDialog) Keys(m *Model) []key.Binding {
	k := m.c.Keys
	if d.adding {
		return []key.Binding{k.Open, k.Act.Dismiss}
	}
	return []key.Binding{k.Break.Add, k.Break.Toggle, k.Break.Remove, k.Up, k.Down, k.Act.Dismiss}
}

// SetSize implements Dialog.
func (d *breakpointsDialog) SetSize(l Layout) {
	iw, _ := bodyDialogSize(l)
	d.input.SetWidth(max(10, iw-8))
}
