package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/ui/explorer"
)

// Pane is a part of a page the model lays out and routes to: the timeline, the detail,
// the explorer, the server page, the tasks page, the server picker and the stats page. The model sizes every pane in
// relayout, sends the focused one the keys and messages no dialog or global key took, and
// builds the help line from its Keys and the global keys it adds.
type Pane interface {
	// SetSize gives the pane its cells: View then draws exactly h lines of w cells.
	SetSize(w, h int)
	// Update handles a key or a message of the pane's own.
	Update(msg tea.Msg) tea.Cmd
	// View draws the pane.
	View() string
	// Keys are the pane's bindings for the help line, disabled where they do nothing.
	Keys() []key.Binding
}

var (
	_ Pane = (*Timeline)(nil)
	_ Pane = (*Detail)(nil)
	_ Pane = (*explorer.Explorer)(nil)
	_ Pane = (*ServerPage)(nil)
	_ Pane = (*TasksPage)(nil)
	_ Pane = (*ServersPage)(nil)
	_ Pane = (*StatsPage)(nil)
	_ Pane = (*AuthPage)(nil)
)

// Keys are the timeline's bindings for the help line.
func (t *Timeline) Keys() []key.Binding {
	k := t.c.Keys
	return []key.Binding{k.Up, k.Down, k.Open, k.Pair, k.Filter}
}

// focusedPane is the pane that has the keys.
func (m *Model) focusedPane() Pane { return pages[m.page].pane(m) }
