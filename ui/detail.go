package ui

import (
	"bytes"
	"encoding/json"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// Detail shows the selected entry in full.
type Detail struct {
	c       *Common
	w, h    int
	focused bool
	entry   *Entry
	failure string
	offset  int
	lines   []string
}

// NewDetail makes the detail pane.
func NewDetail(c *Common) *Detail { return &Detail{c: c} }

// SetSize sets the pane size.
func (d *Detail) SetSize(w, h int) { d.w, d.h = w, h; d.render() }

// SetFocused marks the pane focused.
func (d *Detail) SetFocused(f bool) { d.focused = f }

// SetFailure shows a connection failure instead of an entry ("" clears it).
func (d *Detail) SetFailure(text string) { d.failure = text; d.render() }

// Restyle re-renders after a palette change.
func (d *Detail) Restyle() tea.Cmd { d.render(); return nil }

// SetEntry shows e.
func (d *Detail) SetEntry(e *Entry) tea.Cmd {
	if e == d.entry {
		return nil
	}
	d.entry, d.offset = e, 0
	d.render()
	return nil
}

// Keys are the detail pane's bindings for the help line.
func (d *Detail) Keys() []key.Binding { return []key.Binding{d.c.Keys.Up, d.c.Keys.Down} }

func (d *Detail) render() {
	d.lines = nil
	if d.failure != "" {
		d.lines = strings.Split(d.failure, "\n")
		return
	}
	e := d.entry
	if e == nil || e.Ev == nil || e.Ev.Frame == nil {
		return
	}
	var b bytes.Buffer
	if json.Indent(&b, e.Ev.Frame.Raw, "", "  ") != nil {
		b.Reset()
		b.Write(e.Ev.Frame.Raw)
	}
	d.lines = strings.Split(b.String(), "\n")
}

// Update scrolls.
func (d *Detail) Update(msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(k, d.c.Keys.Up):
			d.offset = max(0, d.offset-1)
		case key.Matches(k, d.c.Keys.Down):
			d.offset = min(max(0, len(d.lines)-d.h), d.offset+1)
		}
	}
	return nil
}

// View renders the pane.
func (d *Detail) View() string {
	if d.w <= 0 || d.h <= 0 {
		return ""
	}
	end := min(len(d.lines), d.offset+d.h)
	return fitBlock(strings.Join(d.lines[min(d.offset, end):end], "\n"), d.w, d.h)
}
