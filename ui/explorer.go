package ui

import (
	"encoding/json"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/session"
)

// Explorer lists the server's tools, resources, templates and prompts.
type Explorer struct {
	c     *Common
	w, h  int
	lists map[session.ListKind][]json.RawMessage
	errs  map[session.ListKind]error
}

// NewExplorer makes the explorer page.
func NewExplorer(c *Common) *Explorer {
	return &Explorer{c: c, lists: map[session.ListKind][]json.RawMessage{}}
}

// SetSize sets the page size.
func (x *Explorer) SetSize(w, h int) { x.w, x.h = w, h }

// SetLists replaces every list.
func (x *Explorer) SetLists(l map[session.ListKind][]json.RawMessage, errs map[session.ListKind]error) {
	x.lists, x.errs = l, errs
}

// UpdateLists replaces the lists that were refreshed.
func (x *Explorer) UpdateLists(l map[session.ListKind][]json.RawMessage) {
	for k, v := range l {
		x.lists[k] = v
	}
}

// Capturing reports whether the explorer takes every key (its filter is being typed).
func (x *Explorer) Capturing() bool { return false }

// Keys are the explorer's bindings for the help line.
func (x *Explorer) Keys() []key.Binding { return []key.Binding{x.c.Keys.Up, x.c.Keys.Down} }

// Update handles keys.
func (x *Explorer) Update(msg tea.Msg) tea.Cmd { return nil }

// View renders the page.
func (x *Explorer) View() string {
	var b strings.Builder
	for _, k := range session.ListKinds {
		fmt.Fprintf(&b, "%s (%d)\n", k, len(x.lists[k]))
		for _, it := range x.lists[k] {
			var v struct {
				Name string `json:"name"`
				URI  string `json:"uri"`
			}
			_ = json.Unmarshal(it, &v)
			b.WriteString("  " + v.Name + " " + v.URI + "\n")
		}
	}
	return b.String()
}
